/**
 * The typed failures every core operation raises. They belong to the domain, not to the wire:
 * each profile renders them in its own error shape (text, an envelope with a code, ...).
 */

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
  | 'too_large'
  | 'internal';

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
    // Bad input and a full house are refused before tmux runs; everything else happens after at least one read.
    this.touched = options.touched ?? (kind !== 'invalid_argument' && kind !== 'busy');
  }
}

export const invalidArgument = (message: string, hint?: string) => new Failure('invalid_argument', message, hint);
export const notFound = (message: string, hint?: string) => new Failure('not_found', message, hint);
export const refused = (message: string, hint?: string) => new Failure('refused', message, hint);

export function isFailure(error: unknown): error is Failure {
  return error instanceof Failure;
}
