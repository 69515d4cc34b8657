/**
 * The scope against tmux's own languages: options that run or rewrite commands, formats
 * that loop over other sessions, and this server's own control clients. A person's session
 * `private` sits beside `agent-*` on one tmux server; every escape the issue reproduced is tried
 * through the SDK client, and `private` must come out unchanged, unnamed and never attached.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { privateTmux, type PrivateTmux } from '../../fixture/tmux.js';
import { startMcp } from '../../fixture/mcp.js';
import { startPython } from '../../fixture/python.js';
import { until } from '../../fixture/until.js';

const SCOPE = { TMUX_MCP_ALLOW_SESSIONS: 'agent-*' };
const OUTSIDE = /outside this server's scope|this server is limited to --allow-session agent-\*/;

/** agent-1 (in scope) and private (outside, made last and typed into, so tmux would pick it as current). */
async function rig(t: Parameters<typeof privateTmux>[0]) {
  const tmux = privateTmux(t);
  const a1 = await tmux.start({ session: 'agent-1' });
  const secret = await tmux.newSession('private');
  await tmux.tmux('send-keys', '-t', secret, '-l', 'echo SECRET-WORD');
  await tmux.tmux('send-keys', '-t', secret, 'Enter');
  await until('the secret on screen', async () => (await tmux.tmux('capture-pane', '-p', '-t', secret)).includes('SECRET-WORD\n'));
  const a1Window = (await tmux.tmux('display-message', '-p', '-t', a1, '#{window_id}')).trim();
  return { tmux, a1, secret, a1Window };
}

/** What a person's session holds that an escape could change: screen, options, hooks, environment, clients. */
async function stateOf(tmux: PrivateTmux, session: string) {
  const read = (...args: string[]) => tmux.tmux(...args).catch((error: Error) => `error: ${error.message}`);
  return {
    screen: await read('capture-pane', '-p', '-t', `${session}:`),
    options: await read('show-options', '-t', session),
    server: await read('show-options', '-s'),
    hooks: (await read('show-hooks', '-t', session)) + (await read('show-hooks', '-g')) + (await read('show-hooks', '-gw')),
    environment: await read('show-environment', '-t', session),
    attached: (await read('display-message', '-p', '-t', `${session}:`, '#{session_attached}')).trim(),
    clients: await read('list-clients', '-t', session),
  };
}

test('python set_option under a scope: hooks, command-alias, server options and reaching formats are refused', async (t) => {
  const { tmux, a1, secret, a1Window } = await rig(t);
  const before = await stateOf(tmux, 'private');
  const mcp = await startPython(t, tmux.env, SCOPE);
  const canary = join(tmux.dir, 'ran');

  // A hook on the agent's own session would run on its next send-keys, typing into private.
  const hook = await mcp.fails('set_option', {
    option: 'after-send-keys',
    value: `send-keys -t private: 'echo HOOKED' Enter`,
    scope: 'session',
    target: 'agent-1',
  });
  assert.match(hook, /hook after-send-keys.*does not set hooks/);
  // tmux takes any unique prefix of a name: the table is asked, not a list of names.
  assert.match(
    await mcp.fails('set_option', { option: 'after-send', value: 'kill-server', scope: 'session', target: 'agent-1' }),
    /hook after-send-keys/,
  );
  assert.match(await mcp.fails('set_option', { option: 'pane-died', value: 'kill-server', scope: 'pane', target: a1 }), /hook pane-died/);
  // command-alias and the other server options are one table for every session, whatever the target.
  assert.match(
    await mcp.fails('set_option', {
      option: 'command-alias[90]',
      value: 'list-sessions=send-keys -t private: X',
      scope: 'session',
      target: 'agent-1',
    }),
    /command-alias is a server option.*--allow-session agent-\*/,
  );
  assert.match(
    await mcp.fails('set_option', { option: 'exit-unattached', value: 'on', scope: 'session', target: 'agent-1' }),
    /exit-unattached is a server option/,
  );
  assert.match(
    await mcp.fails('set_option', { option: 'exit-un', value: 'on', scope: 'window', target: a1Window }),
    /exit-unattached is a server option/,
  );
  assert.match(
    await mcp.fails('set_option', { option: 'message-limit', value: '5', scope: 'pane', target: a1 }),
    /message-limit is a server option/,
  );
  // Formats: a re-expansion runs what a program put in a title; loops and clients reach other sessions.
  // select-pane -T expands its argument: ## leaves the title `#(touch ...)`, as a program could set it.
  await tmux.tmux('select-pane', '-t', a1, '-T', `##(touch ${canary})`);
  assert.equal((await tmux.tmux('display-message', '-p', '-t', a1, '#{pane_title}')).trim(), `#(touch ${canary})`);
  assert.match(
    await mcp.fails('set_option', { option: 'automatic-rename-format', value: '#{E:pane_title}', scope: 'window', target: a1Window }),
    /E: or T: modifier/,
  );
  assert.match(
    await mcp.fails('set_option', { option: 'automatic-rename-format', value: '#{T:pane_title}', scope: 'window', target: a1Window }),
    /E: or T: modifier/,
  );
  assert.match(
    await mcp.fails('set_option', { option: 'automatic-rename-format', value: '#{S:#{session_name},}', scope: 'window', target: a1Window }),
    /loop or search modifier/,
  );
  assert.match(
    await mcp.fails('set_option', { option: '@note', value: '#{client_session}', scope: 'session', target: 'agent-1' }),
    /client_\* variable/,
  );

  // What stays in scope still works: a session option on the agent's own session.
  assert.equal((await mcp.ok('set_option', { option: 'status', value: 'off', scope: 'session', target: 'agent-1' })).value, 'off');
  await mcp.ok('send_keys', { pane_id: a1, keys: 'echo typed-here' });
  await until('the agent pane to show its text', async () => (await tmux.tmux('capture-pane', '-p', '-t', a1)).includes('typed-here\n'));
  assert.equal(existsSync(canary), false, 'no shell job ran');
  assert.deepEqual(await stateOf(tmux, 'private'), before, 'private is unchanged');
  assert.doesNotMatch(await tmux.tmux('capture-pane', '-p', '-t', secret), /HOOKED|X/);
});

