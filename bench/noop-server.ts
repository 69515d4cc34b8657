/**
 * The floor: a low-level SDK `Server` on the same stdio transport with one tool that does nothing
 * and returns `{}`. Its latency is what the protocol, the SDK and process hops cost by themselves,
 * so (our p50) / (this p50) isolates the work that is ours.
 */
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const server = new Server({ name: 'noop', version: '0' }, { capabilities: { tools: { listChanged: false } } });

server.setRequestHandler('tools/list', async () => ({
  tools: [{ name: 'noop', description: 'Does nothing.', inputSchema: { type: 'object', properties: {}, additionalProperties: false } }],
}));

server.setRequestHandler('tools/call', async () => ({ content: [{ type: 'text', text: '{}' }], structuredContent: {} }));

process.stdin.on('end', () => process.exit(0));
await server.connect(new StdioServerTransport());
