/**
 * The engine registry with hosts, over a loopback sshd: a host's engine is pinned and carries the
 * host in its identity and refs; a per-call socket name `HOST:` (the python profile's way in)
 * reaches it; an engine refuses a ref of another host; the caller guard stays local.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EngineRegistry } from '../../src/core/servers/registry.js';
import { decodeRef } from '../../src/core/targets/refs.js';
import { Failure } from '../../src/core/failure.js';
import { checkGeneration, generationOf } from '../../src/core/servers/generation.js';
import { loopbackSshd } from '../fixture/sshd.js';
import { privateTmux, TMUX_BIN } from '../fixture/tmux.js';
import { encodeRef, isCallerPane, listPanes, listSessions, resolvePane } from '../../src/core/index.js';

test('registry: hosts are engines of their own, addressed by location or by a HOST: socket name', async (t) => {
  const sshd = await loopbackSshd(t);
  const local = privateTmux(t);
  const a = privateTmux(t);
  const b = privateTmux(t);
  await Promise.all([local.start({ session: 'here' }), a.start({ session: 'alpha' }), b.start({ session: 'beta' })]);
  const registry = new EngineRegistry({
    bin: TMUX_BIN,
    commandTimeoutMs: 10_000,
    engine: { waitMaxMs: 10_000, caller: { paneId: '%0' } },
    defaultLocation: { socketPath: local.socketPath },
    hosts: [
      { name: 'a', destination: 'hosta', socketPath: a.socketPath, sshConfig: sshd.config },
      { name: 'b', destination: 'hostb', socketPath: b.socketPath, sshConfig: sshd.config },
    ],
  });
  t.after(() => registry.close());
  assert.deepEqual(registry.hostNames, ['a', 'b']);

  const viaName = await registry.use(EngineRegistry.named('a:'), async (engine) => {
    const [session] = await listSessions(engine);
    return { engine, session: session! };
  });
  assert.equal(viaName.session.name, 'alpha');
  assert.equal(viaName.session.incarnation.host, 'a');
  assert.equal(viaName.session.incarnation.socketPath, a.socketPath);
  const viaLocation = await registry.use(registry.hostLocation('a'), async (engine) => engine);
  assert.equal(viaLocation, viaName.engine, 'one engine (one ssh connection) per host');
  assert.equal(registry.keys().length, 3, 'the local engine and one per host, nothing more');

  // Refs carry their host; another host's engine refuses them.
  const [paneOnB] = await registry.use(registry.hostLocation('b'), (engine) => listPanes(engine));
  const refB = encodeRef('pane', paneOnB!.id, paneOnB!.incarnation);
  assert.equal(decodeRef(refB)?.host, 'b');
  await assert.rejects(
    resolvePane(viaName.engine, refB),
    (e: unknown) => e instanceof Failure && e.kind === 'refused' && /belongs to host b, not to host a/.test(e.message),
  );
  await assert.rejects(resolvePane(registry.defaultEngine, refB), /belongs to host b, not to the local tmux/);
  assert.equal((await registry.use(registry.hostLocation('b'), (engine) => resolvePane(engine, refB))).id, '%0');

  // Generations (the julia profile's targets) name the host too: host a's is another server on host b.
  const generationA = generationOf(viaName.session.incarnation);
  assert.notEqual(generationA, generationOf({ ...viaName.session.incarnation, host: undefined }));
  await registry.use(registry.hostLocation('b'), async (engine) => {
    await assert.rejects(checkGeneration(engine, '%0', generationA), (e: unknown) => e instanceof Failure && e.kind === 'wrong_server');
  });
  assert.equal((await checkGeneration(viaName.engine, '%0', generationA)).host, 'a');

  // The caller guard is about the pane this process runs in: %0 here, not %0 on a host.
  assert.equal(await isCallerPane(registry.defaultEngine, '%0'), true);
  assert.equal(await isCallerPane(viaName.engine, '%0'), false);

  // A host that is not configured is an error, not a new connection.
  assert.throws(() => registry.hostLocation('zz'), /no host named "zz"/);
});
