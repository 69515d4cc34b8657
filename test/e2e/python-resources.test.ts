/** The python profile's resource templates and prompts, read and rendered through the SDK client. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { privateTmux, scrubbedEnv, socketTmpdir } from '../fixture/tmux.js';
import { startPython } from '../fixture/python.js';

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
  assert.deepEqual(JSON.parse(sessions.text).map((s: any) => s.session_name), ['alpha']);

  const session = JSON.parse((await read(mcp, 'tmux://sessions/alpha')).text);
  assert.equal(session.session_name, 'alpha');
  assert.equal(session.windows.length, 1);
  const windows = JSON.parse((await read(mcp, 'tmux://sessions/alpha/windows')).text);
  assert.equal(windows[0].window_index, '0');
  const window = JSON.parse((await read(mcp, 'tmux://sessions/alpha/windows/0')).text);
  assert.deepEqual(window.panes.map((p: any) => p.pane_id), [pane]);
  const encoded = encodeURIComponent(pane);
  assert.equal(JSON.parse((await read(mcp, `tmux://panes/${encoded}`)).text).pane_id, pane);
  const content = await read(mcp, `tmux://panes/${encoded}/content`);
  assert.equal(content.mimeType, 'text/plain');
  assert.ok(content.text.split('\n').includes('resource-text'), content.text);

  await assert.rejects(read(mcp, 'tmux://sessions/nope'), (error: any) => /Session not found/.test(error.message));
  await assert.rejects(read(mcp, 'tmux://panes/%25999'), (error: any) => /%999/.test(error.message));
  await assert.rejects(read(mcp, 'tmux://sessions?socket_name=..%2Fx'), (error: any) => /not a socket name/.test(error.message));
});

test('python: resource templates follow ?socket_name= to another server', async (t) => {
  const dir = socketTmpdir(t);
  await dir.server('one').start({ session: 'on-one' });
  await dir.server('two').start({ session: 'on-two' });
  const mcp = await startPython(t, scrubbedEnv({ TMUX_TMPDIR: dir.tmpdir, LIBTMUX_SOCKET: 'one' }));
  assert.deepEqual(JSON.parse((await read(mcp, 'tmux://sessions')).text).map((s: any) => s.session_name), ['on-one']);
  assert.deepEqual(JSON.parse((await read(mcp, 'tmux://sessions?socket_name=two')).text).map((s: any) => s.session_name), ['on-two']);
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
  await assert.rejects(mcp.client.getPrompt({ name: 'nope', arguments: {} }), /unknown prompt/);
});
