import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { rowFormat } from '../../src/tmux/formats.js';
import { Engine } from '../../src/core/engine.js';
import { TmuxServer } from '../../src/tmux/server.js';
import { spawnTmux } from '../../src/tmux/spawn.js';
import { localLauncher } from '../../src/tmux/launcher.js';
import { TmuxNoServerError, TmuxTimeoutError } from '../../src/tmux/errors.js';
import { privateTmux, scrubbedEnv, TMUX_BIN, type PrivateTmux } from '../fixture/tmux.js';
import { alive } from '../fixture/processes.js';
import { until } from '../fixture/until.js';
import { getPane, listPanes, listSessions, listWindows } from '../../src/core/index.js';

function engineFor(t: { after: (fn: () => Promise<void>) => void }, tmux: PrivateTmux, spawnOnly = false) {
  const server = new TmuxServer({ bin: TMUX_BIN, socketPath: tmux.socketPath, commandTimeoutMs: 5000, env: scrubbedEnv(), spawnOnly });
  t.after(() => server.close());
  return new Engine(server, { waitMaxMs: 10_000 });
}

test('with no tmux server: empty listings, no identity, no error', async (t) => {
  const tmux = privateTmux(t);
  const engine = engineFor(t, tmux);
  assert.deepEqual(await listSessions(engine), []);
  assert.deepEqual(await listPanes(engine), []);
  assert.equal(await engine.identity(), undefined);
});

test('arguments with every special character reach tmux intact over control mode', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const engine = engineFor(t, tmux);
  const nasty = 'a;b ; $HOME ~ ~/x #{pane_id} #comment "dq" \'sq\' \\ \\n {x} %if -l \u00e9\u6f22\ud83d\ude00 \x01\x7f end;';
  await engine.tmux.run(['set-option', '-g', '@nasty', nasty]);
  const viaControl = await engine.tmux.run(['show-options', '-gv', '@nasty']);
  const viaSpawn = await tmux.tmux('show-options', '-gv', '@nasty');
  assert.equal(viaControl.join('\n'), viaSpawn.replace(/\n$/, ''), 'control mode prints what the tmux command line prints');
  // What tmux holds, read exactly through a row format (tmux 3.4+ prints control bytes as \ooo).
  const value = rowFormat({ value: '@nasty' });
  assert.deepEqual(value.parse(await engine.tmux.run(['display-message', '-p', value.format])), [{ value: nasty }]);
  // a lone leading dash is an argument, not a flag, after `--`
  await engine.tmux.run(['set-option', '-g', '@dash', '-n']);
  assert.deepEqual(await engine.tmux.run(['show-options', '-gv', '@dash']), ['-n']);
});

test('listings survive any byte in names, titles and paths', async (t) => {
  const tmux = privateTmux(t);
  const weirdDir = join(tmux.dir, 'dir with\nnewline;\ttab\u00ff');
  mkdirSync(weirdDir);
  await tmux.start({ session: 'semi;colon' });
  await tmux.tmux('new-window', '-c', weirdDir, '-n', 'win\tdow;x');
  await tmux.tmux('select-pane', '-T', 'title\nwith newline');
  const engine = engineFor(t, tmux);
  const panes = await listPanes(engine);
  assert.equal(panes.length, 2);
  const inWeird = panes.find((pane) => pane.currentPath === weirdDir);
  assert.ok(inWeird, `a pane reports the directory exactly: ${JSON.stringify(panes.map((p) => p.currentPath))}`);
  assert.ok(panes.every((pane) => /^%\d+$/.test(pane.id) && /^@\d+$/.test(pane.windowId)));
  const sessions = await listSessions(engine);
  assert.equal(sessions.length, 1);
  assert.equal(sessions[0]!.name, 'semi;colon');
  const windows = await listWindows(engine);
  assert.equal(windows.length, 2);
});

test('without a UTF-8 locale in the environment, output still arrives byte for byte', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start({ session: 'caf\u00e9 \u6f22 \ud83d\ude00' });
  await tmux.tmux('set-option', '-g', '@text', 'x\u00e9\u6f22\ud83d\ude00\ty');
  const bare = scrubbedEnv();
  for (const key of Object.keys(bare)) if (key === 'LANG' || key.startsWith('LC_')) delete bare[key];
  for (const spawnOnly of [false, true]) {
    const server = new TmuxServer({
      bin: TMUX_BIN,
      socketPath: tmux.socketPath,
      commandTimeoutMs: 5000,
      env: { ...bare, LANG: 'C' },
      spawnOnly,
    });
    t.after(() => server.close());
    const engine = new Engine(server, { waitMaxMs: 10_000 });
    assert.deepEqual(
      (await listSessions(engine)).map((s) => s.name),
      ['caf\u00e9 \u6f22 \ud83d\ude00'],
      `spawnOnly ${spawnOnly}`,
    );
    assert.equal((await listPanes(engine)).length, 1);
    assert.deepEqual(await server.run(['show-options', '-gv', '@text']), ['x\u00e9\u6f22\ud83d\ude00\ty']);
  }
});

test('the control client neither resizes windows nor counts as a person watching', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start({ width: 100, height: 30 });
  const engine = engineFor(t, tmux);
  await listPanes(engine); // attaches the control client
  assert.equal(await tmux.tmux('display', '-p', '-t', 'test:', '#{window_width}x#{window_height} #{session_attached}'), '100x30 1\n');
  assert.deepEqual(
    (await listSessions(engine)).map((session) => session.foreignClients),
    [0],
  );
});

