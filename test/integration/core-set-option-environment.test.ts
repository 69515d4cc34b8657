/**
 * Setting and unsetting tmux options at every scope and environment variables globally or per
 * session: values arrive exactly as given, tmux's refusals are clear failures, bad input never
 * reaches tmux.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setEnvironment, showEnvironment, unsetEnvironment } from '../../src/core/settings/environment.js';
import { Failure } from '../../src/core/failure.js';
import { setOption, showOption, unsetOption, type OptionScope } from '../../src/core/settings/options.js';
import { engineOn } from '../fixture/engine.js';
import { until } from '../fixture/until.js';
import { privateTmux } from '../fixture/tmux.js';
import { getPane } from '../../src/core/index.js';

const isFailure =
  (kind: string, touched = true) =>
  (error: unknown) =>
    error instanceof Failure && error.kind === kind && error.touched === touched;

test('bad option and environment input is refused before any tmux runs', async (t) => {
  const tmux = privateTmux(t);
  const engine = engineOn(t, tmux, { bin: '/nonexistent/tmux-never-run' });
  const server: OptionScope = { kind: 'server' };
  for (const name of ['', '-g', 'a b', 'x;kill-server', '@', 'history-limit\n']) {
    await assert.rejects(setOption(engine, server, name, '1'), isFailure('invalid_argument', false), JSON.stringify(name));
    await assert.rejects(unsetOption(engine, server, name), isFailure('invalid_argument', false));
  }
  for (const value of ['a\0b', 'x'.repeat(16_385), '#(touch x)', 'status #{?1,#(id),}', '#%Z(id)']) {
    await assert.rejects(setOption(engine, server, '@x', value), isFailure('invalid_argument', false), JSON.stringify(value.slice(0, 20)));
  }
  for (const name of ['', '1X', 'A-B', 'A=B', 'A B', 'É']) {
    await assert.rejects(setEnvironment(engine, name, 'v'), isFailure('invalid_argument', false), JSON.stringify(name));
    await assert.rejects(unsetEnvironment(engine, name), isFailure('invalid_argument', false));
  }
  await assert.rejects(setEnvironment(engine, 'X', 'a\0b'), isFailure('invalid_argument', false));
});

test('options are set at server, global and local scopes, values exactly as given', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'main' });
  const engine = engineOn(t, tmux);
  const { sessionId, windowId } = await getPane(engine, pane);

  assert.deepEqual(await setOption(engine, { kind: 'server' }, 'escape-time', '7'), [{ name: 'escape-time', value: '7' }]);
  assert.deepEqual(await setOption(engine, { kind: 'global_session' }, 'history-limit', '1234'), [
    { name: 'history-limit', value: '1234' },
  ]);
  assert.deepEqual(await setOption(engine, { kind: 'global_window' }, 'mode-keys', 'vi'), [{ name: 'mode-keys', value: 'vi' }]);
  assert.deepEqual(await setOption(engine, { kind: 'session', sessionId }, 'status', 'off'), [{ name: 'status', value: 'off' }]);
  assert.equal((await tmux.tmux('show-options', '-v', '-t', sessionId, 'status')).trim(), 'off');
  for (const value of ['-5', '--', 'ends;', '$HOME ~ #{pane_id} ##(x)', 'quotes \' " \\', 'two\nlines', 'é ✓']) {
    const [set] = await setOption(engine, { kind: 'window', windowId }, '@probe', value);
    assert.equal(set?.value, value, JSON.stringify(value));
  }
  assert.deepEqual(await setOption(engine, { kind: 'pane', paneId: pane }, '@pane_probe', 'p'), [{ name: '@pane_probe', value: 'p' }]);
  assert.equal((await tmux.tmux('show-options', '-pv', '-t', pane, '@pane_probe')).trim(), 'p');

  // Unset: the session's own status goes, the global one shows through; a user option is gone.
  await unsetOption(engine, { kind: 'session', sessionId }, 'status');
  assert.equal((await tmux.tmux('show-options', '-t', sessionId, 'status')).trim(), '');
  await unsetOption(engine, { kind: 'pane', paneId: pane }, '@pane_probe');
  await assert.rejects(showOption(engine, { kind: 'pane', paneId: pane }, '@pane_probe'), isFailure('not_found'));
});

test("tmux's refusals are clear failures; a missing target is not found; no server is said so", async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const engine = engineOn(t, tmux);
  await assert.rejects(setOption(engine, { kind: 'global_session' }, 'history-limit', 'lots'), (error: unknown) => {
    return isFailure('invalid_argument')(error) && /history-limit/.test((error as Error).message);
  });
  await assert.rejects(setOption(engine, { kind: 'server' }, 'no-such-option', '1'), isFailure('invalid_argument'));
  await assert.rejects(setOption(engine, { kind: 'session', sessionId: '$999' }, 'status', 'off'), isFailure('not_found'));
  await assert.rejects(setEnvironment(engine, 'X', 'y', '$999'), isFailure('not_found'));

  const idle = privateTmux(t);
  await assert.rejects(
    setOption(engineOn(t, idle), { kind: 'server' }, 'escape-time', '1'),
    (error: unknown) => error instanceof Failure && error.kind === 'no_server',
  );
});

test('environment: set globally and per session, new panes get it; unset and remove', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'main' });
  const engine = engineOn(t, tmux);
  const { sessionId } = await getPane(engine, pane);

  for (const value of ['-r', '--', 'ends;', '$HOME `id` $(id)', 'two\nlines', '', 'é']) {
    assert.equal(await setEnvironment(engine, 'MCP_GLOBAL', value), value, JSON.stringify(value));
    assert.equal((await showEnvironment(engine)).MCP_GLOBAL, value);
  }
  assert.equal(await setEnvironment(engine, 'MCP_SESSION', 'session value $HOME', sessionId), 'session value $HOME');
  assert.equal((await showEnvironment(engine, sessionId)).MCP_SESSION, 'session value $HOME');
  assert.equal((await showEnvironment(engine)).MCP_SESSION, undefined, 'the global table is unchanged');

  // A window started in the session now has the variable.
  const dir = mkdtempSync(join(tmpdir(), 'tmux-mcp-env-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const out = join(dir, 'value');
  await tmux.tmux('new-window', '-d', '-t', sessionId, `printf %s "$MCP_SESSION" > '${out}.tmp' && mv '${out}.tmp' '${out}'`);
  await until('the new window to write the variable', () => existsSync(out));
  assert.equal(readFileSync(out, 'utf8'), 'session value $HOME');

  await unsetEnvironment(engine, 'MCP_SESSION', { sessionId });
  assert.equal((await showEnvironment(engine, sessionId)).MCP_SESSION, undefined);
  await unsetEnvironment(engine, 'MCP_GLOBAL', { remove: true });
  assert.equal((await showEnvironment(engine)).MCP_GLOBAL, null);
  await unsetEnvironment(engine, 'MCP_GLOBAL');
  assert.equal((await showEnvironment(engine)).MCP_GLOBAL, undefined);
});
