/**
 * Drives an MCP server over stdio or Streamable HTTP with the official SDK Client, as a real agent
 * host does, timing each tools/call from just before the request is written to the parsed result.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { performance } from 'node:perf_hooks';
import { spawn, type ChildProcess } from 'node:child_process';
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

let cliPath = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
/** Points the bench at another build of the server (to compare two versions on the same machine). */
export function useCli(path: string): void {
  cliPath = path;
}
/** The server under test. */
export const cli = () => cliPath;
const script = (name: string) => compiled(fileURLToPath(new URL(`./${name}.ts`, import.meta.url)));

export interface CallOutcome {
  readonly ms: number;
  /** Wall clock (ms since the epoch, the clock bash's $EPOCHREALTIME reads) when the result was parsed. */
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
  private constructor(
    readonly client: Client,
    readonly tools: Set<string>,
    readonly pid: number,
    /** An HTTP server's process, which the driver started and stops. */
    readonly child?: ChildProcess,
  ) {}

  /** Our server: the built dist/cli.js, with the given environment (the private socket) and arguments (`--profile`). */
  static ours(env: NodeJS.ProcessEnv, nodeArgs: string[] = [], cliArgs: string[] = []): Promise<McpDriver> {
    return McpDriver.start(process.execPath, [...NODE_ARGS, ...nodeArgs, cliPath, ...cliArgs], env);
  }

  /** The floor: a no-op SDK server on the same transport; with `answers` (a file), its canned answers too. */
  static noop(env: NodeJS.ProcessEnv, answers?: string): Promise<McpDriver> {
    return McpDriver.start(process.execPath, [script('noop-server'), ...(answers ? ['--answers', answers] : [])], env);
  }

  /** The 3-field peer (bench/three-field-server.ts). */
  static threeField(env: NodeJS.ProcessEnv): Promise<McpDriver> {
    return McpDriver.start(process.execPath, [script('three-field-server')], env);
  }

  /** The script of our server, the no-op floor, or the bare responder (bench/bare-responder.ts). */
  static script(which: 'ours' | 'noop' | 'bare'): string {
    return which === 'ours' ? cliPath : script(which === 'noop' ? 'noop-server' : 'bare-responder');
  }

  static async start(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<McpDriver> {
    const transport = new StdioClientTransport({ command, args, env: env as Record<string, string>, stderr: 'pipe' });
    transport.stderr?.on('data', () => {});
    const { client, tools } = await connect(transport, 'legacy');
    return new McpDriver(client, tools, transport.pid!);
  }

  /** Our server over Streamable HTTP on a free loopback port, with a bearer token. */
  static oursOverHttp(env: NodeJS.ProcessEnv, era: HttpEra): Promise<McpDriver> {
    return McpDriver.startHttp([cliPath, '--http', '127.0.0.1:0'], env, era);
  }

  /** The floor over HTTP: the no-op server behind our own HTTP stack (dist/mcp/http/serve.js), token and all. */
  static noopOverHttp(env: NodeJS.ProcessEnv, era: HttpEra): Promise<McpDriver> {
    return McpDriver.startHttp([script('noop-server'), '--http', fileURLToPath(new URL('../dist/mcp/http/serve.js', import.meta.url))], env, era);
  }

  static async startHttp(args: string[], env: NodeJS.ProcessEnv, era: HttpEra): Promise<McpDriver> {
    const { child, url } = await startListening(args, env, HTTP_TOKEN);
    const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${HTTP_TOKEN}` } } });
    const { client, tools } = await connect(transport, era);
    return new McpDriver(client, tools, child.pid!, child);
  }

  has(tool: string): boolean {
    return this.tools.has(tool);
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
      receivedAt: performance.timeOrigin + performance.now(),
      isError: result.isError === true,
      text: result.content.map((c) => c.text ?? '').join('\n'),
      structured: result.structuredContent,
      result,
    };
  }

  /** VmRSS of the server process, in MiB. */
  memory(): number {
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${this.pid}/status`, 'utf8'))?.[1]) / 1024;
  }

  /** VmRSS of the server and every process below it (its tmux control clients), in MiB (a process gone meanwhile counts 0). */
  treeMemory(): number {
    return [this.pid, ...descendants(this.pid)].reduce((kib, pid) => kib + rssKiB(pid), 0) / 1024;
  }

  /** CPU time the server process has used so far, in nanoseconds (all threads). */
  cpuNs(): number {
    return processCpuNs(this.pid);
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => {});
    if (this.child) await stop(this.child);
  }
}

const rssKiB = (pid: number) => {
  try {
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0; // ended meanwhile
  }
};

/** Live processes below `pid` (its children, theirs, ...). */
export function descendants(pid: number): number[] {
  const found: number[] = [];
  const pending = [pid];
  while (pending.length > 0) {
    const next = pending.pop()!;
    try {
      for (const tid of readdirSync(`/proc/${next}/task`)) {
        const children = readFileSync(`/proc/${next}/task/${tid}/children`, 'utf8').trim();
        if (children) for (const child of children.split(' ').map(Number)) found.push(child), pending.push(child);
      }
    } catch {
      // ended meanwhile
    }
  }
  return found;
}

async function connect(transport: Transport, era: HttpEra): Promise<{ client: Client; tools: Set<string> }> {
  const client = new Client({ name: 'tmux-mcp-bench', version: '0' }, { versionNegotiation: { mode: era } });
  await client.connect(transport);
  const { tools } = await client.listTools();
  return { client, tools: new Set(tools.map((t) => t.name)) };
}

/** `node ARGS` for a server that prints "HTTP at <url>" on stderr once it listens (TMUX_MCP_TOKEN = token): its process and URL. */
export async function startListening(args: string[], env: NodeJS.ProcessEnv, token: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { env: { ...env, TMUX_MCP_TOKEN: token }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const found = /HTTP at (\S+\/mcp)/.exec(stderr)?.[1];
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}) before listening: ${stderr}`)));
  });
  return { child, url };
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/**
 * A bench server (the floor, the peer) as plain JavaScript (in node_modules/.cache, so its imports
 * resolve): it must not pay for a TypeScript loader that our built server does not have.
 */
const compiledFiles = new Map<string, string>();
function compiled(source: string): string {
  const done = compiledFiles.get(source);
  if (done) return done;
  const out = fileURLToPath(new URL(`../node_modules/.cache/tmux-mcp-bench/${source.split('/').pop()!.replace(/\.ts$/, '.mjs')}`, import.meta.url));
  const { outputText } = ts.transpileModule(readFileSync(source, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, outputText);
  compiledFiles.set(source, out);
  return out;
}

/** CPU time of a process in nanoseconds, summed over its threads (/proc/<pid>/task/<tid>/schedstat): steadier than wall time under load. */
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
