/**
 * One MCP server, three tmux servers: the local one and two "hosts" reached over a loopback sshd
 * (two ssh destinations on it, each with its own tmux socket). Every tool call lands on the host
 * its target names; listings span the hosts; a ref from one host is never applied on another; a
 * host that is down does not stop the others; a dropped connection ends a wait with a clear error
 * and the next call reconnects.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeRef } from '../../../src/core/targets/refs.js';
import { startMcp, type McpSession } from '../../fixture/mcp.js';
import { until } from '../../fixture/until.js';
import { hostArgs, hostServers, nothingLeft, type HostServers } from '../../fixture/hosts.js';

type T = Parameters<typeof hostServers>[0];

interface Rig extends HostServers {
  readonly mcp: McpSession;
}

/** Local tmux (session "here"), host a (session "alpha") and host b (session "beta"), each with one sh pane %0. */
async function rig(t: T, extraHosts: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Rig> {
  const servers = await hostServers(t);
  const mcp = await startMcp(t, {
    env: {
      ...servers.local.env,
      LIBTMUX_TOOLSETS: 'inspect,manage,execute,teardown',
      TMUX_MCP_SSH_CONFIG: servers.sshd.config,
      LIBTMUX_MCP_COMMAND_TIMEOUT_SECONDS: '10',
      TMUX_MCP_HOST_SILENCE_SECONDS: '3',
      ...env,
    },
    args: [...hostArgs(servers), ...extraHosts.flatMap((h) => ['--host', h])],
  });
  return { ...servers, mcp };
}

/** Ends the server and checks that nothing it started lives on. */
async function closeAndCheck(setup: Rig): Promise<void> {
  await setup.mcp.close();
  await nothingLeft(setup);
}

test('hosts: list, capture, send keys, run, wait and kill each land on the right host', async (t) => {
  const setup = await rig(t);
  const { a, b, mcp } = setup;

  const { sessions } = await mcp.ok('list_sessions');
  assert.deepEqual(
    sessions.map((s: { id: string; name: string }) => [s.id, s.name]),
    [
      ['$0', 'here'],
      ['a:$0', 'alpha'],
      ['b:$0', 'beta'],
    ],
    'every host listed; ids say which host',
  );
  const { panes } = await mcp.ok('list_panes');
  assert.deepEqual(
    panes.map((p: { id: string }) => p.id),
    ['%0', 'a:%0', 'b:%0'],
  );
  assert.deepEqual(
    panes.map((p: { windowID: string }) => p.windowID),
    ['@0', 'a:@0', 'b:@0'],
  );
  const { windows } = await mcp.ok('list_windows', { session: 'b:beta' });
  assert.deepEqual(
    windows.map((w: { id: string; target: string }) => [w.id, w.target]),
    [['b:@0', 'b:$0:0']],
  );

  // run a command, with its exit status, in the pane of host a: its $TMUX is host a's socket.
  const ran = await mcp.ok('run_shell_command', { paneId: 'a:%0', command: 'echo "$TMUX" | cut -d, -f1; exit 3', timeoutMs: 20_000 });
  assert.deepEqual(ran.output, [a.socketPath]);
  assert.equal(ran.exitStatus, 3);
  assert.equal(ran.pane, 'a:%0');

  // send keys to host b, wait for them there (from a cursor taken before), and read them back from b only.
  const mark = await mcp.ok('capture_since', { paneId: 'b:%0' });
  const sent = await mcp.ok('send_keys', { paneId: 'b:%0', keys: ['echo typed-$((40+2))-on-b'], enter: true });
  assert.equal(sent.pane, 'b:%0');
  assert.deepEqual(sent.resolvedPaneIds, ['b:%0']);
  const waited = await mcp.ok('wait_for_text', { paneId: 'b:%0', patterns: ['typed-42-on-b'], cursor: mark.cursor, timeoutMs: 20_000 });
  assert.equal(waited.outcome, 'matched');
  const onB = await mcp.ok('capture_pane', { paneId: 'b:%0' });
  assert.equal(onB.paneId, 'b:%0');
  assert.ok(onB.lines.includes('typed-42-on-b'), onB.lines.join('\n'));
  for (const other of ['%0', 'a:%0']) {
    const { lines } = await mcp.ok('capture_pane', { paneId: other });
    assert.ok(!lines.some((line: string) => line.includes('typed-42')), `${other} did not get b's keys`);
  }
  assert.match(await b.tmux('capture-pane', '-p', '-t', '%0'), /typed-42-on-b/);

  // search_panes without a session searches every server; a match names its host.
  const found = await mcp.ok('search_panes', { pattern: 'typed-42-on-b' });
  assert.deepEqual(
    found.matches.map((m: { pane: string }) => m.pane),
    ['b:%0'],
  );
  assert.equal(decodeRef(found.matches[0].paneRef)?.host, 'b');
  assert.equal(found.panesSearched, 3, 'one pane on each of the three servers');

  // a channel signalled on host b releases a wait for `b:NAME` (tmux keeps a signal nobody waited for yet).
  await b.tmux('wait-for', '-S', 'go-b');
  assert.equal((await mcp.ok('wait_for_channel', { channel: 'b:go-b', timeoutMs: 30_000 })).released, true);

  // a batch of reads reaches each host its operations name.
  const batch = await mcp.ok('call_read_tools_batch', {
    operations: [
      { tool: 'capture_pane', arguments: { paneId: 'a:%0' } },
      { tool: 'get_pane_info', arguments: { paneId: 'b:%0' } },
      { tool: 'capture_pane', arguments: { paneId: '%0' } },
    ],
  });
  assert.deepEqual(
    batch.results.map(
      (r: { result: { structuredContent: { paneId?: string; pane?: { id: string } } } }) =>
        r.result.structuredContent.paneId ?? r.result.structuredContent.pane?.id,
    ),
    ['a:%0', 'b:%0', '%0'],
  );

  // tmux://capabilities names the hosts and how to address them.
  const report = JSON.parse(((await mcp.client.readResource({ uri: 'tmux://capabilities' })).contents[0] as { text: string }).text);
  assert.deepEqual(
    report.hosts.map((h: { name: string; socketSelector: string }) => [h.name, h.socketSelector]),
    [
      ['a', `-S ${a.socketPath}`],
      ['b', `-S ${b.socketPath}`],
    ],
  );

  // a ref goes back to its own host by itself.
  const refA = panes[1].ref as string;
  assert.equal(decodeRef(refA)?.host, 'a');
  assert.equal((await mcp.ok('get_pane_info', { paneId: refA })).pane.id, 'a:%0');

  // make and kill on host a; create a session on host b by its name's prefix.
  const split = await mcp.ok('split_window', { paneId: 'a:%0' });
  assert.equal(split.id, 'a:%1');
  assert.equal((await a.tmux('list-panes', '-a', '-F', '#{pane_id}')).trim(), '%0\n%1');
  const killed = await mcp.ok('kill_pane', { paneId: split.ref });
  assert.deepEqual(killed, { deleted: true, paneId: 'a:%1' });
  assert.equal((await a.tmux('list-panes', '-a', '-F', '#{pane_id}')).trim(), '%0');
  const made = await mcp.ok('create_session', { name: 'b:made here' });
  assert.equal(made.id, 'b:$1');
  assert.equal(made.name, 'made here');
  assert.equal((await b.tmux('list-sessions', '-F', '#{session_name}')).trim(), 'beta\nmade here');
  const gone = await mcp.ok('kill_session', { session: 'b:made here' });
  assert.equal(gone.sessionId, 'b:$1');
  assert.equal((await b.tmux('list-sessions', '-F', '#{session_name}')).trim(), 'beta');
  await closeAndCheck(setup);
});

test('hosts: a ref, cursor or target from one host is never applied on another', async (t) => {
  const setup = await rig(t);
  const { a, mcp } = setup;
  const { panes } = await mcp.ok('list_panes');
  const refA = panes.find((p: { id: string }) => p.id === 'a:%0').ref as string;

  // The same ref body claiming host b: routed to b, where its server fingerprint does not match.
  const decoded = decodeRef(refA)!;
  const forged = 'tmux1_' + Buffer.from(`p${decoded.fingerprint}b:${decoded.subject}`, 'utf8').toString('base64url');
  assert.match(await mcp.fails('capture_pane', { paneId: forged }), /host b.*stale|stale.*host b/s);

  // A cursor of host a's pane is not a position in host b's pane: it restarts instead of applying.
  const since = await mcp.ok('capture_since', { paneId: 'a:%0' });
  const onB = await mcp.ok('capture_since', { paneId: 'b:%0', cursor: since.cursor });
  assert.equal(onB.restarted, true);
  // A wait cursor of host a's pane %0 is refused on host b's pane %0.
  const waitedOnA = await mcp.ok('wait_for_text', { paneId: 'a:%0', patterns: ['never printed'], timeoutMs: 100 });
  assert.ok(waitedOnA.cursor);
  assert.match(
    await mcp.fails('wait_for_text', { paneId: 'b:%0', patterns: ['x'], cursor: waitedOnA.cursor, timeoutMs: 100 }),
    /host b.*stale/s,
  );

  // One call, one host.
  assert.match(await mcp.fails('swap_pane', { paneId: 'a:%0', otherPaneId: 'b:%0' }), /different hosts/);
  assert.match(
    await mcp.fails('send_keys_batch', {
      operations: [
        { paneId: 'a:%0', keys: ['x'] },
        { paneId: '%0', keys: ['y'] },
      ],
    }),
    /different hosts/,
  );

  // Host a's tmux restarts: its old ref is refused as stale, like a local restart.
  // restart(): a new-session that still reaches the dying daemon fails "server exited unexpectedly".
  await a.restart({ session: 'alpha' });
  assert.match(await mcp.fails('capture_pane', { paneId: refA }), /stale/);
  assert.equal((await mcp.ok('capture_pane', { paneId: 'a:%0' })).paneId, 'a:%0');
  await closeAndCheck(setup);
});

test('hosts: a host that is down does not stop the others, and its errors name it and quote ssh', async (t) => {
  const setup = await rig(t, ['down=down', 'strange=unknownkey']);
  const { mcp } = setup;
  const listed = await mcp.call('list_sessions');
  assert.ok(!listed.isError);
  assert.deepEqual(
    (listed.structuredContent!.sessions as Array<{ id: string }>).map((s) => s.id),
    ['$0', 'a:$0', 'b:$0'],
  );
  const text = listed.content.map((c) => c.text).join('\n');
  assert.match(text, /down: .*Connection refused/);
  assert.match(text, /strange: .*[Hh]ost key/);
  assert.match(await mcp.fails('capture_pane', { paneId: 'down:%0' }), /host down \(ssh down\).*Connection refused/);
  assert.match(
    await mcp.fails('get_pane_info', { paneId: 'strange:%0' }),
    /host strange.*(Host key verification failed|host key is known)/,
  );
  assert.equal((await mcp.ok('capture_pane', { paneId: 'b:%0' })).paneId, 'b:%0');
  // Listed again soon after, the failed hosts are left out with the reason remembered.
  const again = await mcp.call('list_sessions');
  assert.deepEqual(
    (again.structuredContent!.sessions as Array<{ id: string }>).map((s) => s.id),
    ['$0', 'a:$0', 'b:$0'],
  );
  assert.match(again.content.map((c) => c.text).join('\n'), /down: .*Connection refused/);
  await closeAndCheck(setup);
});

test('hosts: sshd killed mid-wait ends the wait with a clear error; the next call after it is back reconnects', async (t) => {
  const setup = await rig(t);
  const { sshd, mcp } = setup;
  assert.equal((await mcp.ok('capture_pane', { paneId: 'a:%0' })).paneId, 'a:%0');
  const waiting = mcp.call('wait_for_text', { paneId: 'a:%0', patterns: ['never printed'], timeoutMs: 120_000 });
  // The wait has its own control connection once it is streaming; kill sshd under it.
  await until("the wait's own ssh session", () => sshd.sessions().length >= 2, 20_000);
  await sshd.stop();
  const result = await waiting;
  assert.equal(result.isError, true, JSON.stringify(result.structuredContent));
  assert.match(result.content.map((c) => c.text).join('\n'), /host a.*(Connection refused|closed|connection)/s);
  await sshd.resume();
  const { lines, paneId } = await mcp.ok('capture_pane', { paneId: 'a:%0' });
  assert.equal(paneId, 'a:%0');
  assert.ok(Array.isArray(lines));
  assert.equal((await mcp.ok('list_panes', { session: 'a:alpha' })).panes[0].id, 'a:%0');
  await closeAndCheck(setup);
});

test('hosts: a hung host (sshd and its sessions stopped) ends a wait within the silence limit, long before the command timeout; the local tmux keeps answering meanwhile', async (t) => {
  const setup = await rig(t, [], { LIBTMUX_MCP_COMMAND_TIMEOUT_SECONDS: '60', TMUX_MCP_HOST_SILENCE_SECONDS: '2' });
  const { sshd, mcp } = setup;
  assert.equal((await mcp.ok('capture_pane', { paneId: 'a:%0' })).paneId, 'a:%0');
  const waiting = mcp.call('wait_for_text', { paneId: 'a:%0', patterns: ['never printed'], timeoutMs: 120_000 });
  await until("the wait's own ssh session", () => sshd.sessions().length >= 2, 20_000);
  sshd.pause(); // connections stay up, nothing answers: a hung host, not a refused one
  t.after(() => sshd.unpause());
  assert.equal((await mcp.ok('capture_pane', { paneId: '%0' })).paneId, '%0', 'the local tmux is not held up');
  const result = await waiting;
  assert.equal(result.isError, true, JSON.stringify(result.structuredContent));
  assert.match(result.content.map((c) => c.text).join('\n'), /host a sent nothing for 2000 ms/);
  sshd.unpause();
  assert.equal((await mcp.ok('capture_pane', { paneId: 'a:%0' })).paneId, 'a:%0', 'the next call reconnects');
  await closeAndCheck(setup);
});
