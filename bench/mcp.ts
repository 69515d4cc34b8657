/**
 * Drives an MCP server over stdio or Streamable HTTP with the official SDK Client, as a real agent
 * host does, and times each tools/call from just before the request is written to just after the
 * result is parsed.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { performance } from 'node:perf_hooks';
import { spawn, type ChildProcess } from 'node:child_process';
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

export const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
let cliPath = CLI;
/** Points the bench at another build of the server (to compare two versions on the same machine). */
export function useCli(path: string): void {
  cliPath = path;
}
export const NOOP_SERVER = fileURLToPath(new URL('./noop-server.ts', import.meta.url));
export const BARE_RESPONDER = fileURLToPath(new URL('./bare-responder.ts', import.meta.url));
export const THREE_FIELD_SERVER = fileURLToPath(new URL('./three-field-server.ts', import.meta.url));

export interface CallOutcome {
  readonly ms: number;
  /** Wall clock (ms since the epoch) when the result was parsed, whatever the caller awaited after. */
  readonly receivedAt: number;
  readonly isError: boolean;
  readonly text: string;
  readonly structured: any;
  /** The result as the client received it. */
  readonly result: unknown;
}

const HTTP_TOKEN = `bench-${process.pid}`;
/** BENCH_NODE_ARGS: node flags for every server of ours, e.g. `--cpu-prof --cpu-prof-dir DIR` to profile them. */
const NODE_ARGS = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];

/** Over HTTP: which protocol era the client negotiates (2025-11-25 by `initialize`, 2026-07-28 by `server/discover`). */
export type HttpEra = 'legacy' | 'auto';

export class McpDriver {
  readonly client: Client;
  readonly tools: Set<string>;
  readonly #stderr: () => string;
  readonly #pid: () => number | null | undefined;
  /** An HTTP server's process, which the driver started and stops. */
  readonly #child?: ChildProcess;

  private constructor(client: Client, tools: Set<string>, stderr: () => string, pid: () => number | null | undefined, child?: ChildProcess) {
    this.client = client;
    this.tools = tools;
    this.#stderr = stderr;
    this.#pid = pid;
    this.#child = child;
  }

  /** Our server: the built dist/cli.js, with the given environment (the private socket) and arguments (`--profile`). */
  static ours(env: NodeJS.ProcessEnv, nodeArgs: string[] = [], cliArgs: string[] = []): Promise<McpDriver> {
    return McpDriver.start(process.execPath, [...NODE_ARGS, ...nodeArgs, cliPath, ...cliArgs], env);
  }

  /** The floor: a no-op SDK server on the same transport, run by plain node like dist/cli.js; with `answers` (a file), its canned answers too. */
  static noop(env: NodeJS.ProcessEnv, answers?: string): Promise<McpDriver> {
    return McpDriver.start(process.execPath, [compiled(NOOP_SERVER), ...(answers ? ['--answers', answers] : [])], env);
  }

  /** The 3-field peer (bench/three-field-server.ts): list_panes through one spawned `tmux list-panes` per call. */
  static threeField(env: NodeJS.ProcessEnv): Promise<McpDriver> {
    return McpDriver.start(process.execPath, [compiled(THREE_FIELD_SERVER)], env);
  }

  /** The command that starts our server (with `cliArgs`), the no-op floor, or the bare responder serving the tools/list in file `cliArgs[0]`. */
  static command(which: 'ours' | 'noop' | 'bare', cliArgs: string[] = []): { command: string; args: string[] } {
    const script = which === 'ours' ? cliPath : compiled(which === 'noop' ? NOOP_SERVER : BARE_RESPONDER);
    return { command: process.execPath, args: [script, ...cliArgs] };
  }

