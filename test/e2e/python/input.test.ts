/** The python profile's input tools against real tmux: send_keys, send_keys_batch (spec 003), paste_text, buffers, pipe_pane. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { channel, startPython } from '../../fixture/python.js';
import { ownSession, sharedServer } from '../../fixture/shared.js';
import { until } from '../../fixture/until.js';

/** One tmux server and one python server for the file: every test makes ordinary calls on a session of its own. */
const server = sharedServer((scope, tmux) => startPython(scope, tmux.env));

async function setup(t: { after: (fn: () => Promise<void> | void) => void }) {
  const { tmux, mcp } = await server();
  const { pane } = await ownSession(t, tmux);
  return { tmux, mcp, pane };
}

test('python: send_keys types text and presses keys; the result names the pane', async (t) => {
  const { tmux, mcp, pane } = await setup(t);
  const ch = channel(tmux);
  assert.equal((await mcp.ok('send_keys', { pane_id: pane, keys: `echo typed-$((6*7))${ch.suffix}` })).result, `Keys sent to pane ${pane}`);
  await ch.done();
  assert.ok((await mcp.text('capture_pane', { pane_id: pane })).split('\n').includes('typed-42'));
  await mcp.ok('send_keys', { pane_id: pane, keys: 'sleep 600' });
  await until('sleep to start', async () => (await mcp.ok('get_pane_info', { pane_id: pane })).pane_current_command === 'sleep', 20_000);
  await mcp.ok('send_keys', { pane_id: pane, keys: 'C-c', enter: false });
  // Typed only once the shell has the terminal back: keys that reach the tty as ^C is handled may be flushed with it.
  await until('sleep to end', async () => (await mcp.ok('get_pane_info', { pane_id: pane })).pane_current_command !== 'sleep', 20_000);
  const back = channel(tmux);
  await mcp.ok('send_keys', { pane_id: pane, keys: `echo after-interrupt${back.suffix}` });
  await back.done();
  assert.ok((await mcp.text('capture_pane', { pane_id: pane })).includes('\nafter-interrupt'), 'C-c was pressed, not typed');
  assert.match(await mcp.fails('send_keys', { pane_id: '%999', keys: 'x' }), /%999/);
});

test('python: send_keys_batch: ordered, stop and continue, stopped_at, keys starting with - or ending in ; arrive as typed (spec 003)', async (t) => {
  const { tmux, mcp, pane } = await setup(t);
  await tmux.typeAndWait(pane, 'clear');

  const ch = channel(tmux);
  const sent = await mcp.ok('send_keys_batch', {
    operations: [
      { pane_id: pane, keys: "printf '[%s]\\n' ", enter: false },
      { pane_id: pane, keys: '-n hello', literal: true, enter: false },
      { pane_id: pane, keys: ' end;', enter: false },
      { pane_id: pane, keys: ` true${ch.suffix}` },
    ],
  });
  assert.equal(sent.succeeded, 4);
  assert.equal(sent.failed, 0);
  assert.equal(sent.stopped_at, null);
  assert.deepEqual(
    sent.results.map((r: any) => [r.index, r.pane_id, r.success, r.error]),
    [
      [0, pane, true, null],
      [1, pane, true, null],
      [2, pane, true, null],
      [3, pane, true, null],
    ],
  );
  assert.ok(sent.results.every((r: any) => typeof r.elapsed_seconds === 'number'));
  await ch.done();
  const screen = await mcp.text('capture_pane', { pane_id: pane });
  assert.ok(screen.includes("printf '[%s]\\n' -n hello end; true"), screen);
  assert.ok(screen.split('\n').includes('[-n]') && screen.split('\n').includes('[end]'), screen);

  const stopped = await mcp.ok('send_keys_batch', {
    operations: [
      { pane_id: pane, keys: 'C-l', enter: false },
      { pane_id: '%999', keys: 'x' },
      { pane_id: pane, keys: 'echo never' },
    ],
  });
  assert.equal(stopped.stopped_at, 1);
  assert.equal(stopped.results.length, 2, 'nothing after the failure is attempted');
  assert.equal(stopped.results[1].success, false);
  assert.match(stopped.results[1].error, /%999/);

  const continued = await mcp.ok('send_keys_batch', {
    on_error: 'continue',
    operations: [
      { pane_id: '%999', keys: 'x' },
      { session_name: 'nope', keys: 'x' },
      { pane_id: pane, keys: 'C-l', enter: false },
    ],
  });
  assert.equal(continued.stopped_at, null);
  assert.equal(continued.succeeded, 1);
  assert.equal(continued.failed, 2);
  assert.equal(continued.results[1].pane_id, null, 'target resolution failed');
  assert.equal(continued.results[2].pane_id, pane);

  const timedOut = await mcp.ok('send_keys_batch', {
    timeout: 1e-9,
    on_error: 'continue',
    operations: [
      { pane_id: pane, keys: 'a', enter: false },
      { pane_id: pane, keys: 'b', enter: false },
    ],
  });
  assert.ok(
    timedOut.results.some((r: any) => /exceeded timeout/.test(r.error ?? '')),
    JSON.stringify(timedOut),
  );
  assert.match(await mcp.fails('send_keys_batch', { operations: [] }), /operations must not be empty/);
  assert.match(await mcp.fails('send_keys_batch', { operations: [{ keys: 'x', socket_name: 'y' }] }), /socket_name/);
});

