/**
 * The floor of any Node MCP server: a bare process, no SDK, that answers `initialize`, `tools/list`
 * and `tools/call` (one tool, `noop`, answering "ok") with canned JSON. Over stdio by default (one
 * JSON message a line); with `--http`, on node:http at a free loopback port it names on stderr
 * ("bare: HTTP at <url>"), each POST answered with its JSON (a 2025 `initialize` gets a session id,
 * a notification 202). The same answers both ways, so its HTTP p50 minus its stdio p50 is what HTTP
 * costs a server that does nothing else.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const TOOL = { name: 'noop', description: 'does nothing', inputSchema: { type: 'object' } };

function answer(message: { id?: unknown; method?: string; params?: { protocolVersion?: string } }): object | undefined {
  if (message.id === undefined) return undefined;
  const reply = (result: object) => ({ jsonrpc: '2.0', id: message.id, result });
  switch (message.method) {
    case 'initialize':
      return reply({ protocolVersion: message.params?.protocolVersion ?? '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'bare', version: '0' } });
    case 'tools/list':
      return reply({ tools: [TOOL] });
    case 'tools/call':
      return reply({ content: [{ type: 'text', text: 'ok' }] });
    default:
      return { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'method not found' } };
  }
}

if (process.argv.includes('--http')) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'DELETE') return void res.writeHead(200).end();
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const reply = answer(message);
      if (!reply) return void res.writeHead(202).end();
      const body = JSON.stringify(reply);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...(message.method === 'initialize' ? { 'mcp-session-id': 'bare' } : {}) });
      res.end(body);
    });
  });
  server.listen(0, '127.0.0.1', () => process.stderr.write(`bare: HTTP at http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp\n`));
  process.on('SIGTERM', () => process.exit(0));
} else {
  let pending = '';
  process.stdin.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    let newline: number;
    while ((newline = pending.indexOf('\n')) !== -1) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      const reply = line.trim() === '' ? undefined : answer(JSON.parse(line));
      if (reply) process.stdout.write(JSON.stringify(reply) + '\n');
    }
  });
  process.stdin.on('end', () => process.exit(0));
}
