/**
 * The engine registry: one engine per tmux server location, opened on first use, shared by equal
 * locations, dropped once its server is gone; socket names that would leave tmux's socket
 * directory are refused before any tmux runs.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EngineRegistry, checkSocketName, locationKey, socketDirectory } from '../../src/core/servers/registry.js';
import { Failure } from '../../src/core/failure.js';
import { socketTmpdir, TMUX_BIN } from '../fixture/tmux.js';
import { listSessions } from '../../src/core/index.js';

function registryFor(t: { after: (fn: () => Promise<void>) => void }, bin = TMUX_BIN) {
  const registry = new EngineRegistry({
    bin,
    commandTimeoutMs: 5000,
    engine: { waitMaxMs: 10_000 },
    defaultLocation: { socketName: 'unused-default' },
  });
  t.after(() => registry.close());
  return registry;
}

test('location keys are stable and distinct, and leave room for a host', () => {
  assert.equal(locationKey({ socketName: 'a' }), locationKey({ socketName: 'a' }));
  assert.notEqual(locationKey({ socketName: 'a' }), locationKey({ socketPath: 'a' }));
  assert.notEqual(locationKey({ socketName: 'a' }), locationKey({ host: 'box', socketName: 'a' }));
  assert.notEqual(locationKey({ host: 'a/L:b' }), locationKey({ host: 'a', socketName: 'b' }));
});

test('socket names with "/", ".." or NUL are refused before any tmux runs', async (t) => {
  // A tmux binary that does not exist: any attempt to run it would fail differently.
  const registry = registryFor(t, '/nonexistent/tmux-never-run');
  for (const name of ['../x', 'a/b', '..', '/tmp/sock', 'a\0b', '']) {
    assert.throws(
      () => checkSocketName(name),
      (error: unknown) => error instanceof Failure && error.kind === 'invalid_argument' && !error.touched,
    );
    await assert.rejects(
      registry.use({ socketName: name }, async () => assert.fail('work ran for a bad socket name')),
      (error: unknown) => error instanceof Failure && error.kind === 'invalid_argument',
    );
  }
  assert.deepEqual(registry.keys(), [locationKey({ socketName: 'unused-default' })]);
});

test('two tmux servers by socket name: one engine each, shared by equal locations', async (t) => {
  const dir = socketTmpdir(t);
  const saved = process.env.TMUX_TMPDIR;
  process.env.TMUX_TMPDIR = dir.tmpdir;
  t.after(() => (saved === undefined ? delete process.env.TMUX_TMPDIR : (process.env.TMUX_TMPDIR = saved)));
  assert.equal(socketDirectory(), dir.socketDir);
  const red = dir.server('red');
  const blue = dir.server('blue');
  await red.start({ session: 'red-session' });
  await blue.start({ session: 'blue-session' });
  const registry = registryFor(t);

  const names = async (socketName: string) =>
    registry.use({ socketName }, async (engine) => (await listSessions(engine)).map((s) => s.name));
  assert.deepEqual(await names('red'), ['red-session']);
  assert.deepEqual(await names('blue'), ['blue-session']);
  const [a, b] = await Promise.all([
    registry.use({ socketName: 'red' }, async (engine) => engine),
    registry.use({ socketName: 'red' }, async (engine) => engine),
  ]);
  assert.equal(a, b, 'one engine per location');
  assert.ok(registry.keys().includes(locationKey({ socketName: 'red' })));
  assert.ok(registry.keys().includes(locationKey({ socketName: 'blue' })));

  // Once its tmux server is gone, the engine is dropped when the work on it ends.
  red.dispose();
  assert.deepEqual(await names('red'), []);
  assert.ok(!registry.keys().includes(locationKey({ socketName: 'red' })));
  assert.ok(registry.keys().includes(locationKey({ socketName: 'blue' })));
});
