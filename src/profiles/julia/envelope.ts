/**
 * The julia result shapes on the wire: `structuredContent` is the payload, `content` one text block
 * with its compact JSON, `isError` exactly when the payload has `error`. Failures become the
 * envelope `{code, message, effects, retryable}`, chosen by the failure's kind and whether tmux was
 * touched, never by its wording; a payload over the result limit becomes a `result_limit` error.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { asFailure, clipUtf8, type Failure, type FailureKind, reportedByTmux } from '../../core/index.js';
import { PolicyRefusal } from './app.js';

export type Payload = Record<string, unknown>;

export interface ErrorEnvelope {
  readonly message: string;
  readonly code: string;
  readonly effects: 'none' | 'possible';
  readonly retryable: false;
}

const MAX_MESSAGE_BYTES = 512;

const CODE_OF_KIND: Partial<Record<FailureKind, string>> = {
  invalid_argument: 'invalid_arguments',
  busy: 'busy',
  cancelled: 'cancelled',
  timeout: 'deadline',
  stale: 'stale_target',
  wrong_server: 'wrong_server',
  observation_lost: 'observation_lost',
  too_large: 'output_limit',
  out_of_scope: 'target_denied',
  denied: 'approval_denied',
  tmux_timeout: 'deadline',
  output_limit: 'output_limit',
};

/**
 * What tmux reported reads as its words alone (a timeout adding that effects may have occurred);
 * a socket refused before tmux ran, and what core decided, add the hint.
 */
function wording(failure: Failure): string {
  if (failure.kind === 'tmux_timeout') return `${failure.message}${REMOTE_EFFECTS}`;
  if (reportedByTmux(failure) && failure.kind !== 'socket_unusable') return failure.message;
  return failure.sentence;
}

export const RESULT_LIMIT_MESSAGE = 'result exceeds the configured byte limit; request fewer rows, lines or operations';

/** The code and whether anything may have happened, for any failure a call can end with. */
function classify(error: unknown): { code: string; message: string; touched: boolean } {
  if (error instanceof PolicyRefusal) return { code: error.code, message: error.message, touched: error.touched };
  const failure = asFailure(error);
  if (failure) {
    const code = CODE_OF_KIND[failure.kind] ?? 'operation_failed';
    const text = wording(failure);
    return { code, message: code === 'invalid_arguments' ? `ArgumentError: ${text}` : text, touched: failure.touched };
  }
  return { code: 'operation_failed', message: error instanceof Error ? error.message : String(error), touched: true };
}

// The contract's words for a call stopped after tmux was asked: true only when the call could change something.
const REMOTE_EFFECTS = '; remote effects may have occurred';

/**
 * `effects` is "possible" only for a tool that changes things and a failure after tmux was asked;
 * when it is "none" the message does not say effects may have occurred.
 */
export function envelope(error: unknown, mutating: boolean): ErrorEnvelope {
  const { code, message, touched } = classify(error);
  const effects = mutating && touched ? 'possible' : 'none';
  const text = effects === 'none' ? message.replaceAll(REMOTE_EFFECTS, '') : message;
  return { message: clipUtf8(text, MAX_MESSAGE_BYTES).text, code, effects, retryable: false };
}

export function toResult(payload: Payload, json = JSON.stringify(payload)): CallToolResult {
  return {
    content: [{ type: 'text', text: json }],
    structuredContent: payload,
    ...('error' in payload ? { isError: true } : {}),
  };
}

export interface CompletedItem {
  readonly result?: unknown;
  readonly tool: string;
}

/**
 * The payload that replaces one over the limit. A batch keeps which items completed (results
 * omitted) and where it stopped; `effects` says whether anything may have changed.
 */
export function resultLimitPayload(original: Payload, tool: string, isMutating: (tool: string) => boolean): Payload {
  const completed = Array.isArray(original.completed) ? (original.completed as CompletedItem[]) : undefined;
  const originalError = original.error as ErrorEnvelope | undefined;
  const possible =
    (tool !== 'run_operations' && isMutating(tool)) ||
    originalError?.effects === 'possible' ||
    (completed ?? []).some((item) => isMutating(item.tool));
  const error: ErrorEnvelope = {
    message: RESULT_LIMIT_MESSAGE,
    code: 'result_limit',
    effects: possible ? 'possible' : 'none',
    retryable: false,
  };
  if (!completed) return { error };
  const failedIndex = typeof original.failedIndex === 'number' ? original.failedIndex : null;
  return {
    failedIndex,
    completed: completed.map((item) => ({ completed: true, resultOmitted: true, tool: item.tool })),
    atomic: false,
    ...(failedIndex !== null && originalError ? { originalError: { code: originalError.code } } : {}),
    error,
  };
}
