/**
 * --approve text:REGEX reads what tmux would receive, after the key-name and literal rules, so it
 * cannot be slipped past: not by key names (Space, C-m), not by splitting a word over keys, not by
 * editing the line with BSpace or the cursor keys, not by loading a paste buffer first, not by
 * hiding the text in a batch item (libtmux and python send_keys_batch, julia's run_operations),
 * not in a command run by run_shell_command or run_command. Each way is checked against real tmux
 * with a client that cannot be asked (so a match is refused at once, naming the rule) beside a
 * call of the same shape that does not match and runs. In a batch the matching item asks on its
 * own: the items before it have run, the ones after wait, as for any item that fails.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startMcp, type McpSession } from '../../fixture/mcp.js';
import { privateTmux } from '../../fixture/tmux.js';
import { until } from '../../fixture/until.js';
import { APPROVE, deny, elicitingClient, neverTyped } from '../../fixture/approvals.js';

const RULE = 'text:rm\\s+-rf\\b';
const REFUSED = /needs a person's approval \(--approve text:rm\\s\+-rf\\b\), and no one can be asked/;

/** The call is refused by the text rule (and types nothing, checked by the caller). */
async function refused(mcp: McpSession, tool: string, args: Record<string, unknown>): Promise<string> {
  const result = await mcp.call(tool, args);
  const text = result.content.map((block) => block.text ?? '').join('\n');
  assert.equal(result.isError, true, `${tool} ${JSON.stringify(args)} was not refused: ${text}`);
  assert.match(text, REFUSED);
  return text;
}

test('text rules (libtmux): key names, keys split in a call or over calls, line editing, paste and run_shell_command all read as what the pane receives', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const mcp = await startMcp(t, { env: tmux.env, args: ['--approve', RULE] });

  // Key names: Space pressed as a key, "-rf" typed between.
  await refused(mcp, 'send_keys', { paneId: pane, keys: ['echo', 'Space', 'rm', 'Space', '-rf', 'Space', 'keyname-1'] });
  // Split keys: "r" and "m" are keys tmux presses one by one (single characters), the rest typed.
  await refused(mcp, 'send_keys', { paneId: pane, keys: ['echo ', 'r', 'm', ' -', 'rf split-2'] });
  // The line edited: "rmx" then BSpace, and "m -rf" with the cursor sent Home to put an "r" first.
  await refused(mcp, 'send_keys', { paneId: pane, keys: ['echo rmx', 'BSpace', ' -rf edited-3'] });
  await refused(mcp, 'send_keys', { paneId: pane, keys: ['m -rf cursor-4', 'Home', 'r'] });
  // A newline as a key name ends the line the rule reads, as it ends the shell's.
  await refused(mcp, 'send_keys', { paneId: pane, keys: ['true', 'C-m', 'rm -rf enter-5'] });
  await refused(mcp, 'paste_text', { paneId: pane, text: 'echo ok\nrm  -rf paste-6\n' });
  await refused(mcp, 'run_shell_command', { paneId: pane, command: 'rm -rf run-7' });
  // A batch is not refused whole: its matching item fails in its row, before anything of it is typed.
  const batch = await mcp.ok('send_keys_batch', { operations: [{ paneId: pane, keys: ['echo rm -rf batch-8'], literal: true }] });
  assert.equal(batch.completed, 0);
  assert.match(batch.failures[0].reason, REFUSED);
  // Split over two calls: the first leaves "echo r" on the line, the second would finish the word.
  await mcp.ok('send_keys', { paneId: pane, keys: ['echo r'], literal: true });
  await refused(mcp, 'send_keys', { paneId: pane, keys: ['m -rf across-9'], literal: true, enter: true });
  await mcp.ok('send_keys', { paneId: pane, keys: ['C-u'] });
  for (const marker of ['keyname-1', 'split-2', 'edited-3', 'cursor-4', 'enter-5', 'paste-6', 'run-7', 'batch-8', 'across-9'])
    await neverTyped(tmux, pane, marker);

  // The same shapes that do not spell it run as they always did.
  await mcp.ok('send_keys', { paneId: pane, keys: ['echo', 'Space', 'rm', 'Space', '-r', 'Space', 'fine-1', 'Enter'] });
  await mcp.ok('send_keys', { paneId: pane, keys: ['echo rm -rfx-fine-2'], literal: true, enter: true });
  const run = await mcp.ok('run_shell_command', { paneId: pane, command: 'echo rm -r fine-3', timeoutMs: 30_000 });
  assert.deepEqual(run.output, ['rm -r fine-3']);
  await until('the plain calls ran', async () => /^rm -r fine-1$/m.test(await tmux.tmux('capture-pane', '-p', '-t', pane)));
});

