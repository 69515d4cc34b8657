/**
 * Eight hosts behind one loopback sshd (aliases h1..h8, a tmux server each with session sN), listed
 * by one MCP server: every session and pane of every host comes back, each with its host. Every
 * listing asks every host: a change made through this server, or by anyone else before the listing
 * was asked, is in the very next listing. A host that
 * hangs (its sshd or its tmux stopped) costs a listing its command timeout once, is named in the
 * answer, and the others are still listed. Nothing is left running on any side.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { startMcp } from '../../fixture/mcp.js';
import { startJulia } from '../../fixture/julia.js';
import { loopbackSshd, sshClients, type LoopbackSshd } from '../../fixture/sshd.js';
import { privateTmux, type PrivateTmux } from '../../fixture/tmux.js';
import { settle, until } from '../../fixture/until.js';

type T = Parameters<typeof privateTmux>[0] & { after: (fn: () => Promise<void> | void) => void };

const NAMES = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'h7', 'h8'];

interface Rig {
  /** Serves h1..h7. */
  readonly sshd: LoopbackSshd;
  /** Serves h8 alone, so it can hang while the others answer. */
  readonly sshd8: LoopbackSshd;
  readonly local: PrivateTmux;
  readonly hosts: PrivateTmux[];
  readonly args: string[];
  readonly env: NodeJS.ProcessEnv;
}

/** This machine's tmux (session "here") and eight hosts h1..h8 (session s1..s8), each with one sh pane. */
async function rig(t: T): Promise<Rig> {
  const [sshd, sshd8] = await Promise.all([loopbackSshd(t, NAMES.slice(0, 7)), loopbackSshd(t, ['h8'])]);
  // One ssh config for both: each alias appears in one Host line only (ssh takes the first match).
  const config = join(sshd.dir, 'both_config');
  writeFileSync(config, readFileSync(sshd.config, 'utf8') + readFileSync(sshd8.config, 'utf8'));
  const local = privateTmux(t);
  const hosts = NAMES.map(() => privateTmux(t));
  await Promise.all([local.start({ session: 'here' }), ...hosts.map((host, i) => host.start({ session: `s${i + 1}` }))]);
  const args = NAMES.flatMap((name, i) => ['--host', `${name}=${name}#${hosts[i]!.socketPath}`]);
  // A short command timeout: a stopped host's part of a listing gives up after it (the first listing
  // also connects to all eight at once, which on a loaded machine can take over a second).
  const env = { TMUX_MCP_SSH_CONFIG: config, LIBTMUX_MCP_COMMAND_TIMEOUT_SECONDS: '6', TMUX_MCP_HOST_SILENCE_SECONDS: '5' };
  return { sshd, sshd8, local, hosts, args, env };
}

/** Once the MCP server is closed: no ssh here, no sshd session there, no tmux client on any of the nine servers. */
async function nothingLeft({ sshd, sshd8, local, hosts }: Rig): Promise<void> {
  const sessions = () => [...sshd.sessions(), ...sshd8.sessions()];
  const clients = async () =>
    (await Promise.all([local, ...hosts].map(async (server) => (await server.tmux('list-clients', '-F', '#{client_pid}')).trim()))).join(
      '',
    );
  await settle(async () => sessions().length === 0 && sshClients().length === 0 && (await clients()) === '', 15_000);
  assert.deepEqual(sessions(), [], 'no ssh session (and so no remote tmux client) is left on the far side');
  assert.deepEqual(sshClients(), [], 'no ssh client is left here');
  assert.equal(await clients(), '', 'no tmux client is left on this machine or any host');
}

const EXPECTED_SESSIONS = [{ id: '$0', name: 'here' }, ...NAMES.map((name, i) => ({ id: `${name}:$0`, name: `s${i + 1}` }))];

test('eight hosts: list_sessions (libtmux) lists every session of every host, each with its host, repeatedly', async (t) => {
  const setup = await rig(t);
  const mcp = await startMcp(t, { env: { ...setup.local.env, ...setup.env }, args: setup.args });
  for (let round = 0; round < 3; round++) {
    const listed = await mcp.call('list_sessions');
    assert.ok(!listed.isError, JSON.stringify(listed.content));
    const sessions = listed.structuredContent!.sessions as Array<{ id: string; name: string }>;
    assert.deepEqual(
      sessions.map(({ id, name }) => ({ id, name })),
      EXPECTED_SESSIONS,
      listed.content.map((c) => c.text).join('\n'),
    );
    assert.doesNotMatch(listed.content.map((c) => c.text).join('\n'), /Not listed/);
  }
  // A session made on one host meanwhile (not through this server) shows under that host only, in the next listing.
  await setup.hosts[4]!.newSession('late');
  const names = ((await mcp.ok('list_sessions')).sessions as Array<{ id: string; name: string }>).map(
    (s) => s.id.replace(/\$\d+$/, '') + s.name,
  );
  assert.deepEqual(names, ['here', 'h1:s1', 'h2:s2', 'h3:s3', 'h4:s4', 'h5:late', 'h5:s5', 'h6:s6', 'h7:s7', 'h8:s8']);
  await mcp.close();
  await nothingLeft(setup);
});

