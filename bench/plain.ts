/**
 * Plain clients for comparing transports with as little client between the timer and the wire as
 * possible: one JSON-RPC message a line over a child's stdio, or POSTs on one keep-alive HTTP
 * connection (test/fixture/http-load.ts). The same client code drives our server and the bare
 * responder, so the difference between two rows is the servers', not the clients'.
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { LoadClient, type LoadEra } from '../test/fixture/http-load.js';
import { processCpuNs, startListening, stop } from './mcp.js';

export interface PlainClient {
  readonly label: string;
  /** One tools/call, timed from the write to the parsed answer. */
  call(tool: string, args: Record<string, unknown>): Promise<{ ms: number; isError: boolean; text: string }>;
  cpuNs(): number;
  close(): Promise<void>;
}

export const PLAIN_TOKEN = `bench-plain-${process.pid}`;

/** `node ARGS` driven over stdio. */
export async function plainStdio(label: string, args: string[], env: NodeJS.ProcessEnv): Promise<PlainClient> {
  const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  let pending = '';
  let waiting: { id: number; resolve: (message: any) => void } | undefined;
  child.stdout!.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    let newline: number;
    while ((newline = pending.indexOf('\n')) !== -1) {
      const message = JSON.parse(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
      if (waiting && message.id === waiting.id) waiting.resolve(message);
    }
  });
  let id = 0;
  const request = (method: string, params: object) =>
    new Promise<any>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${label}: no answer to ${method} in 60 s: ${stderr}`)), 60_000);
      waiting = { id: ++id, resolve: (message) => (clearTimeout(timer), resolve(message)) };
      child.stdin!.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'plain', version: '0' } });
  child.stdin!.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  return {
    label,
    call: (tool, toolArgs) =>
      timed(() => request('tools/call', { name: tool, arguments: toolArgs }), (message) => {
        const isError = Boolean(message.error || message.result?.isError);
        return { isError, text: isError ? JSON.stringify(message) : '' };
      }),
    cpuNs: () => processCpuNs(child.pid!),
    close: () => stop(child),
  };
}

/** `node ARGS`, a server that prints "HTTP at <url>" on stderr once it listens, driven by one plain HTTP client in `era`. */
export async function plainHttp(label: string, args: string[], env: NodeJS.ProcessEnv, era: LoadEra): Promise<PlainClient> {
  const { child, url } = await startListening(args, env, PLAIN_TOKEN);
  const client = new LoadClient(url, PLAIN_TOKEN, era);
  await client.open();
  return {
    label,
    call: (tool, toolArgs) => timed(() => client.call(tool, toolArgs), (answer) => ({ isError: !answer.ok, text: answer.text })),
    cpuNs: () => processCpuNs(child.pid!),
    async close() {
      await client.close();
      await stop(child);
    },
  };
}

/** One call timed from the write to the parsed answer, and what the answer says. */
async function timed<T>(send: () => Promise<T>, read: (answer: T) => { isError: boolean; text: string }) {
  const start = performance.now();
  const answer = await send();
  const ms = performance.now() - start;
  const { isError, text } = read(answer);
  return { ms, isError, text: text.slice(0, 300) };
}
