/**
 * The floor: a low-level SDK `Server` on the same transport with one tool that does nothing and
 * returns `{}`. Its latency is what the protocol, the SDK and process hops cost by themselves, so
 * (our p50) / (this p50) isolates the work that is ours. Over stdio by default; with `--http`, behind
 * the same SDK HTTP handler our server uses (both eras), on a free loopback port it names on stderr.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
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
  // Imported only here: over stdio the floor must not pay for the HTTP stack (cold start, memory).
  const { toNodeHandler } = await import('@modelcontextprotocol/node');
  const serve = toNodeHandler(createMcpHandler(noopServer));
  const http = createServer((req, res) => void serve(req, res));
  http.listen(0, '127.0.0.1', () => process.stderr.write(`noop: HTTP at http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp\n`));
  process.on('SIGTERM', () => process.exit(0));
} else {
  process.stdin.on('end', () => process.exit(0));
  await noopServer().connect(new StdioServerTransport());
}
