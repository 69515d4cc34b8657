/**
 * Plain clients for comparing transports with as little client between the timer and the wire as
 * possible: one JSON-RPC message a line over a child's stdio, or POSTs on one keep-alive HTTP
 * connection (test/fixture/http-load.ts). The same client code drives our server and the bare
 * responder, so the difference between two rows is the servers', not the clients'.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { LoadClient, type LoadEra } from '../test/fixture/http-load.js';
import { processCpuNs } from './mcp.js';

export interface PlainClient {
  readonly label: string;
  readonly pid: number;
  /** One tools/call, timed from the write to the parsed answer; throws on an error answer. */
  call(tool: string, args: Record<string, unknown>): Promise<number>;
  cpuNs(): number;
  close(): Promise<void>;
}

export const PLAIN_TOKEN = `bench-plain-${process.pid}`;

export async function plainStdio(label: string, command: string, args: string[], env: NodeJS.ProcessEnv): Promise<PlainClient> {
  const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
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
    pid: child.pid!,
    async call(tool, toolArgs) {
      const start = performance.now();
      const message = await request('tools/call', { name: tool, arguments: toolArgs });
      const ms = performance.now() - start;
      if (message.error || message.result?.isError) throw new Error(`${label} ${tool}: ${JSON.stringify(message).slice(0, 300)}`);
      return ms;
    },
    cpuNs: () => processCpuNs(child.pid!),
    close: () => stop(child),
  };
}

/** A server that prints "HTTP at <url>" on stderr once it listens, driven by one plain HTTP client in `era`. */
export async function plainHttp(label: string, command: string, args: string[], env: NodeJS.ProcessEnv, era: LoadEra): Promise<PlainClient> {
  const { child, url } = await startListening(command, args, env, label);
  const client = new LoadClient(url, PLAIN_TOKEN, era);
  await client.open();
  return {
    label,
    pid: child.pid!,
    async call(tool, toolArgs) {
      const start = performance.now();
      const answer = await client.call(tool, toolArgs);
      const ms = performance.now() - start;
      if (!answer.ok) throw new Error(`${label} ${tool}: ${answer.text.slice(0, 300)}`);
      return ms;
    },
    cpuNs: () => processCpuNs(child.pid!),
    async close() {
      await client.close();
      await stop(child);
    },
  };
}

/** Starts a server that prints "HTTP at <url>" on stderr; its process and URL. */
export async function startListening(command: string, args: string[], env: NodeJS.ProcessEnv, label: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(command, args, { env: { ...env, TMUX_MCP_TOKEN: PLAIN_TOKEN }, stdio: ['ignore', 'ignore', 'pipe'] });
  return { child, url: await listening(child, label) };
}

function listening(child: ChildProcess, label: string): Promise<string> {
  let stderr = '';
  return new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const found = /HTTP at (\S+\/mcp)/.exec(stderr)?.[1];
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`${label} exited (${code}) before listening: ${stderr}`)));
  });
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