test("python: paste_text and the private buffers; the user's buffers are untouched", async (t) => {
  const { tmux, mcp, pane } = await setup(t);
  await tmux.tmux('set-buffer', '-b', 'mine', 'user data');
  await tmux.typeAndWait(pane, 'clear');

  const pasted = channel(tmux);
  assert.equal(
    (await mcp.ok('paste_text', { pane_id: pane, text: `echo pasted-$((1+1))${pasted.suffix}\n`, bracket: false })).result,
    `Text pasted to pane ${pane}`,
  );
  await pasted.done();
  assert.ok((await mcp.text('capture_pane', { pane_id: pane })).split('\n').includes('pasted-2'));

  const fromBuffer = channel(tmux);
  const loaded = await mcp.ok('load_buffer', { content: `echo from-buffer${fromBuffer.suffix}\n`, logical_name: 'cmd' });
  assert.match(loaded.buffer_name, /^libtmux_mcp_[0-9a-f]{32}_cmd$/);
  assert.equal(loaded.logical_name, 'cmd');
  const shown = (await mcp.call('show_buffer', { buffer_name: loaded.buffer_name })).structuredContent as any;
  assert.equal(shown.content, `echo from-buffer${fromBuffer.suffix}\n`);
  assert.equal(shown.content_truncated, false);
  await mcp.ok('paste_buffer', { buffer_name: loaded.buffer_name, pane_id: pane, bracket: false });
  await fromBuffer.done();
  assert.ok((await mcp.text('capture_pane', { pane_id: pane })).split('\n').includes('from-buffer'));
  assert.equal((await mcp.ok('delete_buffer', { buffer_name: loaded.buffer_name })).result.includes(loaded.buffer_name), true);
  assert.match(await mcp.fails('show_buffer', { buffer_name: loaded.buffer_name }), /buffer/i);
  assert.match(await mcp.fails('show_buffer', { buffer_name: 'mine' }), /not a buffer this server made/);
  assert.match(await mcp.fails('delete_buffer', { buffer_name: 'mine' }), /not a buffer this server made/);
  assert.equal(await tmux.tmux('show-buffer', '-b', 'mine'), 'user data');
});

test('python: pipe_pane writes to exactly the path asked, whatever it holds (; $() quotes newline), and stops', async (t) => {
  const { tmux, mcp, pane } = await setup(t);
  const name = `out; $(touch pwned) 'q' "d" \`x\` %d #S\nline.log`;
  const dir = mkdtempSync(join(tmux.dir, 'pipe-'));
  const path = join(dir, name);
  assert.equal((await mcp.ok('pipe_pane', { pane_id: pane, output_path: path })).result, `Piping pane ${pane} to ${path}`);
  await tmux.typeAndWait(pane, 'echo piped-output');
  assert.equal((await mcp.ok('pipe_pane', { pane_id: pane })).result, `Piping stopped for pane ${pane}`);
  assert.ok(readFileSync(path, 'utf8').includes('piped-output'));
  const files = readdirSync(dir);
  assert.ok(!files.includes('pwned'), 'nothing in the path ran');
  assert.match(await mcp.fails('pipe_pane', { pane_id: pane, output_path: 'relative.log' }), /absolute/);
});