test('a killed session is not kept alive; the engine moves to another session', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start({ session: 'first' });
  const engine = engineFor(t, tmux);
  assert.equal((await listSessions(engine)).length, 1);
  await tmux.newSession('second');
  await tmux.tmux('kill-session', '-t', 'first');
  assert.deepEqual(
    (await listSessions(engine)).map((s) => s.name),
    ['second'],
  );
  await tmux.tmux('kill-session', '-t', 'second');
  assert.deepEqual(await listSessions(engine), []);
});

test('a tmux server that dies mid-command gives a clear error, then the engine recovers', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const engine = engineFor(t, tmux);
  const { pid } = await engine.requireIdentity();
  // Stopped, the server cannot answer; killed, it never will. (The tmux client process only hands
  // our pipes to the server, so it is the server that must go.)
  assert.equal(engine.tmux.ownClientPids().size, 1, 'attached');
  process.kill(pid, 'SIGSTOP');
  const pending = engine.tmux.run(['list-sessions']);
  await new Promise((resolve) => setImmediate(resolve)); // let the command be written
  process.kill(pid, 'SIGKILL');
  // The client reports the server gone; the command never began, so it is tried again and finds no server.
  await assert.rejects(pending, TmuxNoServerError);
  assert.deepEqual(await listSessions(engine), [], 'no server now: an empty listing, not an error');
  await tmux.start();
  assert.equal((await listSessions(engine)).length, 1, 'the next call attaches to the new server');
});

test('a tmux server killed under the engine: empty listings, then a new server is picked up', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const engine = engineFor(t, tmux);
  const identity = await engine.requireIdentity();
  await tmux.tmux('kill-server');
  assert.deepEqual(await listSessions(engine), []);
  assert.equal(await engine.identity(), undefined);
  await tmux.start();
  const fresh = await engine.requireIdentity();
  assert.notEqual(fresh.pid, identity.pid, 'identity follows the new server');
});

test('records carry the incarnation of the server that listed them, across a restart the engine did not see', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  for (const spawnOnly of [false, true]) {
    const engine = engineFor(t, tmux, spawnOnly);
    const before = await engine.requireIdentity();
    assert.deepEqual(
      (await listPanes(engine)).map((p) => p.incarnation.pid),
      [before.pid],
    );
    // Replaced behind the engine's back: the cached identity must not be stamped on the new rows.
    await tmux.tmux('kill-server');
    await until('the old tmux server to exit', () => !alive(before.pid));
    await tmux.start();
    const panes = await listPanes(engine);
    const sessions = await listSessions(engine);
    const pane = await getPane(engine, panes[0]!.id);
    const now = await engine.requireIdentity();
    assert.notEqual(now.pid, before.pid);
    for (const record of [...panes, ...sessions, pane]) {
      assert.deepEqual(
        record.incarnation,
        { socketPath: now.socketPath, pid: now.pid, startTime: now.startTime },
        `spawnOnly ${spawnOnly}`,
      );
    }
  }
});

test('closing leaves no tmux client process behind', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const server = new TmuxServer({ bin: TMUX_BIN, socketPath: tmux.socketPath, commandTimeoutMs: 5000, env: scrubbedEnv() });
  await server.run(['list-sessions']);
  const pids = [...server.ownClientPids()];
  assert.equal(pids.length, 1);
  assert.ok(alive(pids[0]!));
  await server.close();
  assert.ok(!alive(pids[0]!), 'control client exited');
  assert.equal(await tmux.tmux('list-clients'), '', 'no client left attached');
});

test('the spawn fallback runs commands and ends a stuck tmux with SIGTERM then SIGKILL', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const engine = engineFor(t, tmux, true);
  assert.equal((await listSessions(engine)).length, 1);
  assert.equal(engine.tmux.ownClientPids().size, 0, 'spawn-only never attaches');

  const stuck = join(tmux.dir, 'stuck-tmux');
  const pidFile = join(tmux.dir, 'stuck.pid');
  writeFileSync(stuck, `#!/bin/sh\necho $$ > '${pidFile}'\ntrap '' TERM\nwhile :; do sleep 0.05; done\n`);
  chmodSync(stuck, 0o755);
  await assert.rejects(
    spawnTmux(localLauncher(stuck), [], ['list-sessions'], { timeoutMs: 200, killGraceMs: 200, env: scrubbedEnv() }),
    TmuxTimeoutError,
  );
  const { readFileSync } = await import('node:fs');
  assert.ok(!alive(Number(readFileSync(pidFile, 'utf8'))), 'the stuck process was killed');
});

test('a trailing ";" stays text on the spawn path too', async (t) => {
  const tmux = privateTmux(t);
  const engine = engineFor(t, tmux, true);
  // No server yet: new-session itself goes through a spawned tmux.
  await engine.tmux.run(['-f', '/dev/null', 'new-session', '-d', '-s', 'x;', '-x', '80', '-y', '24']);
  await engine.tmux.run(['set-option', '-g', '@a', 'a\\;']);
  await engine.tmux.run(['set-option', '-g', '@b', 'b;;']);
  assert.deepEqual(
    (await listSessions(engine)).map((s) => s.name),
    ['x;'],
  );
  assert.deepEqual(await engine.tmux.run(['show-options', '-gv', '@a']), ['a\\;']);
  assert.deepEqual(await engine.tmux.run(['show-options', '-gv', '@b']), ['b;;']);
});
