/**
 * Scope (--allow-session) in every profile, against real tmux through the SDK client: listings,
 * searches, batches, resources and completions show nothing outside; every target outside is
 * refused with an error naming the rule, and nothing reaches it; sessions are created only with a
 * name in scope; server-wide tools are refused; moves cannot carry anything across the border.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { privateTmux, type PrivateTmux } from '../../fixture/tmux.js';
import { startMcp } from '../../fixture/mcp.js';
import { startPython } from '../../fixture/python.js';
import { startJulia } from '../../fixture/julia.js';
import { hostArgs, hostServers, nothingLeft } from '../../fixture/hosts.js';
import { until } from '../../fixture/until.js';

const RULE = /outside this server's scope: this server is limited to --allow-session agent-\*/;

/** Sessions agent-1 and agent-2 (in scope) and private (outside), a word on private's screen. */
async function rig(t: Parameters<typeof privateTmux>[0]) {
  const tmux = privateTmux(t);
  const a1 = await tmux.start({ session: 'agent-1' });
  const a2 = await tmux.newSession('agent-2');
  const secret = await tmux.newSession('private');
  await tmux.tmux('send-keys', '-t', secret, '-l', 'echo SECRET-WORD');
  await tmux.tmux('send-keys', '-t', secret, 'Enter');
  const window = async (pane: string) => (await tmux.tmux('display-message', '-p', '-t', pane, '#{window_id}')).trim();
  return { tmux, a1, a2, secret, secretWindow: await window(secret), a1Window: await window(a1) };
}

async function sessionsOf(tmux: PrivateTmux): Promise<string[]> {
  return (await tmux.tmux('list-sessions', '-F', '#{session_name}')).trim().split('\n').sort();
}

