/** The python profile's resource templates and prompts, read and rendered through the SDK client. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { privateTmux, scrubbedEnv, socketTmpdir } from '../../fixture/tmux.js';
import { ALL_TOOLSETS, startPython } from '../../fixture/python.js';
import { startRaw } from '../../fixture/raw-stdio.js';

const read = async (mcp: Awaited<ReturnType<typeof startPython>>, uri: string) => {
  const { contents } = await mcp.client.readResource({ uri });
  assert.equal(contents.length, 1);
  return contents[0] as { uri: string; mimeType: string; text: string };
};

test('python: every resource template reads, on the configured server or ?socket_name=', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ session: 'alpha' });
  await tmux.typeAndWait(pane, 'echo resource-text');
  const mcp = await startPython(t, tmux.env);

  const sessions = await read(mcp, 'tmux://sessions');
  assert.equal(sessions.mimeType, 'application/json');
  assert.deepEqual(
    JSON.parse(sessions.text).map((s: any) => s.session_name),
    ['alpha'],
  );

  const session = JSON.parse((await read(mcp, 'tmux://sessions/alpha')).text);
  assert.equal(session.session_name, 'alpha');
  assert.equal(session.windows.length, 1);
  const windows = JSON.parse((await read(mcp, 'tmux://sessions/alpha/windows')).text);
  assert.equal(windows[0].window_index, '0');
  const window = JSON.parse((await read(mcp, 'tmux://sessions/alpha/windows/0')).text);
  assert.deepEqual(
    window.panes.map((p: any) => p.pane_id),
    [pane],
  );
  const encoded = encodeURIComponent(pane);
  assert.equal(JSON.parse((await read(mcp, `tmux://panes/${encoded}`)).text).pane_id, pane);
  const content = await read(mcp, `tmux://panes/${encoded}/content`);
  assert.equal(content.mimeType, 'text/plain');
  assert.ok(content.text.split('\n').includes('resource-text'), content.text);

  // Template variables complete from the configured server.
  const completed = await mcp.client.complete({
    ref: { type: 'ref/resource', uri: 'tmux://panes/{pane_id}{?socket_name}' },
    argument: { name: 'pane_id', value: '%' },
  });
  assert.ok(completed.completion.values.includes(pane), JSON.stringify(completed));
  const named = await mcp.client.complete({
    ref: { type: 'ref/prompt', name: 'build_dev_workspace' },
    argument: { name: 'session_name', value: 'al' },
  });
  assert.deepEqual(named.completion.values, ['alpha']);

  await assert.rejects(read(mcp, 'tmux://sessions/nope'), (error: any) => /Session not found/.test(error.message));
  await assert.rejects(read(mcp, 'tmux://panes/%25999'), (error: any) => /%999/.test(error.message));
  await assert.rejects(read(mcp, 'tmux://sessions?socket_name=..%2Fx'), (error: any) => /not a socket name/.test(error.message));
});

test('python: resource templates follow ?socket_name= to another server', async (t) => {
  const dir = socketTmpdir(t);
  await dir.server('one').start({ session: 'on-one' });
  await dir.server('two').start({ session: 'on-two' });
  const mcp = await startPython(t, scrubbedEnv({ TMUX_TMPDIR: dir.tmpdir, LIBTMUX_SOCKET: 'one' }));
  assert.deepEqual(
    JSON.parse((await read(mcp, 'tmux://sessions')).text).map((s: any) => s.session_name),
    ['on-one'],
  );
  assert.deepEqual(
    JSON.parse((await read(mcp, 'tmux://sessions?socket_name=two')).text).map((s: any) => s.session_name),
    ['on-two'],
  );
});

test('python: the four prompts render instructions that use the tools, with their arguments', async (t) => {
  const tmux = privateTmux(t);
  const mcp = await startPython(t, tmux.env);
  const render = async (name: string, args: Record<string, string>) => {
    const result = await mcp.client.getPrompt({ name, arguments: args });
    assert.equal(result.messages.length, 1);
    assert.equal(result.messages[0]!.role, 'user');
    return (result.messages[0]!.content as { text: string }).text;
  };
  const run = await render('run_and_wait', { command: 'make test', pane_id: '%4', timeout: '90' });
  assert.match(run, /run_command\(pane_id="%4", command="make test", timeout=90, max_lines=100\)/);
  assert.match(await render('run_and_wait', { command: 'a\nb', pane_id: '%4' }), /timeout=60, max_lines=100, suppress_history=false/);
  const workspace = await render('build_dev_workspace', { session_name: 'dev' });
  assert.match(workspace, /create_session\(session_name="dev"\)/);
  assert.match(workspace, /watch -n 1 date/);
  assert.match(await render('build_dev_workspace', { session_name: 'dev', log_command: 'tail -f app.log' }), /tail -f app\.log/);
  assert.match(await render('diagnose_failing_pane', { pane_id: '%2' }), /snapshot_pane\(pane_id="%2"\)/);
  const interrupt = await render('interrupt_gracefully', { pane_id: '%2' });
  assert.match(interrupt, /send_keys\(pane_id="%2", keys="C-c", enter=false\)/);
  assert.match(interrupt, /Do not put "\^C" in stop/);
  await assert.rejects(mcp.client.getPrompt({ name: 'run_and_wait', arguments: { command: 'x' } }), /pane_id/);
  await assert.rejects(mcp.client.getPrompt({ name: 'nope', arguments: {} }), /unknown prompt "nope"/);
});

test('python: a missing resource answers -32002 in 2025-11-25 and -32602 {uri} in 2026-07-28; a malformed URI answers -32602 without uri', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start({ session: 'alpha' });
  const env = { ...tmux.env, LIBTMUX_TOOLSETS: ALL_TOOLSETS, SHELL: '/bin/sh' };
  const missing = [
    ['tmux://panes/%25999/content', /no pane %999/],
    ['tmux://panes/%25999', /no pane %999/],
    ['tmux://sessions/nope', /Session not found: "nope"/],
    ['tmux://sessions/alpha/windows/7', /Window not found: index 7/],
    ['tmux://nothing-here', /no resource at tmux:\/\/nothing-here/],
  ] as const;
  const malformed = [
    ['tmux://panes/abc/content', /pane_id must be an id like %3/],
    ['tmux://sessions?socket_name=..%2Fx', /not a socket name/],
  ] as const;

  const legacy = startRaw(t, env, ['--profile', 'python']);
  await legacy.initialize();
  let id = 10;
  for (const [uri, message] of missing) {
    legacy.send({ jsonrpc: '2.0', id: ++id, method: 'resources/read', params: { uri } });
    const { error } = await legacy.answer(id);
    assert.equal(error.code, -32002, uri);
    assert.match(error.message, message);
    assert.deepEqual(error.data, { uri });
  }
  for (const [uri, message] of malformed) {
    legacy.send({ jsonrpc: '2.0', id: ++id, method: 'resources/read', params: { uri } });
    const { error } = await legacy.answer(id);
    assert.equal(error.code, -32602, uri);
    assert.match(error.message, message);
    assert.equal(error.data, undefined, 'no {uri}: not a not-found');
  }

  // 2026-07-28: every request names its revision in _meta; a missing resource is -32602 with data {uri} (SEP-2164).
  const modern = startRaw(t, env, ['--profile', 'python']);
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
  };
  modern.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } });
  assert.ok((await modern.answer(1)).result, 'server/discover answered');
  for (const [uri, message] of missing) {
    modern.send({ jsonrpc: '2.0', id: ++id, method: 'resources/read', params: { uri, _meta: meta } });
    const { error } = await modern.answer(id);
    assert.equal(error.code, -32602, uri);
    assert.match(error.message, message);
    assert.deepEqual(error.data, { uri });
  }
});
