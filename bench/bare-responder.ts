/**
 * The floor of any Node MCP server, no SDK: answers `initialize`, `tools/list` (the bytes of FILE,
 * as our server gives them; without FILE, one tool `noop`) and `tools/call` ("ok") over stdio, one
 * message a line; with `--http`, over node:http at a loopback port it names on stderr.
 */
import { readFileSync } from 'node:fs';

const file = process.argv.slice(2).find((arg) => !arg.startsWith('--'));
const tools = file ? readFileSync(file, 'utf8') : '{"tools":[{"name":"noop","description":"does nothing","inputSchema":{"type":"object"}}]}';
const CALLED = '{"content":[{"type":"text","text":"ok"}]}';

/** The answer to one message (undefined for a notification). */
function answer(message: { id?: number | string; method: string; params?: { protocolVersion?: string } }): string | undefined {
  if (message.id === undefined) return undefined;
  const result =
    message.method === 'initialize'
      ? JSON.stringify({ protocolVersion: message.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'bare', version: '0' } })
      : message.method === 'tools/list' ? tools : message.method === 'tools/call' ? CALLED : '{}';
  return `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${result}}`;
}

if (process.argv.includes('--http')) {
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST') return void res.writeHead(200).end();
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const body = answer(message);
      if (body === undefined) return void res.writeHead(202).end();
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...(message.method === 'initialize' ? { 'mcp-session-id': 'bare' } : {}) });
      res.end(body);
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address() as import('node:net').AddressInfo;
    process.stderr.write(`bare: HTTP at http://127.0.0.1:${address.port}/mcp\n`);
  });
  process.on('SIGTERM', () => process.exit(0));
} else {
  let buffered = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => {
    buffered += chunk;
    let end: number;
    while ((end = buffered.indexOf('\n')) !== -1) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      const reply = line.trim() === '' ? undefined : answer(JSON.parse(line));
      if (reply !== undefined) process.stdout.write(reply + '\n');
    }
  });
  process.stdin.on('end', () => process.exit(0));
}
