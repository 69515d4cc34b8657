/**
 * The julia profile and hosts, over a loopback sshd: list_panes spans this machine and every host,
 * each row's generation names its host (`a:<pid>:<start>:<tag>`), every pane tool goes where its
 * target's generation says, a generation is never applied on another server (wrong_server), a
 * restarted host tmux makes its old targets stale, and a host that is down or goes silent fails
 * only its own calls, with an error naming it. Nothing is left running on either side.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allToolArgs, startJulia, type Julia, type Target } from '../../fixture/julia.js';
import { hostArgs, hostServers, nothingLeft, type HostServers } from '../../fixture/hosts.js';
import { settle } from '../../fixture/until.js';

type T = Parameters<typeof hostServers>[0];

interface Rig extends HostServers {
  readonly julia: Julia;
}

/** Local tmux (session "here"), host a ("alpha") and host b ("beta"), each with one sh pane %0; julia with every tool. */
async function rig(t: T, extraHosts: string[] = []): Promise<Rig> {
  const servers = await hostServers(t);
  const julia = await startJulia(t, servers.local, {
    negotiation: 'auto',
    // A generous silence limit: a loaded test machine must not look like a dropped link.
    env: { TMUX_MCP_SSH_CONFIG: servers.sshd.config, LIBTMUX_MCP_COMMAND_TIMEOUT_SECONDS: '20', TMUX_MCP_HOST_SILENCE_SECONDS: '3' },
    args: [...allToolArgs(), '--timeout', '30', ...hostArgs(servers), ...extraHosts.flatMap((h) => ['--host', h])],
  });
  return { ...servers, julia };
}

/** Ends the server and checks that nothing it started lives on. */
async function closeAndCheck(setup: Rig): Promise<void> {
  await setup.julia.mcp.close();
  await nothingLeft(setup);
}

/** The three panes' targets: this machine's, host a's and host b's. */
async function targets(julia: Julia): Promise<{ here: Target; onA: Target; onB: Target; coverage: string }> {
  const listed = await julia.ok('list_panes', { limit: 128 });
  const rows: Target[] = listed.panes.map((p: { target: Target }) => p.target);
  assert.equal(rows.length, 3, JSON.stringify(listed));
  return { here: rows[0]!, onA: rows[1]!, onB: rows[2]!, coverage: listed.coverage };
}

test('julia over hosts: list, capture, send keys, wait and kill each land on the host the generation names', async (t) => {
  const setup = await rig(t);
  const { a, b, julia } = setup;
  const { here, onA, onB, coverage } = await targets(julia);
  assert.equal(coverage, 'complete_observed_graph');
  assert.deepEqual([here.paneId, onA.paneId, onB.paneId], ['%0', '%0', '%0'], "the ids are each server's own");
  assert.match(here.generation, /^\d+:\d+:[\w-]+$/, 'a local generation has no host part');
  assert.match(onA.generation, /^a:\d+:\d+:[\w-]+$/);
  assert.match(onB.generation, /^b:\d+:\d+:[\w-]+$/);
  const page = await julia.ok('list_panes', { limit: 1, offset: 1 });
  assert.deepEqual([page.panes[0].target, page.total, page.nextOffset], [onA, 3, 2], 'pages run over every host in order');

  // send keys to host b and wait for their output there; only b's pane shows them.
  assert.deepEqual((await julia.ok('send_keys', { target: onB, keys: ['echo typed-$((40+2))-on-b', 'Enter'] })).target, onB);
  const waited = await julia.ok('wait_for_text', { target: onB, text: 'typed-42-on-b' });
  assert.equal(waited.matched, true);
  assert.match((await julia.ok('capture_pane', { target: onB })).text, /typed-42-on-b/);
  for (const other of [here, onA]) assert.doesNotMatch((await julia.ok('capture_pane', { target: other })).text, /typed-42/);
  assert.match(await b.tmux('capture-pane', '-p', '-t', '%0'), /typed-42-on-b/);

  // send_keys_and_wait on host a: the pane's $TMUX is host a's socket.
  const ran = await julia.ok('send_keys_and_wait', { target: onA, keys: ['echo "$TMUX" | cut -d, -f1', 'Enter'], text: a.socketPath });
  assert.deepEqual([ran.matched, ran.keysSent, ran.source], [true, true, 'output']);

  // paste and resize reach host a too.
  await julia.ok('paste_text', { target: onA, text: 'pasted-on-a' });
  assert.match(await a.tmux('capture-pane', '-p', '-t', '%0'), /pasted-on-a/);
  await julia.ok('resize_pane', { target: onA, width: 70 });

  // kill a pane on host a, listed through julia; host b and this machine keep theirs.
  await a.tmux('split-window', '-t', '%0', 'sh');
  const split = (await julia.ok('list_panes', { limit: 128 })).panes
    .map((p: { target: Target }) => p.target)
    .find((p: Target) => p.paneId === '%1' && p.generation === onA.generation);
  assert.ok(split, "the new pane of host a is listed with host a's generation");
  await julia.ok('kill_pane', { target: split });
  assert.equal((await a.tmux('list-panes', '-a', '-F', '#{pane_id}')).trim(), '%0');
  assert.equal((await b.tmux('list-panes', '-a', '-F', '#{pane_id}')).trim(), '%0');

  // run_operations: each item goes to its own target's host.
  const batch = await julia.ok('run_operations', {
    operations: [
      { tool: 'capture_pane', arguments: { target: onB, lines: 5 } },
      { tool: 'capture_pane', arguments: { target: here, lines: 5 } },
    ],
  });
  assert.deepEqual(
    batch.completed.map((c: { result: { target: Target } }) => c.result.target),
    [onB, here],
  );
  await closeAndCheck(setup);
});

