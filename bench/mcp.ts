/**
 * Drives an MCP server over stdio with the official SDK Client, as an agent host does, timing each
 * tools/call from just before the request is written to the parsed result; and the processes the
 * bench starts: our built server, the no-op SDK server and the peers' stand-ins (bench/servers/).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

let cliPath = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
/** Points the bench at another build of the server (to compare two versions on the same machine). */
export function useCli(path: string): void {
  cliPath = path;
}
/** The server under test. */
export const cli = () => cliPath;

/** The bench's own servers, each a script of bench/servers/. */
export type BenchServer = 'noop' | 'nickgnd' | 'python';

/**
 * A bench server bundled with its dependencies into one file, as scripts/build.mjs bundles ours:
 * start-up and memory then compare like with like (Node's ESM loader costs per module, and the SDK
 * unbundled is several hundred).
 */
const bundles = new Map<BenchServer, Promise<string>>();
export function script(name: BenchServer): Promise<string> {
  let done = bundles.get(name);
  if (!done) {
    const outfile = fileURLToPath(new URL(`../node_modules/.cache/tmux-mcp-bench/${name}.mjs`, import.meta.url));
    done = build({
      entryPoints: [fileURLToPath(new URL(`./servers/${name}.ts`, import.meta.url))],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'warning',
      // As scripts/build.mjs: bundled CommonJS calls require(), which ESM has not.
      banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    }).then(() => outfile);
    bundles.set(name, done);
  }
  return done;
}

export interface CallOutcome {
  readonly ms: number;
  /** Wall clock (ms since the epoch, the clock bash's $EPOCHREALTIME reads) when the result was parsed. */
  readonly receivedAt: number;
  readonly isError: boolean;
  readonly text: string;
  readonly structured: any;
}

export class ToolError extends Error {}

/** BENCH_NODE_ARGS: node flags for every server of ours, e.g. `--cpu-prof --cpu-prof-dir DIR` to profile them. */
const NODE_ARGS = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];

export class McpDriver {
  private constructor(
    readonly client: Client,
    readonly tools: Set<string>,
    readonly pid: number,
  ) {}

  /** Our server: the built dist/cli.js (or another build: `path`) with the given environment (the private socket) and arguments. */
  static ours(env: NodeJS.ProcessEnv, cliArgs: string[] = [], path = cliPath): Promise<McpDriver> {
    return McpDriver.start(process.execPath, [...NODE_ARGS, path, ...cliArgs], env);
  }

  /** The no-op SDK server, or a peer's stand-in. */
  static async bench(name: BenchServer, env: NodeJS.ProcessEnv): Promise<McpDriver> {
    return McpDriver.start(process.execPath, [await script(name)], env);
  }

  static async start(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<McpDriver> {
    const transport = new StdioClientTransport({ command, args, env: env as Record<string, string>, stderr: 'pipe' });
    transport.stderr?.on('data', () => {});
    const client = new Client({ name: 'tmux-mcp-bench', version: '0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    return new McpDriver(client, new Set(tools.map((t) => t.name)), transport.pid!);
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
    };
  }

  /** One call that must succeed: its outcome, or a ToolError saying what it answered. */
  async ok(name: string, args: Record<string, unknown> = {}, timeoutMs?: number): Promise<CallOutcome> {
    const outcome = await this.call(name, args, timeoutMs);
    if (outcome.isError) throw new ToolError(`${name}: ${outcome.text.slice(0, 300)}`);
    return outcome;
  }

  /** VmRSS of the server and every process below it (our tmux control clients), in MiB. */
  treeMemory(): number {
    return [this.pid, ...descendants(this.pid)].reduce((kib, pid) => kib + rssKiB(pid), 0) / 1024;
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => {});
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
function descendants(pid: number): number[] {
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
