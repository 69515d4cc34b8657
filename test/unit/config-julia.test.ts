/** The julia profile's pane flags take the exact pane id its contract's schemas take (no leading zeros). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from '../../src/config.js';
import { parseCli } from '../../src/cli/options.js';

test('--allow-pane and --caller-pane refuse what is not an exact pane id', () => {
  for (const bad of ['%03', '3', '%', '%3 ', '@1']) {
    assert.throws(
      () => parseCli(['--profile', 'julia', '--allow-pane', bad], {}),
      (error: unknown) => error instanceof ConfigError && /exact pane id/.test(error.message),
      bad,
    );
    assert.throws(() => parseCli(['--profile', 'julia', '--caller-pane', bad], {}), ConfigError, bad);
  }
  const action = parseCli(['--profile', 'julia', '--allow-pane', '%0', '--allow-pane', '%12'], {});
  assert.equal(action.kind, 'serve');
  assert.deepEqual(action.kind === 'serve' ? action.config.julia?.allowPanes : undefined, ['%0', '%12']);
});