test('libtmux: --allow-session agent-* shows and touches only agent sessions', async (t) => {
  const { tmux, a1, a2, secret, secretWindow, a1Window } = await rig(t);
  await tmux.tmux('new-window', '-d', '-t', 'agent-1:');
  // The server runs inside a1: the caller guard is a case of the same rule, inside the scope too.
  const pid = (await tmux.tmux('display-message', '-p', '#{pid}')).trim();
  const caller = { TMUX: `${tmux.socketPath},${pid},0`, TMUX_PANE: a1 };
  const mcp = await startMcp(t, {
    env: { ...tmux.env, LIBTMUX_TOOLSETS: 'inspect,manage,execute,teardown', ...caller },
    args: ['--allow-session', 'agent-*'],
  });
  assert.match(mcp.stderr(), /sessions agent-\* only/, 'the banner says so');
  const report = JSON.parse(((await mcp.client.readResource({ uri: 'tmux://capabilities' })).contents[0] as { text: string }).text);
  assert.deepEqual(report.oversight, { readOnly: false, allowedSessions: ['agent-*'] }, 'and tmux://capabilities');

  assert.deepEqual(
    (await mcp.ok('list_sessions')).sessions.map((s: { name: string }) => s.name),
    ['agent-1', 'agent-2'],
  );
  const panes = (await mcp.ok('list_panes')).panes.map((p: { id: string }) => p.id);
  assert.ok(panes.includes(a1) && panes.includes(a2) && !panes.includes(secret), `panes: ${panes}`);
  const windows = (await mcp.ok('list_windows')).windows.map((w: { id: string }) => w.id);
  assert.ok(!windows.includes(secretWindow));
  assert.match(await mcp.fails('list_panes', { session: 'private' }), RULE);
  const found = await mcp.ok('search_panes', { pattern: 'SECRET-WORD' });
  assert.equal(JSON.stringify(found).includes(secret), false, 'search does not look outside');

  // Targets outside: refused, naming the rule; nothing typed, killed, moved or resized there.
  assert.match(await mcp.fails('capture_pane', { paneId: secret }), RULE);
  assert.match(await mcp.fails('send_keys', { paneId: secret, keys: ['echo TYPED'], literal: true }), RULE);
  assert.match(
    await mcp.fails('kill_session', { session: 'private' }),
    /session "private" is outside this server's scope.*--allow-session agent-\*/,
  );
  assert.match(
    await mcp.fails('list_panes', { session: 'nothing-here' }),
    /session "nothing-here" is outside this server's scope/,
    'the same answer whether it exists or not',
  );
  assert.match(await mcp.fails('kill_window', { windowId: secretWindow }), RULE);
  assert.match(await mcp.fails('kill_pane', { paneId: secret }), RULE);
  assert.match(await mcp.fails('resize_pane', { paneId: secret, width: 20 }), RULE);
  assert.match(await mcp.fails('swap_pane', { paneId: a1, otherPaneId: secret }), RULE);
  assert.match(await mcp.fails('move_window', { windowId: a1Window, session: 'private' }), RULE);
  assert.match(await mcp.fails('move_window', { windowId: secretWindow, session: 'agent-2' }), RULE);
  assert.doesNotMatch(await tmux.tmux('capture-pane', '-p', '-t', secret), /TYPED/);

  // The caller's pane and window stay where they are, even between sessions in scope.
  assert.match(await mcp.fails('swap_pane', { paneId: a1, otherPaneId: a2 }), /refusing to swap-pane: .* the pane this MCP server runs in/);
  assert.match(await mcp.fails('move_window', { windowId: a1Window, session: 'agent-2' }), /refusing to move-window/);
  assert.equal((await tmux.tmux('display-message', '-p', '-t', a1, '#{session_name}')).trim(), 'agent-1');

  // Sessions: created and renamed only into the scope.
  assert.match(
    await mcp.fails('create_session', { name: 'mine' }),
    /session "mine" would be outside the allowed sessions.*--allow-session agent-\*/,
  );
  await mcp.ok('create_session', { name: 'agent-3' });
  assert.match(await mcp.fails('rename_session', { session: 'agent-3', name: 'free' }), /outside the allowed sessions/);

  // Server-wide tools reach outside.
  assert.match(
    await mcp.fails('get_tmux_variables', { names: ['session_name'] }),
    /display-message without -t would act on whatever tmux calls current/,
  );
  assert.match(await mcp.fails('set_history_limit', { lines: 5000 }), /set-option -g changes every session/);

  // A read batch sees the same world.
  const batch = await mcp.ok('call_read_tools_batch', {
    onError: 'continue',
    operations: [{ tool: 'list_sessions' }, { tool: 'capture_pane', arguments: { paneId: secret } }],
  });
  assert.equal(JSON.stringify(batch).includes('private'), false);
  assert.match(JSON.stringify(batch), /outside this server's scope/);

  assert.deepEqual(await sessionsOf(tmux), ['agent-1', 'agent-2', 'agent-3', 'private'], 'private is untouched');
  assert.match(await tmux.tmux('capture-pane', '-p', '-t', secret), /SECRET-WORD/);
});

test('python: --allow-session agent-* in listings, resources, completions, targets, list_servers and kill_server', async (t) => {
  const { tmux, a1, secret, secretWindow } = await rig(t);
  const mcp = await startPython(t, tmux.env, { TMUX_MCP_ALLOW_SESSIONS: 'agent-*' });

  assert.deepEqual(
    (await mcp.ok('list_sessions')).result.map((s: { session_name: string }) => s.session_name),
    ['agent-1', 'agent-2'],
  );
  assert.ok(!(await mcp.ok('list_panes')).result.some((p: { pane_id: string }) => p.pane_id === secret));
  assert.equal(JSON.stringify(await mcp.ok('search_panes', { pattern: 'SECRET-WORD' })).includes(secret), false);
  assert.match(await mcp.fails('capture_pane', { pane_id: secret }), RULE);
  assert.match(await mcp.fails('send_keys', { pane_id: secret, keys: 'echo TYPED' }), RULE);
  assert.match(await mcp.fails('kill_window', { window_id: secretWindow }), RULE);
  assert.match(await mcp.fails('kill_session', { session_name: 'private' }), RULE);
  assert.match(await mcp.fails('swap_pane', { source_pane_id: a1, target_pane_id: secret }), RULE);
  assert.match(await mcp.fails('create_session', { session_name: 'mine' }), /would be outside the allowed sessions/);
  await mcp.ok('create_session', { session_name: 'agent-9' });
  assert.match(await mcp.fails('list_servers'), /list_servers looks at every tmux server.*--allow-session agent-\*/);
  assert.match(await mcp.fails('kill_server'), /kill-server reaches beyond/);
  assert.match(await mcp.fails('set_option', { option: 'status', value: 'off', global_: true }), /changes every session/);

  const batch = JSON.stringify(
    await mcp.ok('call_read_tools_batch', {
      operations: [{ tool: 'list_sessions' }, { tool: 'capture_pane', arguments: { pane_id: secret } }],
    }),
  );
  assert.equal(batch.includes('"private"'), false);
  assert.match(batch, /outside this server's scope/);

  const { contents } = await mcp.client.readResource({ uri: 'tmux://sessions' });
  assert.equal(JSON.stringify(contents).includes('private'), false, 'resources list only what is in scope');
  await assert.rejects(mcp.client.readResource({ uri: 'tmux://sessions/private' }));
  const named = await mcp.client.complete({
    ref: { type: 'ref/resource', uri: 'tmux://sessions/{session_name}{?socket_name}' },
    argument: { name: 'session_name', value: '' },
  });
  assert.deepEqual(named.completion.values.sort(), ['agent-1', 'agent-2', 'agent-9']);
  const panes = await mcp.client.complete({
    ref: { type: 'ref/resource', uri: 'tmux://panes/{pane_id}{?socket_name}' },
    argument: { name: 'pane_id', value: '%' },
  });
  assert.ok(!panes.completion.values.includes(secret));
  const sockets = await mcp.client.complete({
    ref: { type: 'ref/resource', uri: 'tmux://sessions{?socket_name}' },
    argument: { name: 'socket_name', value: '' },
  });
  assert.deepEqual(sockets.completion.values, [], 'other sockets are outside');

  assert.deepEqual(await sessionsOf(tmux), ['agent-1', 'agent-2', 'agent-9', 'private']);
  assert.doesNotMatch(await tmux.tmux('capture-pane', '-p', '-t', secret), /TYPED/);
});

test('julia: --allow-session agent-* narrows list_panes, refuses targets outside as target_denied, and create_session names', async (t) => {
  const { tmux, a1, secret } = await rig(t);
  const julia = await startJulia(t, tmux, {
    negotiation: 'auto',
    args: [
      '--tool',
      'list_panes',
      '--tool',
      'capture_pane',
      '--tool',
      'send_keys',
      '--tool',
      'create_session',
      '--tool',
      'run_operations',
      '--allow-create',
      '--allow-session',
      'agent-*',
    ],
  });
  const { panes } = await julia.ok('list_panes', { limit: 128 });
  const ids = panes.map((p: { target: { paneId: string } }) => p.target.paneId);
  assert.ok(ids.includes(a1) && !ids.includes(secret), `listed: ${ids}`);
  const generation = panes[0].target.generation;
  const denied = await julia.error('capture_pane', { target: { paneId: secret, generation } });
  assert.equal(denied.code, 'target_denied');
  assert.match(denied.message, /outside this server's scope/);
  const typed = await julia.error('send_keys', { target: { paneId: secret, generation }, keys: ['echo TYPED'], literal: true });
  assert.equal(typed.code, 'target_denied');
  assert.equal(typed.effects, 'none', 'nothing was sent');
  const inBatch = await julia.payload('run_operations', {
    operations: [{ tool: 'capture_pane', arguments: { target: { paneId: secret, generation } } }],
  });
  assert.equal((inBatch.error as { code: string }).code, 'target_denied', 'a batch meets the same rule');
  const create = await julia.error('create_session', { name: 'mine', command: ['sh'] });
  assert.equal(create.code, 'target_denied');
  await julia.ok('create_session', { name: 'agent-5', command: ['sh'] });
  assert.doesNotMatch(await tmux.tmux('capture-pane', '-p', '-t', secret), /TYPED/);
  assert.ok((await sessionsOf(tmux)).includes('private'));
});

test('hosts: a pattern with a host prefix applies on that host; listings and targets follow it', async (t) => {
  const servers = await hostServers(t);
  const mcp = await startMcp(t, {
    env: {
      ...servers.local.env,
      LIBTMUX_TOOLSETS: 'inspect,manage,execute,teardown',
      TMUX_MCP_SSH_CONFIG: servers.sshd.config,
      LIBTMUX_MCP_COMMAND_TIMEOUT_SECONDS: '10',
    },
    args: [...hostArgs(servers), '--allow-session', 'local:here,a:alpha'],
  });
  const { sessions } = await mcp.ok('list_sessions');
  assert.deepEqual(
    sessions.map((s: { id: string; name: string }) => [s.id, s.name]),
    [
      ['$0', 'here'],
      ['a:$0', 'alpha'],
    ],
    'beta on host b is outside',
  );
  const { panes } = await mcp.ok('list_panes');
  assert.deepEqual(
    panes.map((p: { id: string }) => p.id),
    ['%0', 'a:%0'],
  );
  assert.match(await mcp.fails('capture_pane', { paneId: 'b:%0' }), /outside this server's scope.*--allow-session local:here,a:alpha/);
  assert.match(await mcp.fails('send_keys', { paneId: 'b:%0', keys: ['echo no'], literal: true }), /outside this server's scope/);
  assert.match(await mcp.fails('create_session', { name: 'b:alpha' }), /outside the allowed sessions/);
  await mcp.ok('capture_pane', { paneId: 'a:%0' });
  await mcp.close();
  await nothingLeft(servers);
});

test('recordings under a scope: a pane outside is never recorded, even when a call names it', async (t) => {
  const { tmux, a1, secret } = await rig(t);
  const dir = mkdtempSync(join(tmpdir(), 'tmux-mcp-scope-rec-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const mcp = await startMcp(t, { env: tmux.env, args: ['--allow-session', 'agent-*', '--record', dir] });
  assert.match(await mcp.fails('capture_pane', { paneId: secret }), RULE);
  await mcp.ok('capture_pane', { paneId: a1 });
  const casts = () => readdirSync(dir).filter((name) => name.endsWith('.cast'));
  await until('the pane in scope to be recorded', () => casts().length > 0);
  const pid = mcp.pid();
  await mcp.close();
  if (pid !== null) {
    await until('the server to exit', () => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    });
  }
  const files = casts();
  assert.equal(files.length, 1, `recorded: ${files}`);
  assert.match(files[0]!, /^agent-1-/, 'only the pane in scope');
});