test('julia over hosts: a generation is never applied on another server; a restarted host makes its targets stale', async (t) => {
  const setup = await rig(t);
  const { a, julia } = setup;
  const { here, onA, onB } = await targets(julia);
  const rest = onA.generation.slice('a:'.length);
  // host a's generation relabelled as host b's: routed to b, whose server it is not.
  const onBForged = await julia.error('capture_pane', { target: { paneId: '%0', generation: `b:${rest}` } });
  assert.deepEqual([onBForged.code, onBForged.effects], ['wrong_server', 'none']);
  // ... or without its host: this machine's tmux, not host a's.
  assert.equal((await julia.error('send_keys', { target: { paneId: '%0', generation: rest }, keys: ['x'] })).code, 'wrong_server');
  // ... or this machine's generation presented as host a's.
  assert.equal((await julia.error('capture_pane', { target: { paneId: '%0', generation: `a:${here.generation}` } })).code, 'wrong_server');
  // a host that is not configured here is another server, refused before anything runs.
  const unknown = await julia.error('kill_pane', { target: { paneId: '%0', generation: `zz:${rest}` } });
  assert.deepEqual([unknown.code, unknown.effects], ['wrong_server', 'none']);
  // a wait with a cross-host target is refused the same way.
  assert.equal((await julia.error('wait_for_text', { target: { paneId: '%0', generation: `b:${rest}` }, text: 'x' })).code, 'wrong_server');
  assert.equal(await a.tmux('capture-pane', '-p', '-t', '%0').then((text) => text.includes('\nx')), false, 'nothing was typed on host a');

  // host a's tmux restarts: its old targets are stale, host b's still work.
  await a.restart({ session: 'alpha' });
  const stale = await julia.error('capture_pane', { target: onA });
  assert.deepEqual([stale.code, stale.effects], ['stale_target', 'none']);
  assert.equal((await julia.error('send_keys', { target: onA, keys: ['x'] })).code, 'stale_target');
  assert.deepEqual((await julia.ok('capture_pane', { target: onB })).target, onB);
  const fresh = await targets(julia);
  assert.notEqual(fresh.onA.generation, onA.generation);
  assert.deepEqual((await julia.ok('capture_pane', { target: fresh.onA })).target, fresh.onA);
  await closeAndCheck(setup);
});

test('julia over hosts: a host that is down is named in coverage and fails only its own calls', async (t) => {
  const setup = await rig(t, ['down=down']);
  const { julia } = setup;
  const listed = await julia.ok('list_panes', { limit: 128 });
  assert.equal(listed.panes.length, 3, 'the other servers are listed');
  assert.match(listed.coverage, /^partial_observed_graph; not listed: down: .*host down.*Connection refused/);
  const failed = await julia.error('capture_pane', { target: { paneId: '%0', generation: 'down:1:2:abc' } });
  assert.equal(failed.code, 'operation_failed');
  assert.match(failed.message, /host down \(ssh down\).*Connection refused/);
  await closeAndCheck(setup);
});

test("julia over hosts: a silent link (host a's sshd sessions stopped) fails the wait in flight; the next call reconnects, after SIGCONT or a kill", async (t) => {
  const setup = await rig(t);
  const { sshd, a, julia } = setup;
  for (const recover of ['thaw', 'kill'] as const) {
    const { onA, onB } = await targets(julia);
    const waiting = julia.payload('wait_for_text', { target: onA, text: 'never printed' });
    // The wait streams host a's pane over a connection of its own (a second tmux client on host
    // a): once it is there, stop the sshd sessions serving host a, so its links go silent without a FIN.
    await settle(async () => (await a.tmux('list-clients', '-F', '#{client_pid}')).trim().split('\n').length >= 2, 20_000);
    const frozen = sshd.freezeSessions(a.socketPath);
    assert.equal(frozen.length, 2, "the command connection and the wait's");
    const failed = await waiting;
    assert.ok('error' in failed, JSON.stringify(failed));
    assert.equal(failed.error.code, 'operation_failed', 'the link, not the deadline');
    assert.match(failed.error.message, /host a sent nothing for 3000 ms/);
    // The frozen sessions still hold their old connections; the next calls get new ones.
    assert.deepEqual((await julia.ok('capture_pane', { target: onA })).target, onA);
    assert.deepEqual((await julia.ok('capture_pane', { target: onB })).target, onB);
    if (recover === 'thaw') sshd.thaw(frozen);
    else await sshd.killSessions(frozen);
    assert.equal(
      (await julia.ok('send_keys_and_wait', { target: onA, keys: ['echo back-$((6*7))', 'Enter'], text: 'back-42' })).matched,
      true,
    );
  }
  await closeAndCheck(setup);
});
