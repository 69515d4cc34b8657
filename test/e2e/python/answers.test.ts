/**
 * Answers of the python profile that must not mislead, against real tmux through the SDK client:
 * wait_for_text's description states the rule it follows, create_session right after the last
 * session was killed starts afresh, resource URIs with two-digit pane ids read that pane, and a
 * tool whose toolset is off says how to turn it on.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UriTemplate } from '@modelcontextprotocol/client';
import { channel, startPython } from '../../fixture/python.js';
import { startMcp } from '../../fixture/mcp.js';
import { privateTmux } from '../../fixture/tmux.js';

test('python wait_for_text says what counts as new, and does it: output since the last send_keys, even before the call', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const mcp = await startPython(t, tmux.env);
  const { tools } = await mcp.client.listTools();
  const description = tools.find((tool) => tool.name === 'wait_for_text')!.description!;
  assert.doesNotMatch(description, /only output that arrives after the call starts counts/i);
  assert.match(description, /since this server last sent it input \(send_keys/);
  assert.match(description, /or since the last wait on it stopped, whichever came later, even output that came before this call/);

  // As described: the answer is printed before the wait is called, and it still matches.
  const done = channel(tmux);
  await mcp.text('send_keys', { pane_id: pane, keys: `echo DO""NE-$((6*7))${done.suffix}` });
  await done.done();
  const found = await mcp.ok('wait_for_text', { pane_id: pane, patterns: ['DONE-42'], timeout: 5 });
  assert.deepEqual([found.outcome, found.found, found.matched_at_entry], ['matched', true, false]);
  // And a second wait does not find it again (it only counts as seen on screen).
  const again = await mcp.ok('wait_for_text', { pane_id: pane, patterns: ['DONE-42'], timeout: 0.5 });
  assert.deepEqual([again.outcome, again.found, again.matched_at_entry], ['timeout', false, true]);
});

test('python create_session right after killing the last session starts afresh, 200 times over', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start({ session: 'round-0' });
  const mcp = await startPython(t, tmux.env);
  for (let round = 1; round <= 200; round++) {
    await mcp.text('kill_session', { session_name: `round-${round - 1}` });
    const made = await mcp.call('create_session', { session_name: `round-${round}` });
    assert.ok(!made.isError, `round ${round}: ${made.content.map((c) => c.text).join('\n')}`);
  }
  assert.equal((await tmux.tmux('list-sessions', '-F', '#{session_name}')).trim(), 'round-200');
});

test('python resource URIs with two-digit pane ids: %12 and %2512 both read pane %12, and completions round-trip', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start({ session: 'many' });
  let pane = '';
  for (let i = 0; i < 12; i++)
    pane = (await tmux.tmux('new-window', '-d', '-P', '-F', '#{pane_id}', '-t', 'many:', '-e', 'PS1=$ ', 'sh')).trim();
  assert.equal(pane, '%12');
  await tmux.tmux('send-keys', '-t', pane, 'clear; echo pane-$((6*2))', 'Enter');
  const mcp = await startPython(t, tmux.env);
  const read = async (uri: string) => {
    const { contents } = await mcp.client.readResource({ uri });
    assert.equal(contents.length, 1);
    return (contents[0] as { text: string }).text;
  };
  await mcp.ok('wait_for_text', { pane_id: pane, patterns: ['^pane-12$'], regex: true, timeout: 5 });

  for (const uri of ['tmux://panes/%12/content', 'tmux://panes/%2512/content']) assert.match(await read(uri), /^pane-12$/m, uri);
  for (const uri of ['tmux://panes/%12', 'tmux://panes/%2512']) assert.equal(JSON.parse(await read(uri)).pane_id, '%12', uri);

  // Every pane id completion hands out reads that pane, expanded as RFC 6570 says (%2510) or as written (%10).
  for (const uriTemplate of ['tmux://panes/{pane_id}{?socket_name}', 'tmux://panes/{pane_id}/content{?socket_name}']) {
    const { completion } = await mcp.client.complete({
      ref: { type: 'ref/resource', uri: uriTemplate },
      argument: { name: 'pane_id', value: '%1' },
    });
    assert.deepEqual(completion.values, ['%1', '%10', '%11', '%12']);
    for (const id of completion.values) {
      const expanded = new UriTemplate(uriTemplate).expand({ pane_id: id });
      const literal = uriTemplate.replace('{pane_id}', id).replace('{?socket_name}', '');
      for (const uri of [expanded, literal]) {
        const text = await read(uri);
        if (uri.endsWith('/content')) assert.equal(text, await read(`tmux://panes/${encodeURIComponent(id)}/content`), uri);
        else assert.equal(JSON.parse(text).pane_id, id, uri);
      }
    }
  }
  // A pane that does not exist is still "not found", named by its id.
  await assert.rejects(read('tmux://panes/%99/content'), /%99/);
});

test('python teardown tools, off by default, answer an agent with the toolset that holds them and how to turn it on', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start({ session: 'kept' });
  // The default toolsets: inspect, manage, execute.
  const mcp = await startMcp(t, { env: { ...tmux.env, SHELL: '/bin/sh' }, args: ['--profile', 'python'] });
  const { tools } = await mcp.client.listTools();
  assert.ok(!tools.some((tool) => tool.name === 'kill_session'), 'kill_session is not listed');

  const refused = await mcp.call('kill_session', { session_name: 'kept' });
  assert.equal(refused.isError, true);
  assert.equal(refused.structuredContent, undefined);
  const text = refused.content.map((c) => c.text).join('\n');
  assert.match(text, /kill_session" is not enabled on this server: it is in the "teardown" toolset, which is off/);
  assert.match(text, /LIBTMUX_TOOLSETS=inspect,manage,execute,teardown/);
  assert.match(text, /LIBTMUX_TOOLS=kill_session/);
  assert.equal((await tmux.tmux('list-sessions', '-F', '#{session_name}')).trim(), 'kept', 'nothing was killed');

  // Excluded by name: says which variable to change.
  const narrowed = await startMcp(t, {
    env: { ...tmux.env, SHELL: '/bin/sh', LIBTMUX_EXCLUDE_TOOLS: 'capture_pane' },
    args: ['--profile', 'python'],
  });
  const excluded = await narrowed.call('capture_pane', {});
  assert.equal(excluded.isError, true);
  assert.match(
    excluded.content.map((c) => c.text).join('\n'),
    /excluded on this server by LIBTMUX_EXCLUDE_TOOLS[\s\S]*taking capture_pane out of LIBTMUX_EXCLUDE_TOOLS/,
  );

  // A name the profile does not have at all stays the protocol's "unknown tool".
  await assert.rejects(mcp.client.callTool({ name: 'no_such_tool', arguments: {} }), /unknown tool "no_such_tool"/);
});
