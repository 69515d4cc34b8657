/**
 * The floor: an SDK `Server` whose one tool does nothing and returns `{}`, over stdio, or with
 * `--http MODULE` behind our own HTTP stack (MODULE: the built dist/mcp/http/serve.js). With
 * `--answers FILE` (`[{name, outputSchema?, result}]`) each named tool answers its canned result:
 * what carrying one particular answer costs, with no work behind it.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

interface Canned {
  readonly name: string;
  readonly outputSchema?: Record<string, unknown>;
  readonly result: { content: Array<{ type: 'text'; text: string }>; structuredContent?: Record<string, unknown> };
}

const answersFile = process.argv.includes('--answers') ? process.argv[process.argv.indexOf('--answers') + 1] : undefined;
const canned: Canned[] = answersFile ? (JSON.parse(readFileSync(answersFile, 'utf8')) as Canned[]) : [];
const answers = new Map(canned.map((c) => [c.name, c.result]));

function noopServer(): Server {
  const server = new Server({ name: 'noop', version: '0' }, { capabilities: { tools: { listChanged: false } } });
  server.setRequestHandler('tools/list', async () => ({
    tools: [
      { name: 'noop', description: 'Does nothing.', inputSchema: { type: 'object', properties: {}, additionalProperties: false } },
      ...canned.map((c) => ({ name: c.name, inputSchema: { type: 'object' as const }, ...(c.outputSchema ? { outputSchema: c.outputSchema } : {}) })),
    ],
  }));
  server.setRequestHandler('tools/call', async (request) => answers.get(request.params.name) ?? { content: [{ type: 'text', text: '{}' }], structuredContent: {} });
  return server;
}

const httpModule = process.argv[process.argv.indexOf('--http') + 1];
if (process.argv.includes('--http') && httpModule) {
  const { serveHttp } = (await import(pathToFileURL(httpModule).href)) as typeof import('../src/mcp/http/serve.js');
  const http = await serveHttp(noopServer, { host: '127.0.0.1', port: 0, token: process.env.TMUX_MCP_TOKEN ?? '', allowedHostnames: [] });
  process.stderr.write(`noop: HTTP at ${http.url}\n`);
  process.on('SIGTERM', () => process.exit(0));
} else {
  process.stdin.on('end', () => process.exit(0));
  await noopServer().connect(new StdioServerTransport());
}
