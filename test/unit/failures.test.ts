/**
 * What tmux reports leaves core as a Failure (core/failure.ts, asFailure), and each profile renders
 * it exactly as it rendered tmux's own error classes: libtmux's "message. hint", python's
 * "tmux error: ..." named after the class, julia's envelope with tmux's words alone.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { asFailure, Failure, isHostUnreachable } from '../../src/core/failure.js';
import { describeError } from '../../src/mcp/tools/results.js';
import { envelope } from '../../src/profiles/julia/envelope.js';
import { renderError } from '../../src/profiles/python/errors.js';
import {
  TmuxArgumentsTooLongError,
  TmuxAttachRefusedError,
  TmuxCommandError,
  TmuxConnectionLostError,
  TmuxHostError,
  TmuxLinkSilentError,
  TmuxNoServerError,
  TmuxNotTmuxSocketError,
  TmuxOutputLimitError,
  TmuxTimeoutError,
  TmuxUnavailableError,
  type TmuxError,
} from '../../src/tmux/errors.js';
import { TmuxSocketUnusableError } from '../../src/tmux/socket-guard.js';

const reported: ReadonlyArray<readonly [TmuxError, string]> = [
  [new TmuxCommandError(['kill-pane'], "can't find pane: %9"), 'tmux_failed'],
  [new TmuxNoServerError('/tmp/s'), 'no_server'],
  [new TmuxNotTmuxSocketError('/tmp/s', 'protocol'), 'not_tmux'],
  [new TmuxUnavailableError('tmux', new Error('ENOENT')), 'tmux_missing'],
  [new TmuxArgumentsTooLongError(['send-keys'], 5_000_000), 'arguments_too_long'],
  [new TmuxTimeoutError(['list-panes'], 500), 'tmux_timeout'],
  [new TmuxOutputLimitError(['show-buffer'], 'stdout', 10), 'output_limit'],
  [new TmuxConnectionLostError('gone'), 'connection_lost'],
  [new TmuxAttachRefusedError('no sessions'), 'attach_refused'],
  [new TmuxLinkSilentError('far', 3000), 'link_silent'],
  [TmuxHostError.ssh('far', 'far.example', 'Connection refused'), 'host_unreachable'],
  [new TmuxSocketUnusableError('/tmp/s', 'is a directory'), 'socket_unusable'],
];

test('each tmux error becomes the failure kind it names, its words and hint unchanged', () => {
  for (const [error, kind] of reported) {
    const failure = asFailure(error);
    assert.ok(failure instanceof Failure, error.name);
    assert.equal(failure.kind, kind, error.name);
    assert.equal(failure.message, error.message);
    assert.equal(failure.hint, error.hint);
    assert.equal(failure.touched, kind !== 'socket_unusable', error.name);
  }
  const own = new Failure('timeout', 'the text did not appear');
  assert.equal(asFailure(own), own);
  assert.equal(asFailure(new Error('a bug')), undefined);
  assert.deepEqual(
    reported.filter(([error]) => isHostUnreachable(error)).map(([error]) => error.name),
    ['TmuxTimeoutError', 'TmuxLinkSilentError', 'TmuxHostError'],
  );
});

test('every profile renders what tmux reported as it rendered the error class itself', () => {
  for (const [error] of reported) {
    const failure = asFailure(error)!;
    assert.equal(describeError(failure), `${error.message}. ${error.hint}`);
    assert.deepEqual(renderError(failure), {
      content: [{ type: 'text', text: `tmux error: ${error.message}\n${error.hint}` }],
      isError: true,
      _meta: { error_type: error.name, expected: true, suggestion: error.hint },
    });
    const code =
      error instanceof TmuxTimeoutError ? 'deadline' : error instanceof TmuxOutputLimitError ? 'output_limit' : 'operation_failed';
    const message =
      error instanceof TmuxTimeoutError
        ? `${error.message}; remote effects may have occurred`
        : error instanceof TmuxSocketUnusableError
          ? `${error.message}. ${error.hint}`
          : error.message;
    const touched = !(error instanceof TmuxSocketUnusableError);
    assert.deepEqual(envelope(failure, true), { message, code, effects: touched ? 'possible' : 'none', retryable: false }, error.name);
    // A stray one (not run through core) renders the same.
    assert.deepEqual(envelope(error, true), envelope(failure, true));
    assert.deepEqual(renderError(error), renderError(failure));
  }
});