test('python set_option without a scope: hooks and re-expanding formats are refused, server options are set', async (t) => {
  const { tmux, a1Window } = await rig(t);
  const mcp = await startPython(t, tmux.env);
  assert.match(await mcp.fails('set_option', { option: 'after-new-window', value: 'kill-server' }), /hook after-new-window/);
  assert.match(
    await mcp.fails('set_option', { option: 'automatic-rename-format', value: '#{E:pane_title}', scope: 'window', target: a1Window }),
    /E: or T: modifier/,
  );
  assert.equal((await tmux.tmux('show-hooks', '-g', 'after-new-window')).trim(), 'after-new-window', 'no hook set');
  // The published contract sets server options: it still does without a scope.
  assert.equal((await mcp.ok('set_option', { option: 'message-limit', value: '50', scope: 'server' })).value, '50');
  assert.equal((await tmux.tmux('show-options', '-sv', 'message-limit')).trim(), '50');
  // A loop is only another session's business under a scope.
  await mcp.ok('set_option', { option: '@all', value: '#{S:#{session_name} }', scope: 'session', target: 'agent-1' });
});

for (const readOnly of [false, true]) {
  test(`formats under a scope${readOnly ? ' and --read-only' : ''}: loops, searches and client variables are refused`, async (t) => {
    const { tmux, a1 } = await rig(t);
    const extra = readOnly ? { ...SCOPE, TMUX_MCP_READ_ONLY: '1' } : SCOPE;
    const python = await startPython(t, tmux.env, extra);
    const attacks = [
      '#{S:#{session_name},}',
      '#{S:#{W:#{P:#{C:SECRET}}}}',
      '#{P:#{C/r:SECRET-\\w+}}',
      '#{W:#{window_name}}',
      '#{N/s:private}',
      '#{client_session}',
      '#{?client_session,yes,no}',
      '#{S;l:#{session_name}}',
    ];
    for (const format of attacks) {
      const text = await python.fails('display_message', { format_string: format, pane_id: a1 });
      assert.match(text, OUTSIDE, format);
      assert.doesNotMatch(text, /private|SECRET-WORD/);
    }
    assert.match(
      await python.text('display_message', { format_string: '#{session_name} #{s/a/A/:session_name}', pane_id: a1 }),
      /agent-1 Agent-1/,
    );

    const libtmux = await startMcp(t, { env: { ...tmux.env, ...extra }, args: [] });
    for (const name of ['client_session', 'client_last_session', 'client_name']) {
      const text = await libtmux.fails('get_tmux_variables', { names: [name], paneId: a1 });
      assert.match(text, OUTSIDE, name);
      assert.doesNotMatch(text, /private/);
    }
    assert.deepEqual((await libtmux.ok('get_tmux_variables', { names: ['session_name'], paneId: a1 })).values, { session_name: 'agent-1' });
  });
}

test("this server's control clients attach only inside the scope: private is never marked attached", async (t) => {
  const { tmux, a1 } = await rig(t);
  const mcp = await startMcp(t, { env: { ...tmux.env, ...SCOPE, LIBTMUX_TOOLSETS: 'inspect,manage,execute,teardown' } });
  await mcp.ok('list_sessions');
  await mcp.ok('capture_pane', { paneId: a1 });
  await mcp.ok('send_keys', { paneId: a1, keys: ['echo hi'], literal: true, enter: true });
  const attached = async () => (await tmux.tmux('list-sessions', '-F', '#{session_name}=#{session_attached}')).trim().split('\n').sort();
  const counts = await attached();
  assert.equal(counts[1], 'private=0', 'no client of this server on private');
  assert.match(counts[0]!, /^agent-1=[1-9]/, 'the command client sits on agent-1');
  const clients = await tmux.tmux('list-clients', '-F', '#{client_session}');
  assert.doesNotMatch(clients, /private/);
});

test('with no session in scope yet, nothing is attached; a session made in scope is attached to', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start({ session: 'private' });
  const mcp = await startMcp(t, { env: { ...tmux.env, ...SCOPE, LIBTMUX_TOOLSETS: 'inspect,manage,execute,teardown' } });
  assert.deepEqual((await mcp.ok('list_sessions')).sessions, []);
  assert.equal((await tmux.tmux('list-clients', '-F', '#{client_session}')).trim(), '', 'no client at all');
  await mcp.ok('create_session', { name: 'agent-new' });
  await mcp.ok('list_sessions');
  const sessions = (await tmux.tmux('list-sessions', '-F', '#{session_name}=#{session_attached}')).trim().split('\n').sort();
  assert.deepEqual(sessions, ['agent-new=1', 'private=0']);
});
