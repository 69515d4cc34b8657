/**
 * The no-op SDK server: an SDK `Server` whose one tool does nothing and answers `{}`: what any MCP
 * server built on the same SDK costs before it does any work. Over stdio; with `--http`, over
 * Streamable HTTP at a free loopback port in both protocol eras, on the SDK's own paths (its Node
 * adapter, `createMcpHandler` for 2026-07-28, a stateful transport per 2025-11-25 session), as ours
 * serves them; it names its URL on stderr ("HTTP at ...") and takes any token.
 */
import type { AddressInfo } from 'node:net';
import { createMcpHandler, isLegacyRequest, Server, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

function noopServer(): Server {
  const server = new Server({ name: 'noop', version: '0' }, { capabilities: { tools: { listChanged: false } } });
  server.setRequestHandler('tools/list', async () => ({
    tools: [{ name: 'noop', description: 'Does nothing.', inputSchema: { type: 'object', properties: {}, additionalProperties: false } }],
  }));
  server.setRequestHandler('tools/call', async () => ({ content: [{ type: 'text', text: '{}' }], structuredContent: {} }));
  return server;
}

if (process.argv.includes('--http')) {
  // Loaded only here, as ours loads its HTTP stack only with --http: a stdio start pays for none of it.
  const [{ randomUUID }, { createServer }, { toNodeHandler }] = await Promise.all([
    import('node:crypto'),
    import('node:http'),
    import('@modelcontextprotocol/node'),
  ]);
  const modern = createMcpHandler(noopServer, { legacy: 'reject' });
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  /** A 2025-11-25 request: in its session, or an initialize that opens one. */
  const legacy = async (request: Request): Promise<Response> => {
    const open = sessions.get(request.headers.get('mcp-session-id') ?? '');
    if (open) return open.handleRequest(request);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
      onsessionclosed: (id) => void sessions.delete(id),
    });
    await noopServer().connect(transport);
    return transport.handleRequest(request);
  };
  const handler = toNodeHandler({ fetch: async (request) => ((await isLegacyRequest(request)) ? legacy(request) : modern.fetch(request)) });
  const http = createServer((req, res) => void handler(req, res));
  http.listen(0, '127.0.0.1', () => process.stderr.write(`noop: HTTP at http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp\n`));
  process.on('SIGTERM', () => process.exit(0));
} else {
  process.stdin.on('end', () => process.exit(0));
  await noopServer().connect(new StdioServerTransport());
}
