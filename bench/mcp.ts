/**
 * Drives an MCP server over stdio with the official SDK Client, as a real agent host does, and
 * times each tools/call from just before the request is written to just after the result is parsed.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

export const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
let cliPath = CLI;
/** Points the bench at another build of the server (to compare two versions on the same machine). */
export function useCli(path: string): void {
  cliPath = path;
}
export const NOOP_SERVER = fileURLToPath(new URL('./noop-server.ts', import.meta.url));
export const THREE_FIELD_SERVER = fileURLToPath(new URL('./three-field-server.ts', import.meta.url));

export interface CallOutcome {
  readonly ms: number;
  /** Wall clock (ms since the epoch) when the result was parsed, whatever the caller awaited after. */
  readonly receivedAt: number;
  readonly isError: boolean;
  readonly text: string;
  readonly structured: any;
}

export class McpDriver {
  readonly client: Client;
  readonly transport: StdioClientTransport;
  readonly tools: Set<string>;
  readonly #stderr: () => string;

  private constructor(client: Client, transport: StdioClientTransport, tools: Set<string>, stderr: () => string) {
    this.client = client;
    this.transport = transport;
    this.tools = tools;
    this.#stderr = stderr;
  }

  /** Our server: the built dist/cli.js, with the given environment (the private socket). */
  static ours(env: NodeJS.ProcessEnv, nodeArgs: string[] = []): Promise<McpDriver> {
    return McpDriver.start(process.execPath, [...nodeArgs, cliPath], env);
  }

  /** The floor: a no-op SDK server on the same transport, run by plain node like dist/cli.js. */
  static noop(env: NodeJS.ProcessEnv): Promise<McpDriver> {
    return McpDriver.start(process.execPath, [compiled(NOOP_SERVER)], env);
  }

  /** The 3-field peer (bench/three-field-server.ts): list_panes through one spawned `tmux list-panes` per call. */
  static threeField(env: NodeJS.ProcessEnv): Promise<McpDriver> {
    return McpDriver.start(process.execPath, [compiled(THREE_FIELD_SERVER)], env);
  }

  /** The command that starts our server or the floor, for measuring start-up from outside. */
  static command(which: 'ours' | 'floor', nodeArgs: string[] = []): { command: string; args: string[] } {
    return { command: process.execPath, args: which === 'ours' ? [...nodeArgs, cliPath] : [compiled(NOOP_SERVER)] };
  }

  static async start(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<McpDriver> {
    const transport = new StdioClientTransport({ command, args, env: env as Record<string, string>, stderr: 'pipe' });
    const client = new Client({ name: 'tmux-mcp-bench', version: '0' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    await client.connect(transport);
    const { tools } = await client.listTools();
    return new McpDriver(client, transport, new Set(tools.map((t) => t.name)), () => stderr);
  }

  get stderr(): string {
    return this.#stderr();
  }

  has(tool: string): boolean {
    return this.tools.has(tool);
  }

  get pid(): number {
    const pid = this.transport.pid;
    if (pid === null) throw new Error('server process has no pid');
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
  }
}

/**
 * A bench server (the floor, the peer) as plain JavaScript (in node_modules/.cache, so its imports
 * resolve): it must not pay for a TypeScript loader that our built server does not have.
 */
function compiled(source: string): string {
  const name = source.split('/').pop()!.replace(/\.ts$/, '.mjs');
  const out = fileURLToPath(new URL(`../node_modules/.cache/tmux-mcp-bench/${name}`, import.meta.url));
  const { outputText } = ts.transpileModule(readFileSync(source, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, outputText);
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
