/**
 * The typed failures every core operation raises. They belong to the domain, not to the wire:
 * each profile renders them in its own error shape (text, an envelope with a code, ...).
 * What tmux reports (src/tmux/errors.ts) becomes a failure here, in `asFailure`, so no layer
 * above core meets tmux's error classes.
 */
import {
  TmuxArgumentsTooLongError,
  TmuxAttachRefusedError,
  TmuxCommandError,
  TmuxConnectionLostError,
  TmuxError,
  TmuxHostError,
  TmuxLinkSilentError,
  TmuxNoServerError,
  TmuxNotTmuxSocketError,
  TmuxOutputLimitError,
  TmuxTimeoutError,
  TmuxUnavailableError,
} from '../tmux/errors.js';
import { TmuxSocketUnusableError } from '../tmux/socket-guard.js';

/** What went wrong, as a stable word a profile can map to its own codes without reading messages. */
export type FailureKind =
  | 'invalid_argument'
  | 'not_found'
  | 'refused'
  /** The target is outside the scope this server was started with (--allow-session, --allow-pane). */
  | 'out_of_scope'
  | 'cancelled'
  | 'timeout'
  | 'server_gone'
  | 'stale'
  /** A reference made by another tmux server (another socket), not an earlier incarnation of this one. */
  | 'wrong_server'
  /** The watch a wait relied on broke (the pane went away, the stream was lost) before the wait could end. */
  | 'observation_lost'
  /** More calls are running than the configured limit allows; nothing was done. */
  | 'busy'
  /** A person did not approve the call (--approve: denied, unanswered in time, or no one to ask); nothing was done. */
  | 'denied'
  | 'too_large'
  | 'internal'
  | TmuxFailureKind;

/**
 * Failures tmux reported rather than core decided: the message is tmux's (or the connection's)
 * own words, and some contracts say so (python's "tmux error:", julia's message without the hint).
 */
export type TmuxFailureKind =
  /** tmux ran the command and refused it; the message is tmux's own words. */
  | 'tmux_failed'
  /** No tmux server runs on the socket. */
  | 'no_server'
  /** Something listens on the socket that does not answer as tmux. */
  | 'not_tmux'
  /** The tmux binary could not be started. */
  | 'tmux_missing'
  /** The system refused to start tmux: its arguments were too large. */
  | 'arguments_too_long'
  /** A tmux command got no answer in time. */
  | 'tmux_timeout'
  /** A tmux process wrote more than any answer should hold. */
  | 'output_limit'
  /** The control connection went away while a command was in flight. */
  | 'connection_lost'
  /** tmux refused a control client's attach (a server exiting, a session gone). */
  | 'attach_refused'
  /** A host's connection went silent past the silence limit. */
  | 'link_silent'
  /** ssh could not reach a host, or its tmux cannot be used. */
  | 'host_unreachable'
  /** The local socket path may not be used (one tmux would destroy); refused before tmux ran. */
  | 'socket_unusable';

export interface FailureOptions {
  /** Whether tmux may already have been asked to do something (false: nothing was sent). */
  readonly touched?: boolean;
  readonly cause?: unknown;
}

export class Failure extends Error {
  readonly kind: FailureKind;
  /** What to call or change next; undefined when there is nothing useful to say. */
  readonly hint: string | undefined;
  /** False only when the call failed before any tmux I/O, so nothing can have changed. */
  readonly touched: boolean;
  constructor(kind: FailureKind, message: string, hint?: string, options: FailureOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'Failure';
    this.kind = kind;
    this.hint = hint;
    // Bad input, a full house and a call a person did not approve are refused before tmux runs; everything else happens after at least one read.
    this.touched = options.touched ?? (kind !== 'invalid_argument' && kind !== 'busy' && kind !== 'denied');
  }

  /** The message and, when there is one, what to do next, as one sentence for a person. */
  get sentence(): string {
    return this.hint ? `${this.message}. ${this.hint}` : this.message;
  }
}

export const invalidArgument = (message: string, hint?: string) => new Failure('invalid_argument', message, hint);
export const notFound = (message: string, hint?: string) => new Failure('not_found', message, hint);
export const refused = (message: string, hint?: string) => new Failure('refused', message, hint);

export function isFailure(error: unknown): error is Failure {
  return error instanceof Failure;
}

/** tmux's error classes and the kind each becomes; a subclass before its parent. */
const TMUX_KINDS: ReadonlyArray<readonly [Function & { prototype: TmuxError }, TmuxFailureKind]> = [
  [TmuxCommandError, 'tmux_failed'],
  [TmuxNoServerError, 'no_server'],
  [TmuxNotTmuxSocketError, 'not_tmux'],
  [TmuxUnavailableError, 'tmux_missing'],
  [TmuxArgumentsTooLongError, 'arguments_too_long'],
  [TmuxTimeoutError, 'tmux_timeout'],
  [TmuxOutputLimitError, 'output_limit'],
  [TmuxAttachRefusedError, 'attach_refused'],
  [TmuxLinkSilentError, 'link_silent'],
  [TmuxConnectionLostError, 'connection_lost'],
  [TmuxHostError, 'host_unreachable'],
  [TmuxSocketUnusableError, 'socket_unusable'],
];

/**
 * Any failure a call can end in, as a Failure: a Failure as it is, what tmux reported as the
 * kind it names (message and hint unchanged); undefined for anything else (a bug, not a failure).
 */
export function asFailure(error: unknown): Failure | undefined {
  if (error instanceof Failure) return error;
  if (!(error instanceof TmuxError)) return undefined;
  const kind = TMUX_KINDS.find(([type]) => error instanceof type)?.[1] ?? 'tmux_failed';
  // Refused before any tmux process ran on the socket: nothing can have happened.
  return new Failure(kind, error.message, error.hint, { touched: kind !== 'socket_unusable', cause: error });
}

/** Whether `error` is a failure of one of `kinds` (what tmux reported included). */
export function failedAs(error: unknown, ...kinds: readonly FailureKind[]): boolean {
  const kind = asFailure(error)?.kind;
  return kind !== undefined && kinds.includes(kind);
}

/** Whether `error` is something tmux reported, rather than a failure core decided. */
export function reportedByTmux(error: unknown): boolean {
  return failedAs(error, ...TMUX_KINDS.map(([, kind]) => kind));
}

/** Whether `error` is tmux refusing a command in words matching `words` (tmux's own). */
export function tmuxSaid(error: unknown, words: RegExp): error is Error {
  const failure = asFailure(error);
  return failure?.kind === 'tmux_failed' && words.test(failure.message);
}

/** Whether `error` says a host cannot be reached now (ssh failed, silence, or no answer in time). */
export function isHostUnreachable(error: unknown): boolean {
  return failedAs(error, 'host_unreachable', 'link_silent', 'tmux_timeout');
}
