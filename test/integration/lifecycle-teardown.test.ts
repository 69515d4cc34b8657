import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Engine } from '../../src/core/engine.js';
import { checkStartDirectory, createSession } from '../../src/core/arrange/lifecycle.js';
import { checkSessionName } from '../../src/core/arrange/naming.js';
import { killSession } from '../../src/core/arrange/teardown.js';
import { Failure } from '../../src/core/failure.js';
import { TmuxServer } from '../../src/tmux/server.js';
import { type PrivateTmux, privateTmux, scrubbedEnv, TMUX_BIN } from '../fixture/tmux.js';
import { listSessions } from '../../src/core/index.js';

function engineFor(t: { after: (fn: () => Promise<void>) => void }, tmux: PrivateTmux): Engine {
  const server = new TmuxServer({ bin: TMUX_BIN, socketPath: tmux.socketPath, commandTimeoutMs: 5000, env: scrubbedEnv() });
  t.after(() => server.close());
  return new Engine(server, { waitMaxMs: 10_000 });
}

/** The session the engine's command connection is attached to. */
async function controlSession(tmux: PrivateTmux): Promise<string | undefined> {
  const rows = (await tmux.tmux('list-clients', '-F', '#{client_control_mode} #{session_id}')).trim().split('\n');
  return rows.find((row) => row.startsWith('1 '))?.slice(2);
}

test('killing the session the control connection sits in never makes the next command fail', async (t) => {
  const tmux = privateTmux(t);
  const engine = engineFor(t, tmux);
  for (let round = 0; round < 15; round++) {
    const a = await createSession(engine, { name: `a${round}` });
    const b = await createSession(engine, { name: `b${round}` });
    await listSessions(engine); // makes sure commands go over control mode
    const attached = (await controlSession(tmux)) ?? a.id;
    const [first, second] = attached === a.id ? [a, b] : [b, a];
    await killSession(engine, first.id, false);
    assert.deepEqual(
      (await listSessions(engine)).map((s) => s.id),
      [second.id],
      `round ${round}`,
    );
    await killSession(engine, second.id, false);
    assert.deepEqual(await listSessions(engine), [], `round ${round}: the last kill ends the server`);
    assert.equal(await engine.identity(), undefined);
  }
});

test('session names and start directories are checked before tmux is asked', async (t) => {
  const reject = (fn: () => unknown, pattern: RegExp) =>
    assert.throws(fn, (error: unknown) => error instanceof Failure && error.kind === 'invalid_argument' && pattern.test(error.message));
  reject(() => checkSessionName(''), /must not be empty/);
  reject(() => checkSessionName('a:b'), /":"/);
  reject(() => checkSessionName('v1.2'), /"\."/);
  reject(() => checkSessionName('tab\there'), /control character/);
  reject(() => checkSessionName('a$b'), /"\$b".*extra backslash/);
  reject(() => checkSessionName('a\\b'), /extra backslash/);
  for (const ok of ['work', 'with space', 'caf\u00e9 \ud83d\ude00', '#{pane_id}', 'x;', '~', '-n']) checkSessionName(ok);

  const base = realpathSync(mkdtempSync(join(tmpdir(), 'tmux-mcp-dir-')));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  assert.equal(await checkStartDirectory(base), base);
  assert.equal(await checkStartDirectory('~'), homedir());
  const failures = async (input: string, pattern: RegExp) =>
    assert.rejects(checkStartDirectory(input), (error: unknown) => error instanceof Failure && pattern.test(error.message));
  await failures('', /must not be empty/);
  await failures('relative', /absolute path/);
  await failures('~user/x', /absolute path/);
  await failures(join(base, 'nope'), /does not exist/);
  await failures('/etc/hostname', /not a directory/);
});