/** A session as list_sessions shows it, less its ref. */
type Listed = { id: string; name: string; windowCount: number; isAttached: boolean };

test('eight hosts: a change made on a host by anyone else shows in the very next listing', async (t) => {
  const setup = await rig(t);
  const mcp = await startMcp(t, { env: { ...setup.local.env, ...setup.env }, args: setup.args });
  const listing = async () => (await mcp.ok('list_sessions')).sessions as Listed[];
  const of = (sessions: Listed[], id: string) => sessions.find((s) => s.id === id);
  /** The next listing holds: tmux is asked each time, so what it did before the call is in its answer. */
  const shows = async (what: string, holds: (sessions: Listed[]) => boolean) => {
    const sessions = await listing();
    assert.ok(holds(sessions), `${what}: ${JSON.stringify(sessions)}`);
  };
  assert.deepEqual(await listing(), await listing(), 'twice unchanged');
  // Each change is made by a tmux client of that host's own (not through this server), then listed.
  await setup.hosts[2]!.tmux('rename-session', '-t', 's3', 'renamed');
  await shows('a session renamed on h3', (sessions) => of(sessions, 'h3:$0')?.name === 'renamed');
  await setup.hosts[1]!.tmux('new-window', '-d', '-t', 's2');
  await shows('a window added on h2', (sessions) => of(sessions, 'h2:$0')?.windowCount === 2);
  await setup.hosts[1]!.tmux('kill-window', '-t', 's2:1');
  await shows('that window killed', (sessions) => of(sessions, 'h2:$0')?.windowCount === 1);
  await setup.hosts[5]!.tmux('new-session', '-d', '-s', 'extra');
  await shows('a session made on h6', (sessions) => of(sessions, 'h6:$1')?.name === 'extra');
  await setup.hosts[5]!.tmux('kill-session', '-t', 'extra');
  await shows('and killed', (sessions) => of(sessions, 'h6:$1') === undefined);
  // A person attaches to s4 on h4 in a terminal (script(1) gives the tmux client one), then leaves.
  const person = spawn('script', ['-qfec', `tmux -S '${setup.hosts[3]!.socketPath}' attach-session -t s4`, '/dev/null'], {
    stdio: ['pipe', 'ignore', 'ignore'],
    env: { ...setup.hosts[3]!.env, TERM: 'xterm' },
  });
  t.after(() => void person.kill('SIGKILL'));
  // Terminal clients on h4 (this server's own are control clients).
  const people = async () =>
    (await setup.hosts[3]!.tmux('list-clients', '-F', '#{?client_control_mode,,#{client_pid}}')).split('\n').filter(Boolean);
  await until("the person's terminal client attaches", async () => (await people()).length === 1, 10_000);
  await shows('a person attached on h4', (sessions) => of(sessions, 'h4:$0')?.isAttached === true);
  process.kill(Number((await people())[0]), 'SIGTERM');
  await until("the person's terminal client leaves", async () => (await people()).length === 0, 10_000);
  await shows('and gone again', (sessions) => of(sessions, 'h4:$0')?.isAttached === false);
  await mcp.close();
  await nothingLeft(setup);
});