test('text rules (python): a paste buffer loaded first is read when it is pasted; a word split over batch items or calls reads whole; send_keys, run_command, split_window', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const mcp = await startMcp(t, { env: tmux.env, args: ['--profile', 'python', '--approve', RULE] });
  // Loading is not typing: the buffer is stored. Pasting it is what the rule stops.
  const loaded = await mcp.call('load_buffer', { content: 'rm -rf buffer-1\n' });
  assert.equal(loaded.isError, undefined);
  const name = (loaded.structuredContent as { buffer_name: string }).buffer_name;
  await refused(mcp, 'paste_buffer', { buffer_name: name, pane_id: pane });
  const harmless = (await mcp.call('load_buffer', { content: 'echo buffer-fine\n' })).structuredContent as { buffer_name: string };
  assert.equal((await mcp.call('paste_buffer', { buffer_name: harmless.buffer_name, pane_id: pane })).isError, undefined);

  // python's send_keys presses Enter by default, and suppress_history adds a leading space: still read.
  await refused(mcp, 'send_keys', { pane_id: pane, keys: 'rm -rf python-2', suppress_history: true });
  await refused(mcp, 'run_command', { pane_id: pane, command: 'rm -rf run-3' });
  await refused(mcp, 'split_window', { pane_id: pane, shell: 'rm -rf split-4' });
  // Split over two items: "r" pressed as a key, left on the line, then "m -rf ...": the second reads as the line it makes.
  const batch = await mcp.call('send_keys_batch', {
    operations: [
      { pane_id: pane, keys: 'echo batch-fine' },
      { pane_id: pane, keys: 'r', enter: false },
      { pane_id: pane, keys: 'm -rf batch-5' },
    ],
  });
  const split = batch.structuredContent as { results: Array<{ success: boolean; error: string | null }>; stopped_at: number | null };
  assert.deepEqual([split.results.map((row) => row.success), split.stopped_at], [[true, true, false], 2]);
  assert.match(split.results[2]!.error!, REFUSED);
  // And over two calls: the line the first left is read before the second.
  await refused(mcp, 'send_keys', { pane_id: pane, keys: 'm -rf across-calls' });
  // Once the line is cleared (C-u, as at the keyboard), what follows reads alone again.
  await mcp.ok('send_keys', { pane_id: pane, keys: 'C-u', enter: false });
  await mcp.ok('send_keys', { pane_id: pane, keys: 'echo m -rf alone' });
  const single = await mcp.call('send_keys_batch', {
    operations: [
      { pane_id: pane, keys: 'echo batch-ok' },
      { pane_id: pane, keys: 'echo rm -rf batch-6' },
      { pane_id: pane, keys: 'echo batch-after-7' },
    ],
  });
  const report = single.structuredContent as { results: Array<{ success: boolean; error: string | null }>; stopped_at: number | null };
  assert.deepEqual([report.results.map((row) => row.success), report.stopped_at], [[true, false], 1]);
  assert.match(report.results[1]!.error!, REFUSED);
  for (const marker of ['buffer-1', 'python-2', 'run-3', 'batch-5', 'across-calls', 'batch-6', 'batch-after-7'])
    await neverTyped(tmux, pane, marker);
  assert.equal((await tmux.tmux('list-panes', '-a')).trim().split('\n').length, 1, 'the refused split_window made no pane');
});

