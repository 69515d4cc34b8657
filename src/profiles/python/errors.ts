/**
 * Results as the Python server shapes them. A failure is an `isError` result whose text is the
 * reason and, on the next line, what to do, with `_meta` {error_type, expected, suggestion} and no
 * structuredContent (so a strict client never checks an error against the success schema).
 * A success is the structured value with its text; a text-only tool answers the text alone.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { asFailure, type TmuxFailureKind } from '../../core/index.js';
import { successResult, type RenderedResult } from '../../mcp/tools/results.js';
import type { ToolOutcome } from '../../mcp/tools/tool.js';

/** The Python server's names for kinds of failure, as `_meta.error_type`. */
const ERROR_TYPES: Record<string, string> = {
  invalid_argument: 'ToolInputError',
  not_found: 'ObjectDoesNotExist',
  refused: 'ToolRefused',
  out_of_scope: 'OutOfScope',
  denied: 'ApprovalDenied',
  cancelled: 'Cancelled',
  timeout: 'TimeoutError',
  server_gone: 'TmuxServerGone',
  observation_lost: 'ObservationLost',
  stale: 'StaleTarget',
  too_large: 'ResponseTooLarge',
  internal: 'InternalError',
};

/** What tmux reported is "tmux error: ..." with the name of libtmux's exception for it. */
const TMUX_ERROR_TYPES: Record<TmuxFailureKind, string> = {
  tmux_failed: 'TmuxCommandError',
  no_server: 'TmuxNoServerError',
  not_tmux: 'TmuxNotTmuxSocketError',
  tmux_missing: 'TmuxUnavailableError',
  arguments_too_long: 'TmuxArgumentsTooLongError',
  tmux_timeout: 'TmuxTimeoutError',
  output_limit: 'TmuxOutputLimitError',
  connection_lost: 'TmuxConnectionLostError',
  attach_refused: 'TmuxAttachRefusedError',
  link_silent: 'TmuxLinkSilentError',
  host_unreachable: 'TmuxHostError',
  socket_unusable: 'TmuxSocketUnusableError',
};

export function renderError(error: unknown): CallToolResult {
  let message: string;
  let suggestion: string | undefined;
  let type: string;
  let expected = true;
  const failure = asFailure(error);
  const tmuxType = failure && TMUX_ERROR_TYPES[failure.kind as TmuxFailureKind];
  if (failure && tmuxType) {
    message = `tmux error: ${failure.message}`;
    suggestion = failure.hint;
    type = tmuxType;
  } else if (failure) {
    message = failure.message;
    suggestion = failure.hint;
    type = ERROR_TYPES[failure.kind] ?? 'ToolError';
    expected = failure.kind !== 'internal';
  } else {
    message = `Unexpected error: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
    type = 'UnexpectedError';
    expected = false;
  }
  return {
    content: [{ type: 'text', text: suggestion ? `${message}\n${suggestion}` : message }],
    isError: true,
    _meta: { error_type: type, expected, ...(suggestion ? { suggestion } : {}) },
  };
}

/** What a text-only tool (declared `textOnly`, e.g. capture_pane) answers: its text, and no structured content. */
export function textOnlyResult(text: string): ToolOutcome {
  return { structured: {}, text };
}

/**
 * A success as the Python server answers it: text alone for a text-only tool, else structured
 * content and its JSON. Known by the tool's name rather than by marking each outcome in a weak
 * set, which every call would add to and every collection would have to sweep.
 */
export function renderSuccess(outcome: ToolOutcome, textOnly: boolean): RenderedResult {
  if (textOnly) return { result: { content: [{ type: 'text', text: outcome.text ?? '' }] } };
  return successResult(outcome);
}
