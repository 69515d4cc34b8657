/** `--record DIR` / TMUX_MCP_RECORD and `--record-max-mb` / TMUX_MCP_RECORD_MAX_MB: the forms accepted, and each mistake refused before start-up. */
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { ConfigError } from '../../src/config.js';
import { parseCli } from '../../src/cli/options.js';

function record(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const action = parseCli(argv, env);
  assert.equal(action.kind, 'serve');
  return action.kind === 'serve' ? action.config.record : undefined;
}

test('--record and TMUX_MCP_RECORD: an absolute directory, 50 MB per file unless told otherwise', () => {
  assert.equal(record([]), undefined);
  assert.equal(record([], { TMUX_MCP_RECORD: '  ' }), undefined, 'set but blank means off');
  assert.deepEqual(record(['--record', 'recs']), { dir: resolve('recs'), maxBytes: 50 * 1024 * 1024 });
  assert.deepEqual(record([], { TMUX_MCP_RECORD: '/var/rec', TMUX_MCP_RECORD_MAX_MB: '0.5' }), { dir: '/var/rec', maxBytes: 512 * 1024 });
  assert.deepEqual(
    record(['--record=/a', '--record-max-mb=2'], { TMUX_MCP_RECORD: '/b', TMUX_MCP_RECORD_MAX_MB: '9' }),
    { dir: '/a', maxBytes: 2 * 1024 * 1024 },
    'flags win',
  );
  assert.deepEqual(record(['--profile', 'julia', '--record', '/j']), { dir: '/j', maxBytes: 50 * 1024 * 1024 }, 'every profile');
});

test('--record mistakes stop start-up with a message', () => {
  const refused = (argv: string[], env: NodeJS.ProcessEnv, message: RegExp) =>
    assert.throws(
      () => parseCli(argv, env),
      (e: unknown) => e instanceof ConfigError && message.test(e.message),
    );
  refused(['--record'], {}, /--record needs a value/);
  refused(['--record', '/a', '--record', '/b'], {}, /--record is given twice/);
  refused(['--record-max-mb', '5'], {}, /applies to --record only/);
  refused([], { TMUX_MCP_RECORD_MAX_MB: '5' }, /applies to --record only/);
  for (const bad of ['0', '0.001', '-1', '1e3', 'ten', '2000000'])
    refused(['--record', '/a', '--record-max-mb', bad], {}, /from 0\.01 to 1000000/);
});