test('text rules (julia): send_keys, paste_text, send_keys_and_wait and a run_operations item', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const mcp = await startMcp(t, {
    env: tmux.env,
    args: [
      '--profile',
      'julia',
      '--approve',
      RULE,
      '--tool',
      'list_panes',
      '--tool',
      'send_keys',
      '--tool',
      'paste_text',
      '--tool',
      'send_keys_and_wait',
      '--tool',
      'run_operations',
      '--tool',
      'capture_pane',
    ],
    negotiation: 'auto',
  });
  const { panes } = await mcp.ok('list_panes');
  const target = panes[0].target;
  const envelope = async (tool: string, args: Record<string, unknown>) => {
    const result = await mcp.call(tool, args);
    assert.equal(result.isError, true, `${tool} was not refused`);
    const { error } = result.structuredContent as { error: { code: string; effects: string; message: string } };
    assert.deepEqual([error.code, error.effects], ['approval_denied', 'none']);
    assert.match(error.message, REFUSED);
  };
  await envelope('send_keys', { target, keys: ['r', 'm', ' -rf julia-1', 'Enter'] });
  await envelope('paste_text', { target, text: 'rm -rf julia-2' });
  await envelope('send_keys_and_wait', { target, keys: ['rm -rf julia-3', 'Enter'], text: 'never' });
  // The item that matches is refused; the one before it ran, and the batch stopped there.
  const batch = await mcp.call('run_operations', {
    operations: [
      { tool: 'send_keys', arguments: { target, keys: ['echo before-4', 'Enter'] } },
      { tool: 'send_keys', arguments: { target, keys: ['rm -rf julia-5', 'Enter'] } },
      { tool: 'send_keys', arguments: { target, keys: ['echo after-6', 'Enter'] } },
    ],
  });
  const report = batch.structuredContent as { failedIndex: number; completed: unknown[]; error: { code: string; effects: string } };
  assert.equal(report.failedIndex, 2);
  assert.equal(report.completed.length, 1);
  // The first item typed: something may have changed, as for any batch that fails after an item ran.
  assert.deepEqual([report.error.code, report.error.effects], ['approval_denied', 'possible']);
  await until('the item before ran', async () => /^before-4$/m.test(await tmux.tmux('capture-pane', '-p', '-t', pane)));
  for (const marker of ['julia-1', 'julia-2', 'julia-3', 'julia-5', 'after-6']) await neverTyped(tmux, pane, marker);
});

test('text rules in a batch: the matching item asks on its own, at its turn; the items before ran, the ones after wait for the answer', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const screens: string[] = [];
  const replies = [APPROVE, deny('not that one')];
  const client = elicitingClient(async (asked) => {
    screens.push(await tmux.tmux('capture-pane', '-p', '-t', pane));
    assert.match(asked.message, /send_keys_batch operations\[\d\] send_keys/);
    return replies.shift()!;
  });
  // 2025-11-25: the server holds the call, so each item is asked when its turn comes.
  const mcp = await startMcp(t, { env: tmux.env, args: ['--approve', RULE], negotiation: 'legacy', client: client.setup });
  const op = (text: string) => ({ paneId: pane, keys: [text], literal: true, enter: true });
  const result = await mcp.ok('send_keys_batch', {
    operations: [op('echo first-1'), op('echo rm -rf second-2'), op('echo third-3'), op('echo rm -rf fourth-4'), op('echo fifth-5')],
  });
  assert.deepEqual(result.failures, [{ index: 3, reason: result.failures[0]?.reason }]);
  assert.match(
    result.failures[0].reason,
    /operations\[3\] \(send_keys\) was denied by a person in the client .*: not that one; nothing was sent/,
  );
  assert.equal(result.completed, 3);
  assert.equal(client.asked.length, 2);
  // When item 1 was asked about, item 0 had been typed and item 2 had not.
  assert.match(screens[0]!, /echo first-1/);
  assert.ok(!screens[0]!.includes('third-3'), screens[0]);
  await until('the approved item ran', async () => /^rm -rf second-2$/m.test(await tmux.tmux('capture-pane', '-p', '-t', pane)));
  for (const marker of ['fourth-4', 'fifth-5']) await neverTyped(tmux, pane, marker);
});