test('eight hosts: a change made through this server is in the very next listing, on a host and here, with no waiting', async (t) => {
  const setup = await rig(t);
  const mcp = await startMcp(t, {
    env: { ...setup.local.env, ...setup.env, LIBTMUX_TOOLSETS: 'inspect,manage,execute,teardown' },
    args: setup.args,
  });
  const listing = async () => (await mcp.ok('list_sessions')).sessions as Listed[];
  // Each change comes right after a listing: it must be in the listing that follows, on a host (h3)
  // and on this machine alike.
  for (const [prefix, where] of [
    ['h3:', 'h3'],
    ['', 'here'],
  ] as const) {
    for (let round = 0; round < 3; round++) {
      const name = `made${round}`;
      await listing();
      await mcp.ok('create_session', { name: `${prefix}${name}` });
      const made = (await listing()).find((s) => s.name === name);
      assert.ok(
        made && made.id.startsWith(prefix) && (prefix !== '' || made.id.startsWith('$')),
        `a session made ${where} in round ${round}`,
      );
      await mcp.ok('create_window', { session: `${prefix}${name}` });
      assert.equal((await listing()).find((s) => s.name === name)?.windowCount, 2, `a window added ${where} in round ${round}`);
      await mcp.ok('rename_session', { session: `${prefix}${name}`, name: `${name}x` });
      assert.deepEqual(
        (await listing()).filter((s) => s.name === name || s.name === `${name}x`).map((s) => s.name),
        [`${name}x`],
        `renamed ${where} in round ${round}`,
      );
      await mcp.ok('kill_session', { session: `${prefix}${name}x` });
      assert.equal(
        (await listing()).find((s) => s.name === `${name}x`),
        undefined,
        `killed ${where} in round ${round}`,
      );
    }
  }
  await mcp.close();
  await nothingLeft(setup);
});

test('eight hosts: list_panes (julia) lists every pane of every host, its generation naming its host', async (t) => {
  const setup = await rig(t);
  const julia = await startJulia(t, setup.local, { negotiation: 'auto', env: setup.env, args: ['--timeout', '10', ...setup.args] });
  const listed = await julia.ok('list_panes', { limit: 128 });
  assert.equal(listed.coverage, 'complete_observed_graph');
  const rows = listed.panes as Array<{ target: { paneId: string; generation: string }; contexts: Array<{ sessionName: string }> }>;
  assert.deepEqual(
    rows.map((row) => [row.target.paneId, row.contexts[0]!.sessionName]),
    [['%0', 'here'], ...NAMES.map((_, i) => ['%0', `s${i + 1}`])],
  );
  assert.doesNotMatch(rows[0]!.target.generation, /^h\d:/, "the local pane's generation names no host");
  NAMES.forEach((name, i) =>
    assert.ok(rows[i + 1]!.target.generation.startsWith(`${name}:`), `row ${i + 1} is host ${name}'s: ${rows[i + 1]!.target.generation}`),
  );
  // A window of h2 linked into a second session, with a second pane: each pane once, with both its places.
  const h2 = setup.hosts[1]!;
  await h2.tmux('new-session', '-d', '-s', 'extra');
  await h2.tmux('link-window', '-s', 's2:0', '-t', 'extra:5');
  const split = (await h2.tmux('split-window', '-d', '-P', '-F', '#{pane_id}', '-t', 's2:0')).trim();
  type Row = {
    target: { paneId: string; generation: string };
    contexts: Array<{ sessionName: string; windowIndex: number; windowId: string }>;
  };
  const onH2 = async () =>
    ((await julia.ok('list_panes', { limit: 128 })).panes as Row[])
      .filter((row) => row.target.generation.startsWith('h2:'))
      .map((row) => [row.target.paneId, row.contexts.map((c) => `${c.sessionName}:${c.windowIndex}:${c.windowId}`)]);
  // tmux lists sessions by name: extra (its own window, then s2's linked at 5) before s2.
  const expected = [
    ['%1', ['extra:0:@1']],
    ['%0', ['extra:5:@0', 's2:0:@0']],
    [split, ['extra:5:@0', 's2:0:@0']],
  ];
  // Made by another tmux client, not through this server: in the very next listing.
  assert.deepEqual(await onH2(), expected);
  await julia.mcp.close();
  await nothingLeft(setup);
});

type PaneRow = { target: { paneId: string; generation: string }; title: string };

