/**
 * The fallback path: one `tmux` process per command, with a deadline. Used before a control
 * connection exists (no session yet), for commands that read stdin, and when control mode fails.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { TmuxArgumentsTooLongError, TmuxOutputLimitError, TmuxTimeoutError, TmuxUnavailableError } from './errors.js';
import type { Launcher } from './launcher.js';

/** The most stderr kept from one tmux process: tmux's own messages are a line or two, so more is a fault, and it is stopped. */
export const MAX_STDERR_BYTES = 1024 * 1024;

export interface SpawnResult {
  readonly code: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

export interface SpawnOptions {
  readonly timeoutMs: number;
  readonly stdin?: Buffer;
  readonly env: NodeJS.ProcessEnv;
  /** Time between SIGTERM and SIGKILL when the deadline passes. */
  readonly killGraceMs?: number;
  /** Ends the process like a deadline does; the promise then rejects with the signal's reason, once the process is gone. */
  readonly signal?: AbortSignal;
}

/**
 * Runs `tmux ...globalArgs ...command` through `launcher` (here or over ssh); `command` alone names
 * the command in errors. A failure of the launcher itself (ssh could not connect) rejects with its error.
 */
export function spawnTmux(
  launcher: Launcher,
  globalArgs: readonly string[],
  command: readonly string[],
  options: SpawnOptions,
): Promise<SpawnResult> {
  return new Promise((resolve, reject) => {
    let child: ChildProcessWithoutNullStreams;
    const argv = [...globalArgs, ...command.map(argvSafe)];
    // E2BIG is the arguments' fault, not a missing tmux: say so, whichever way spawn reports it.
    const failure = (error: unknown) =>
      (error as NodeJS.ErrnoException | undefined)?.code === 'E2BIG'
        ? new TmuxArgumentsTooLongError(
            command,
            argv.reduce((sum, arg) => sum + Buffer.byteLength(arg) + 1, 0),
          )
        : new TmuxUnavailableError(launcher.label, error);
    try {
      const launch = launcher.launch(argv);
      child = spawn(launch.file, launch.args, { env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (error) {
      reject(failure(error));
      return;
    }
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let stderrBytes = 0;
    let timedOut = false;
    let aborted = false;
    let overflowed = false;
    let killTimer: NodeJS.Timeout | undefined;
    const end = () => {
      child.kill('SIGTERM');
      killTimer ??= setTimeout(() => child.kill('SIGKILL'), options.killGraceMs ?? 1000);
    };
    const deadline = setTimeout(() => {
      timedOut = true;
      end();
    }, options.timeoutMs);
    const onAbort = () => {
      aborted = true;
      end();
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      stderrBytes += chunk.length;
      if (stderrBytes <= MAX_STDERR_BYTES) stderr.push(chunk);
      else if (!overflowed) {
        overflowed = true;
        end();
      }
    });
    child.stdin.on('error', () => {}); // tmux may exit before reading its input
    child.on('error', (error) => {
      clearTimeout(deadline);
      clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', onAbort);
      reject(failure(error));
    });
    let settled = false;
    const finish = (code: number | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', onAbort);
      if (aborted) reject(options.signal?.reason ?? new Error('aborted'));
      else if (overflowed) reject(new TmuxOutputLimitError(command, 'stderr', MAX_STDERR_BYTES));
      else if (timedOut) reject(new TmuxTimeoutError(command, options.timeoutMs, launcher.host));
      else {
        const text = Buffer.concat(stderr).toString('utf8').trim();
        const transport = launcher.transportError(code, text);
        if (transport) reject(transport);
        else resolve({ code, stdout: Buffer.concat(stdout), stderr: text });
      }
    };
    child.on('close', finish);
    // tmux hands its stdio to the server when it connects: a stopped server keeps those pipes open
    // after the client is gone, so 'close' may never come. Exit settles it, after a grace for output.
    child.on('exit', (code) => {
      const end = () => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish(code);
      };
      if (timedOut || aborted || overflowed) end();
      else setTimeout(end, options.killGraceMs ?? 1000).unref();
    });
    child.stdin.end(options.stdin);
  });
}

/**
 * tmux splits its argv into commands at any argument ending in `;`. Escaping that last `;` as `\;`
 * keeps it text (tmux drops the one backslash), so a name like `x;` stays `x;` on the spawn path.
 */
function argvSafe(arg: string): string {
  return arg.endsWith(';') ? `${arg.slice(0, -1)}\\;` : arg;
}
