/**
 * Private tmux servers for the benchmark, as test/fixture/tmux.ts makes them, plus bulk pane
 * building; every one is killed when the process exits, however it exits.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

// One definition of "scrubbed" and of reaping at exit for tests and bench alike.
import { reapAtExit, releaseAtExit, scrubbedEnv, TMUX_BIN } from '../test/fixture/tmux.js';

const run = promisify(execFile);

export class BenchTmux {
  readonly dir: string;
  readonly socketPath: string;
  #started = false;

  constructor() {
    this.dir = mkdtempSync(join(tmpdir(), 'tmux-mcp-bench-'));
    this.socketPath = join(this.dir, 'tmux.sock');
    reapAtExit(this);
  }

  async tmux(...args: string[]): Promise<string> {
    return (await run(TMUX_BIN, ['-S', this.socketPath, ...args], { env: scrubbedEnv(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }))
      .stdout;
  }

  /** Starts the server with one detached session and returns its first pane; the options are set before any pane exists. */
  async start(
    options: { session?: string; width?: number; height?: number; historyLimit?: number; command?: string } = {},
  ): Promise<string> {
    this.#started = true;
    const width = options.width ?? 160;
    const height = options.height ?? 50;
    const out = await this.tmux(
      '-f',
      '/dev/null',
      'start-server',
      ';',
      'set-option',
      '-g',
      'history-limit',
      String(options.historyLimit ?? 100_000),
      ';',
      'set-option',
      '-g',
      'default-size',
      `${width}x${height}`,
      ';',
      'set-option',
      '-g',
      'remain-on-exit',
      'off',
      ';',
      'new-session',
      '-d',
      '-P',
      '-F',
      '#{pane_id}',
      '-s',
      options.session ?? 'bench',
      '-x',
      String(width),
      '-y',
      String(height),
      '-e',
      'PS1=$ ',
      '-e',
      'ENV=',
      options.command ?? 'sh',
    );
    return out.trim();
  }

  /** Adds a window running `command` to `session` and returns its pane id. */
  async newWindow(session: string, command: string): Promise<string> {
    return (await this.tmux('new-window', '-d', '-P', '-F', '#{pane_id}', '-t', `${session}:`, '-e', 'PS1=$ ', command)).trim();
  }

  /** Runs many tmux commands in one go through `source-file` (one client round trip). */
  async source(commands: readonly string[]): Promise<void> {
    const file = join(this.dir, `batch-${Math.random().toString(36).slice(2)}.tmux`);
    writeFileSync(file, commands.join('\n') + '\n');
    await this.tmux('source-file', file);
    rmSync(file, { force: true });
  }

  async serverPid(): Promise<number> {
    return Number((await this.tmux('display-message', '-p', '#{pid}')).trim());
  }

  get env(): NodeJS.ProcessEnv {
    return scrubbedEnv({ LIBTMUX_SOCKET_PATH: this.socketPath });
  }

  dispose(): void {
    if (!releaseAtExit(this)) return;
    if (this.#started) {
      try {
        execFileSync(TMUX_BIN, ['-S', this.socketPath, 'kill-server'], { env: scrubbedEnv(), stdio: 'ignore' });
      } catch {
        // already gone
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Adds panes to a farm of `from` panes (windows `bench:N` of 10 panes each) until it has `panes`; every pane id. */
export async function growPaneFarm(
  tmux: BenchTmux,
  options: { from: number; panes: number; paneCommand: (index: number) => string },
): Promise<string[]> {
  const commands: string[] = [];
  for (let index = options.from; index < options.panes; index++) {
    const target = `bench:${Math.floor(index / 10)}`;
    const command = tmuxQuote(options.paneCommand(index));
    if (index % 10 === 0) commands.push(`new-window -d -t ${target} ${command}`);
    else commands.push(`split-window -d -v -t ${target} ${command}`, `select-layout -t ${target} even-vertical`);
  }
  // Chunks keep each source-file short enough to finish well inside tmux's client timeouts.
  for (let i = 0; i < commands.length; i += 400) await tmux.source(commands.slice(i, i + 400));
  const ids = (await tmux.tmux('list-panes', '-a', '-F', '#{pane_id}')).trim().split('\n');
  if (ids.length !== options.panes) throw new Error(`built ${ids.length} panes, wanted ${options.panes}`);
  return ids;
}

/** Quotes one argument for tmux's command language. */
function tmuxQuote(text: string): string {
  if (text.includes("'")) return `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('$', '\\$')}"`;
  return `'${text}'`;
}