test('eight hosts: list_panes (julia) shows at once what follows a call of this server, and a title set by anyone else', async (t) => {
  const setup = await rig(t);
  const julia = await startJulia(t, setup.local, {
    negotiation: 'auto',
    env: setup.env,
    args: ['--tool', 'list_panes', '--tool', 'send_keys', '--tool', 'wait_for_text', '--timeout', '10', ...setup.args],
  });
  const onH3 = async () =>
    ((await julia.ok('list_panes', { limit: 128 })).panes as PaneRow[]).find((row) => row.target.generation.startsWith('h3:'))!;
  const { target } = await onH3();
  for (let round = 0; round < 3; round++) {
    // Listed just before the keys go out: the next listing must not answer as this one did.
    assert.deepEqual(await onH3(), await onH3(), 'two listings in a row agree');
    const title = `mine-${round}`;
    await julia.ok('send_keys', { target, keys: [`printf '\\033]2;${title}\\033\\\\'; echo set-$((${round} + 100))`, 'Enter'] });
    await julia.ok('wait_for_text', { target, text: `set-${round + 100}` });
    assert.equal((await onH3()).title, title, `the title set by the command typed in round ${round}, in the next listing with no waiting`);
  }
  // Typed by a client of h3's own (tmux tells no one of a title): listed as soon as h3's tmux has it.
  await setup.hosts[2]!.tmux('send-keys', '-t', 's3', "printf '\\033]2;theirs\\033\\\\'", 'Enter');
  await until(
    "h3's tmux to have the title",
    async () => (await setup.hosts[2]!.tmux('display-message', '-p', '-t', 's3', '#{pane_title}')).trim() === 'theirs',
  );
  assert.equal((await onH3()).title, 'theirs');
  await julia.mcp.close();
  await nothingLeft(setup);
});

test('eight hosts: a hung host (its sshd and sessions stopped) is named in the listing, which still lists the other seven and this machine', async (t) => {
  const setup = await rig(t);
  const mcp = await startMcp(t, { env: { ...setup.local.env, ...setup.env }, args: setup.args });
  assert.equal(((await mcp.ok('list_sessions')).sessions as unknown[]).length, 9);
  setup.sshd8.pause(); // connections stay up, nothing answers
  t.after(() => setup.sshd8.unpause());
  await hungHostNamed(mcp, /did not answer within 6000 ms|sent nothing/);
  setup.sshd8.unpause();
  // A call naming the host reconnects at once (a listing would leave it out a while longer), and the
  // new connection ends the far tmux client the timed-out one left behind.
  assert.deepEqual(
    ((await mcp.ok('list_windows', { session: 'h8:s8' })).windows as Array<{ id: string }>).map((w) => w.id),
    ['h8:@0'],
  );
  await mcp.close();
  await nothingLeft(setup);
});

/**
 * Lists while h8 hangs: the first listing waits out h8's command timeout and names it, and the next
 * names it at once (a listing asks a host that did not answer only again after a while). Each call is
 * bounded: one that waited on the hung host more than once, or forever, fails here.
 */
async function hungHostNamed(mcp: Awaited<ReturnType<typeof startMcp>>, reason: RegExp): Promise<void> {
  const named = async () => {
    const listed = await mcp.call('list_sessions', {}, { timeout: 15_000 });
    assert.ok(!listed.isError, JSON.stringify(listed.content));
    const text = listed.content.map((c) => c.text).join('\n');
    if (!/Not listed/.test(text)) return false;
    const ids = (listed.structuredContent!.sessions as Array<{ id: string }>).map((s) => s.id);
    assert.deepEqual(
      ids,
      EXPECTED_SESSIONS.map((s) => s.id).filter((id) => !id.startsWith('h8:')),
    );
    assert.match(text, /Not listed \(host could not answer\): h8: /);
    assert.match(text, reason);
    return true;
  };
  assert.ok(await named(), 'the first listing after h8 hung names it');
  assert.ok(await named(), 'the next listing names h8 too, without asking it again');
}

test('eight hosts: a host whose tmux is stopped costs a listing its timeout once, is named meanwhile, and is listed again once it runs', async (t) => {
  const setup = await rig(t);
  const mcp = await startMcp(t, { env: { ...setup.local.env, ...setup.env }, args: setup.args });
  assert.equal(((await mcp.ok('list_sessions')).sessions as unknown[]).length, 9);
  const pid = Number((await setup.hosts[7]!.tmux('display-message', '-p', '#{pid}')).trim());
  process.kill(pid, 'SIGSTOP');
  t.after(() => void process.kill(pid, 'SIGCONT'));
  await hungHostNamed(mcp, /did not answer within 6000 ms|sent nothing/);
  process.kill(pid, 'SIGCONT');
  // Left out for a while after its timeout, then asked again: listed as before.
  await until(
    'h8 listed again',
    async () => ((await mcp.ok('list_sessions')).sessions as Array<{ id: string }>).some((s) => s.id === 'h8:$0'),
    30_000,
  );
  assert.deepEqual(
    ((await mcp.ok('list_sessions')).sessions as Array<{ id: string }>).map((s) => s.id),
    EXPECTED_SESSIONS.map((s) => s.id),
  );
  await mcp.close();
  await nothingLeft(setup);
});
