/**
 * The floor of any Node MCP server's start-up: plain node, no SDK, answering `initialize` and
 * `tools/list` over stdio with the bytes of FILE (`node bare-responder.mjs FILE`: a tools/list
 * result, as our server gives it). What is left between this and our first answer is ours.
 */
import { readFileSync } from 'node:fs';

const tools = readFileSync(process.argv[2]!, 'utf8');
let buffered = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  buffered += chunk;
  let end: number;
  while ((end = buffered.indexOf('\n')) !== -1) {
    const message = JSON.parse(buffered.slice(0, end)) as { id?: number; method: string; params?: { protocolVersion?: string } };
    buffered = buffered.slice(end + 1);
    if (message.id === undefined) continue;
    const result =
      message.method === 'initialize'
        ? JSON.stringify({ protocolVersion: message.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'bare', version: '0' } })
        : message.method === 'tools/list' ? tools : '{}';
    process.stdout.write(`{"jsonrpc":"2.0","id":${message.id},"result":${result}}\n`);
  }
});
process.stdin.on('end', () => process.exit(0));