  static async start(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<McpDriver> {
    const transport = new StdioClientTransport({ command, args, env: env as Record<string, string>, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const { client, tools } = await connect(transport, 'legacy');
    return new McpDriver(client, tools, () => stderr, () => transport.pid);
  }

  /** Our server over Streamable HTTP on a free loopback port, with a bearer token. */
  static oursOverHttp(env: NodeJS.ProcessEnv, era: HttpEra, nodeArgs: string[] = []): Promise<McpDriver> {
    return McpDriver.startHttp(process.execPath, [...nodeArgs, cliPath, '--http', '127.0.0.1:0'], { ...env, TMUX_MCP_TOKEN: HTTP_TOKEN }, era, HTTP_TOKEN);
  }

  /** The floor over HTTP: the no-op server behind our own HTTP stack (dist/mcp/http/serve.js), token and all. */
  static noopOverHttp(env: NodeJS.ProcessEnv, era: HttpEra): Promise<McpDriver> {
    const http = fileURLToPath(new URL('../dist/mcp/http/serve.js', import.meta.url));
    return McpDriver.startHttp(process.execPath, [compiled(NOOP_SERVER), '--http', http], { ...env, TMUX_MCP_TOKEN: HTTP_TOKEN }, era, HTTP_TOKEN);
  }

  /** Starts a server that prints "HTTP at <url>" on stderr once it listens, and connects to that URL. */
  static async startHttp(command: string, args: string[], env: NodeJS.ProcessEnv, era: HttpEra, token?: string): Promise<McpDriver> {
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        const found = /HTTP at (\S+\/mcp)/.exec(stderr)?.[1];
        if (found) resolve(found);
      });
      child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}) before listening: ${stderr}`)));
    });
    const transport = new StreamableHTTPClientTransport(new URL(url), token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {});
    const { client, tools } = await connect(transport, era);
    return new McpDriver(client, tools, () => stderr, () => child.pid, child);
  }

  get stderr(): string {
    return this.#stderr();
  }

  has(tool: string): boolean {
    return this.tools.has(tool);
  }

  get pid(): number {
    const pid = this.#pid();
    if (pid === null || pid === undefined) throw new Error('server process has no pid');
    return pid;
  }

  async call(name: string, args: Record<string, unknown> = {}, timeoutMs = 120_000): Promise<CallOutcome> {
    const start = performance.now();
    const result = (await this.client.callTool({ name, arguments: args }, { timeout: timeoutMs })) as {
      isError?: boolean;
      content: Array<{ type: string; text?: string }>;
      structuredContent?: unknown;
    };
    const ms = performance.now() - start;
    return {
      ms,
      receivedAt: wallNowMs(),
      isError: result.isError === true,
      text: result.content.map((c) => c.text ?? '').join('\n'),
      structured: result.structuredContent,
      result,
    };
  }

  /** Resident set size of the server process, in MiB (VmRSS, or VmHWM for the peak so far). */
  memory(field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
    const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    if (!match) throw new Error(`no ${field} in /proc/${this.pid}/status`);
    return Number(match[1]) / 1024;
  }

  /** VmRSS of the server and every process below it (its tmux control clients), in MiB. */
  treeMemory(): number {
    return treeRss(this.pid);
  }

  /** CPU time the server process has used so far, in nanoseconds (all threads). */
  cpuNs(): number {
    return processCpuNs(this.pid);
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => {});
    const child = this.#child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }
}

async function connect(transport: Transport, era: HttpEra): Promise<{ client: Client; tools: Set<string> }> {
  const client = new Client({ name: 'tmux-mcp-bench', version: '0' }, { versionNegotiation: { mode: era } });
  await client.connect(transport);
  const { tools } = await client.listTools();
  return { client, tools: new Set(tools.map((t) => t.name)) };
}

/**
 * A bench server (the floor, the peer) as plain JavaScript (in node_modules/.cache, so its imports
 * resolve): it must not pay for a TypeScript loader that our built server does not have.
 */
const compiledFiles = new Map<string, string>();
export function compiled(source: string): string {
  const done = compiledFiles.get(source);
  if (done) return done;
  const name = source.split('/').pop()!.replace(/\.ts$/, '.mjs');
  const out = fileURLToPath(new URL(`../node_modules/.cache/tmux-mcp-bench/${name}`, import.meta.url));
  const { outputText } = ts.transpileModule(readFileSync(source, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, outputText);
  compiledFiles.set(source, out);
  return out;
}

/** Wall-clock now in milliseconds with sub-millisecond resolution (the same clock bash's $EPOCHREALTIME reads). */
export function wallNowMs(): number {
  return performance.timeOrigin + performance.now();
}

/** VmRSS of `pid` plus all its descendants, in MiB (a process gone meanwhile counts 0). */
export function treeRss(pid: number): number {
  let kib = 0;
  const pending = [pid];
  while (pending.length > 0) {
    const next = pending.pop()!;
    try {
      kib += Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${next}/status`, 'utf8'))?.[1] ?? 0);
      for (const tid of readdirSync(`/proc/${next}/task`)) {
        const children = readFileSync(`/proc/${next}/task/${tid}/children`, 'utf8').trim();
        if (children) pending.push(...children.split(' ').map(Number));
      }
    } catch {
      // ended meanwhile
    }
  }
  return kib / 1024;
}

/**
 * CPU time of a process in nanoseconds, summed over its threads (/proc/<pid>/task/<tid>/schedstat).
 * Unlike wall-clock latency it barely moves when other work loads the machine.
 */
export function processCpuNs(pid: number): number {
  let total = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended meanwhile
    }
  }
  return total;
}
