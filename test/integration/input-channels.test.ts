import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Engine } from '../../src/core/engine.js';
import { checkChannel, effectiveChannelTimeout, signalChannel, waitForChannel } from '../../src/core/watch/channels.js';
import { Failure } from '../../src/core/failure.js';
import { TmuxServer } from '../../src/tmux/server.js';
import { privateTmux, scrubbedEnv, TMUX_BIN, type PrivateTmux } from '../fixture/tmux.js';
import { waiters } from '../fixture/processes.js';
import { until } from '../fixture/until.js';
import { listSessions } from '../../src/core/index.js';

function engineFor(t: { after: (fn: () => Promise<void>) => void }, tmux: PrivateTmux, waitMaxMs = 10_000): Engine {
  const server = new TmuxServer({ bin: TMUX_BIN, socketPath: tmux.socketPath, commandTimeoutMs: 5000, env: scrubbedEnv() });
  t.after(() => server.close());
  return new Engine(server, { waitMaxMs });
}

let serial = 0;
const unique = (stem: string) => `${stem}-${process.pid}-${++serial}`;

test('checkChannel takes shell-safe names only', () => {
  for (const ok of ['a', 'tests_done', 'build-42', 'job.1:step', '_x', '9']) assert.doesNotThrow(() => checkChannel(ok), ok);
  for (const bad of ['', '-S', '-', 'a b', 'a;b', ';', 'a$b', 'a\nb', "it's", 'x/y', 'ü', 'a'.repeat(1025)]) {
    assert.throws(() => checkChannel(bad), /channel/, JSON.stringify(bad));
  }
  assert.doesNotThrow(() => checkChannel('a'.repeat(1024)));
});

test('the default wait is 30 s, and the server ceiling caps any request', async (t) => {
  const tmux = privateTmux(t);
  assert.equal(effectiveChannelTimeout(engineFor(t, tmux, 120_000), undefined), 30_000);
  assert.equal(effectiveChannelTimeout(engineFor(t, tmux, 120_000), 500_000), 120_000);
  assert.equal(effectiveChannelTimeout(engineFor(t, tmux, 10_000), undefined), 10_000);
  assert.equal(effectiveChannelTimeout(engineFor(t, tmux, 10_000), 250), 250);
});

test('a signal releases every waiter; each wait is its own tmux process, gone afterwards', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const engine = engineFor(t, tmux);
  const channel = unique('many');
  const waits = [1, 2, 3].map(() => waitForChannel(engine, channel, { timeoutMs: 20_000 }));
  await until('three wait-for processes', () => waiters(channel).length === 3);
  // Commands still flow over the control connection while the waits block.
  assert.equal((await listSessions(engine)).length, 1);
  // A waiter process can exist before tmux has its command (a loaded machine); tmux wakes only the
  // waiters it has, so signal again until all three are released.
  let released = 0;
  const all = Promise.all(waits.map((w) => w.then((r) => (released++, r))));
  await until(
    'all three waits released',
    async () => {
      await signalChannel(engine, channel);
      await Promise.race([all, new Promise((resolve) => setTimeout(resolve, 200))]);
      return released === 3;
    },
    20_000,
  );
  for (const result of await all) assert.equal(result.released, true);
  assert.deepEqual(waiters(channel), []);
});

test('an aborted wait stops its process and rejects; no server means a clear error', async (t) => {
  const tmux = privateTmux(t);
  const engine = engineFor(t, tmux);
  const noServer = (error: unknown) => error instanceof Failure && error.kind === 'no_server';
  await assert.rejects(waitForChannel(engine, 'nobody'), noServer);
  await assert.rejects(signalChannel(engine, 'nobody'), noServer);

  await tmux.start();
  const channel = unique('abort');
  const controller = new AbortController();
  const wait = waitForChannel(engine, channel, { timeoutMs: 60_000, signal: controller.signal });
  await until('the wait-for process', () => waiters(channel).length === 1);
  controller.abort();
  await assert.rejects(wait, /wait on channel .* was cancelled.*tmux client was stopped/);
  assert.deepEqual(waiters(channel), [], 'the process is reaped before the call answers');

  const already = new AbortController();
  already.abort();
  await assert.rejects(waitForChannel(engine, channel, { signal: already.signal }), /cancelled/);
});

test('a server replaced during the wait is reported, not taken for a signal', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const engine = engineFor(t, tmux);
  const channel = unique('replaced');
  // Settled into a value at once: it may fail while the new server is still starting.
  const wait = waitForChannel(engine, channel, { timeoutMs: 20_000 }).then(
    (value) => value,
    (error: unknown) => error,
  );
  await until('the wait-for process', () => waiters(channel).length === 1);
  await tmux.tmux('kill-server');
  // The old server may still be shutting down on the socket; start the new one once it can.
  let refused: unknown;
  await until(
    () => `a new tmux server to start (${refused})`,
    () =>
      tmux.start().then(
        () => true,
        (error: unknown) => ((refused = error), false),
      ),
    5000,
  );
  const outcome = await wait;
  assert.ok(outcome instanceof Error, `expected an error, got ${JSON.stringify(outcome)}`);
  assert.match(
    outcome.message,
    /ended because the tmux server (exited|was replaced by another one), not because the channel was signalled/,
  );
});
