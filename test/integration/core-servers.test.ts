/**
 * list_servers and kill_server: live sockets told from stale ones without starting a server, and
 * a server killed only when this MCP server does not run inside it (unless forced).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Failure } from '../../src/core/failure.js';
import { killServer, listSockets } from '../../src/core/servers/servers.js';
import { probeSocket } from '../../src/tmux/socket-probe.js';
import { engineOn } from '../fixture/engine.js';
import { until } from '../fixture/until.js';
import { privateTmux, socketTmpdir } from '../fixture/tmux.js';
import { listSessions } from '../../src/core/index.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('live and stale sockets in the socket directory, other files left out, extra paths after them', async (t) => {
  const dir = socketTmpdir(t);
  const env = { TMUX_TMPDIR: dir.tmpdir };
  const red = dir.server('red');
  const blue = dir.server('blue');
  const stale = dir.server('stale');
  await red.start();
  await blue.start();
  await stale.start();
  // A server killed outright leaves its socket behind: the stale case.
  const pid = Number(await stale.tmux('display-message', '-p', '#{pid}'));
  process.kill(pid, 'SIGKILL');
  await until('the killed server to exit', () => !alive(pid));
  writeFileSync(join(dir.socketDir, 'not-a-socket'), 'x');
  const other = privateTmux(t);
  await other.start();

  const listed = await listSockets({
    env,
    extraSocketPaths: [other.socketPath, join(dir.tmpdir, 'missing.sock'), join(dir.socketDir, 'not-a-socket')],
  });
  assert.deepEqual(listed, [
    { socketName: 'blue', socketPath: join(dir.socketDir, 'blue'), alive: true },
    { socketName: 'red', socketPath: join(dir.socketDir, 'red'), alive: true },
    { socketName: 'stale', socketPath: join(dir.socketDir, 'stale'), alive: false },
    { socketName: null, socketPath: other.socketPath, alive: true },
    { socketName: null, socketPath: join(dir.tmpdir, 'missing.sock'), alive: false },
    { socketName: null, socketPath: join(dir.socketDir, 'not-a-socket'), alive: false },
  ]);
  // Probing started nothing: the stale socket still has no server behind it.
  assert.equal(await probeSocket(join(dir.socketDir, 'stale')), 'stale');
  assert.equal(await probeSocket(join(dir.socketDir, 'nothing-here')), 'missing');
});

test('no socket directory lists nothing; bad extra paths are refused before anything is probed', async () => {
  assert.deepEqual(await listSockets({ env: { TMUX_TMPDIR: '/nonexistent/tmux-mcp-nowhere' } }), []);
  for (const extraSocketPaths of [['relative.sock'], ['/tmp/a\0b'], Array.from({ length: 65 }, (_, i) => `/tmp/s${i}`)]) {
    await assert.rejects(
      listSockets({ env: { TMUX_TMPDIR: '/nonexistent/tmux-mcp-nowhere' }, extraSocketPaths }),
      (error: unknown) => error instanceof Failure && error.kind === 'invalid_argument' && !error.touched,
    );
  }
});

test('kill_server ends that server only; the caller guard holds unless forced', async (t) => {
  const dir = socketTmpdir(t);
  const env = { TMUX_TMPDIR: dir.tmpdir };
  const red = dir.server('red');
  const blue = dir.server('blue');
  const redPane = await red.start();
  await blue.start();
  const redPid = Number(await red.tmux('display-message', '-p', '#{pid}'));
  const bluePid = Number(await blue.tmux('display-message', '-p', '#{pid}'));

  // This MCP server "runs" in red: red is refused, blue (another server) is not.
  await assert.rejects(
    killServer(engineOn(t, red, { caller: { paneId: redPane, serverPid: redPid } })),
    (error: unknown) => error instanceof Failure && error.kind === 'refused',
  );
  await assert.rejects(
    killServer(engineOn(t, red, { caller: { paneId: redPane } })),
    (error: unknown) => error instanceof Failure && error.kind === 'refused',
  );
  assert.ok(alive(redPid));
  await killServer(engineOn(t, blue, { caller: { paneId: redPane, serverPid: redPid } }));
  await until('blue to exit', () => !alive(bluePid));
  // tmux leaves its socket file behind when it exits: blue is listed, as not alive.
  assert.deepEqual(
    (await listSockets({ env })).map((s) => [s.socketName, s.alive]),
    [
      ['blue', false],
      ['red', true],
    ],
  );

  const engine = engineOn(t, red, { caller: { paneId: redPane, serverPid: redPid } });
  await killServer(engine, { force: true });
  await until('red to exit', () => !alive(redPid));
  assert.deepEqual(await listSessions(engine), []);
  await assert.rejects(killServer(engine), (error: unknown) => error instanceof Failure && error.kind === 'not_found');
});
