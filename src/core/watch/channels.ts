/**
 * tmux wait-for channels: the one deterministic way to learn that something in a pane finished.
 * A shell runs `cmd; tmux wait-for -S done` and the agent waits on `done`. A signal sent while
 * nobody waits is remembered once by tmux, so a fast command cannot be missed.
 *
 * `wait-for` blocks the client that sends it, so waits run in their own tmux process (never on the
 * shared control connection), which a timeout or a cancellation kills.
 */
import { failedAs, invalidArgument, Failure, reportedByTmux } from '../failure.js';
import { isShuttingDown, shutdownSignal } from '../servers/shutdown.js';
import type { Engine } from '../engine.js';

/** Longest channel name accepted. */
export const MAX_CHANNEL_LENGTH = 1024;
/** How long a wait lasts when the caller does not say, before the server's ceiling applies. */
export const DEFAULT_CHANNEL_WAIT_MS = 30_000;

// Names a shell can carry unquoted and tmux cannot read as a flag or a command separator.
const CHANNEL = /^[A-Za-z0-9_.:][A-Za-z0-9_.:-]*$/;

/** Throws a clear error unless `name` is a usable channel name. */
export function checkChannel(name: string, field = 'channel'): void {
  if (name.length === 0) throw invalidArgument(`${field} must not be empty`);
  if (name.length > MAX_CHANNEL_LENGTH) throw invalidArgument(`${field} is longer than ${MAX_CHANNEL_LENGTH} characters`);
  if (!CHANNEL.test(name)) {
    throw invalidArgument(
      `${field} ${JSON.stringify(name.length > 60 ? name.slice(0, 60) + '…' : name)} is not a valid channel name`,
      'Use letters, digits and _ . : - (not starting with -), e.g. build_done or tests-42.',
    );
  }
}

export interface ChannelWaitOptions {
  /** Requested wait in milliseconds; the server's ceiling (`waitMaxMs`) caps it. */
  readonly timeoutMs?: number;
  /** Cancels the wait: the waiting tmux process is killed and the promise rejects. */
  readonly signal?: AbortSignal;
}

export interface ChannelWait {
  readonly channel: string;
  /** True when the channel was signalled, false when the wait timed out. */
  readonly released: boolean;
  /** How long the wait took, in seconds. */
  readonly seconds: number;
  /** The timeout that applied, in milliseconds, after the ceiling. */
  readonly effectiveTimeoutMs: number;
}

export function effectiveChannelTimeout(engine: Engine, timeoutMs: number | undefined): number {
  return engine.capWait(timeoutMs ?? DEFAULT_CHANNEL_WAIT_MS);
}

/**
 * Blocks until `channel` is signalled or the timeout passes. A tmux server that goes away during
 * the wait also ends `wait-for`, exactly like a signal, so the server is checked afterwards and
 * that case is an error rather than a release.
 */
export async function waitForChannel(engine: Engine, channel: string, options: ChannelWaitOptions = {}): Promise<ChannelWait> {
  checkChannel(channel);
  const effectiveTimeoutMs = effectiveChannelTimeout(engine, options.timeoutMs);
  const before = await engine.requireIdentity();
  const started = performance.now();
  const seconds = () => Math.round(performance.now() - started) / 1000;
  try {
    // stdin forces a process of its own; the signal and the deadline kill it.
    // Shutting down ends the wait as its timeout would: not released.
    const signal = options.signal ? AbortSignal.any([options.signal, shutdownSignal]) : shutdownSignal;
    await engine.run(['wait-for', channel], { stdin: Buffer.alloc(0), signal, timeoutMs: effectiveTimeoutMs });
  } catch (error) {
    if (isShuttingDown() && !options.signal?.aborted) return { channel, released: false, seconds: seconds(), effectiveTimeoutMs };
    if (options.signal?.aborted) {
      throw new Failure(
        'cancelled',
        `the wait on channel ${channel} was cancelled after ${seconds()} s; the waiting tmux client was stopped`,
      );
    }
    if (failedAs(error, 'tmux_timeout')) return { channel, released: false, seconds: seconds(), effectiveTimeoutMs };
    await requireSameServer(engine, before.pid, channel);
    throw error;
  }
  const elapsed = seconds();
  await requireSameServer(engine, before.pid, channel);
  return { channel, released: true, seconds: elapsed, effectiveTimeoutMs };
}

/** Fails when the tmux server that was waited on is no longer the one running on the socket. */
async function requireSameServer(engine: Engine, pid: number, channel: string): Promise<void> {
  let now: number | undefined;
  try {
    // Only a live server can answer; a new one on the socket answers with another pid.
    const [line] = await engine.run(['display-message', '-p', '#{pid}'], { ungated: true }); // the server's pid: no session's context
    now = Number.parseInt(line ?? '', 10);
  } catch (error) {
    // No server, or one that is going away ("server exited unexpectedly"): either way not the one we waited on.
    if (!reportedByTmux(error)) throw error;
  }
  if (now === pid) return;
  throw new Failure(
    'server_gone',
    `the wait on channel ${channel} ended because the tmux server ${now === undefined ? 'exited' : 'was replaced by another one'}, not because the channel was signalled`,
    'Call list_sessions to see what is running now; create_session starts a new server.',
  );
}

/**
 * Signals `channel`, releasing everyone waiting on it; with nobody waiting, tmux remembers it
 * once and the next wait returns at once.
 */
export async function signalChannel(engine: Engine, channel: string): Promise<void> {
  checkChannel(channel);
  await engine.run(['wait-for', '-S', channel]);
}
