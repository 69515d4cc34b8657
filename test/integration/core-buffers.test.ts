/**
 * Private paste buffers: loaded over the control connection or through load-buffer's stdin, shown
 * byte for byte, pasted with or without bracketed paste, deleted; the user's buffers never touched.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  BUFFER_NAME,
  MAX_BUFFER_BYTES,
  checkBufferName,
  deleteAllBuffers,
  deleteBuffer,
  listBuffers,
  loadBuffer,
  pasteBuffer,
  showBuffer,
} from '../../src/core/act/buffers.js';
import { captureLines } from '../../src/core/read/capture.js';
import { Failure } from '../../src/core/failure.js';
import { pasteText } from '../../src/core/act/input.js';
import { engineOn } from '../fixture/engine.js';
import { until } from '../fixture/until.js';
import { privateTmux } from '../fixture/tmux.js';

const refusedUntouched = (kind: string) => (error: unknown) => error instanceof Failure && error.kind === kind && !error.touched;

test('bad names and content are refused before any tmux runs', async (t) => {
  const tmux = privateTmux(t);
  const engine = engineOn(t, tmux, { bin: '/nonexistent/tmux-never-run' });
  for (const name of [
    'buffer0',
    'mine',
    '',
    'libtmux_mcp_',
    `libtmux_mcp_${'0'.repeat(32)}_`,
    `libtmux_mcp_${'g'.repeat(32)}_x`,
    `libtmux_mcp_${'0'.repeat(32)}_a/b`,
  ]) {
    assert.throws(() => checkBufferName(name), refusedUntouched('invalid_argument'), JSON.stringify(name));
    await assert.rejects(showBuffer(engine, name), refusedUntouched('invalid_argument'));
    await assert.rejects(deleteBuffer(engine, name), refusedUntouched('invalid_argument'));
    await assert.rejects(pasteBuffer(engine, { pane: '%0', name }), refusedUntouched('invalid_argument'));
  }
  for (const logical of ['a b', 'x;', '../up', 'é', 'a'.repeat(65)]) {
    await assert.rejects(loadBuffer(engine, 'text', logical), refusedUntouched('invalid_argument'), logical);
  }
  await assert.rejects(loadBuffer(engine, ''), refusedUntouched('invalid_argument'));
  await assert.rejects(loadBuffer(engine, 'x'.repeat(MAX_BUFFER_BYTES + 1)), refusedUntouched('too_large'));
  await assert.rejects(loadBuffer(engine, 'a\u001b[201~b'), refusedUntouched('invalid_argument'));
  const name = `libtmux_mcp_${'0'.repeat(32)}_ok`;
  await assert.rejects(showBuffer(engine, name, { maxLines: 0 }), refusedUntouched('invalid_argument'));
});

test("text round-trips exactly over the control connection; only our buffers are listed, the user's stay", async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  await tmux.tmux('set-buffer', '-b', 'users-own', 'keep me');
  await tmux.tmux('set-buffer', 'unnamed history entry');
  const engine = engineOn(t, tmux);
  const texts = [
    'ends with a semicolon;',
    '-starts with a dash',
    '--',
    'shell $HOME `id` $(id) and format #{pane_id} #(id) ~ {block}',
    'quotes \' " and \\ backslashes \\',
    'lines\nand\ttabs\r\nand a trailing newline\n',
    'unicode: é ü 😀 ✓',
    '\u0001 control \u007f bytes',
  ];
  const loaded = [];
  for (const text of texts) {
    const buffer = await loadBuffer(engine, text, 'probe');
    assert.match(buffer.name, BUFFER_NAME);
    assert.equal(buffer.logicalName, 'probe');
    assert.equal(buffer.bytes, Buffer.byteLength(text));
    const shown = await showBuffer(engine, buffer.name);
    assert.equal(shown.content, text, JSON.stringify(text));
    assert.equal(shown.droppedLines, 0);
    loaded.push(buffer.name);
  }
  assert.equal((await loadBuffer(engine, 'x')).logicalName, 'buf');
  assert.equal((await loadBuffer(engine, 'x', null)).logicalName, 'buf');
  const listed = await listBuffers(engine);
  assert.equal(listed.length, texts.length + 2);
  assert.ok(listed.every((b) => BUFFER_NAME.test(b.name)));
  for (const name of loaded) assert.ok(listed.some((b) => b.name === name));

  assert.equal(await deleteAllBuffers(engine), texts.length + 2);
  assert.deepEqual(await listBuffers(engine), []);
  assert.equal(await tmux.tmux('show-buffer', '-b', 'users-own'), 'keep me');
  assert.match(await tmux.tmux('list-buffers', '-F', '#{buffer_name}'), /^buffer\d+\nusers-own\n$|^users-own\nbuffer\d+\n$/);
});

test('big and binary content goes through load-buffer stdin and comes back byte for byte', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const engine = engineOn(t, tmux);
  const big = Array.from({ length: 5000 }, (_, i) => `line ${i} ${'x'.repeat(30)};`).join('\n');
  assert.ok(Buffer.byteLength(big) > 64 * 1024);
  const loadedBig = await loadBuffer(engine, big, 'big');
  assert.equal((await showBuffer(engine, loadedBig.name)).content, big);

  const binary = Buffer.from([0x00, 0x41, 0xff, 0x0a, 0xfe, 0x00, 0x3b]);
  const loadedBinary = await loadBuffer(engine, binary, 'bin');
  assert.equal(loadedBinary.bytes, binary.length);
  const raw = await engine.tmux.output(['show-buffer', '-b', loadedBinary.name]);
  assert.deepEqual(raw, binary);
  assert.equal((await showBuffer(engine, loadedBinary.name)).bytes, binary.length);
  const withNul = await loadBuffer(engine, 'a\0b', 'nul');
  assert.equal((await showBuffer(engine, withNul.name)).content, 'a\0b');
});

test('show_buffer keeps the newest lines and says how many it dropped', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const engine = engineOn(t, tmux);
  const text = Array.from({ length: 10 }, (_, i) => `row ${i}`).join('\n') + '\n';
  const { name } = await loadBuffer(engine, text);
  const tail = await showBuffer(engine, name, { maxLines: 3 });
  assert.equal(tail.content, 'row 7\nrow 8\nrow 9\n');
  assert.equal(tail.droppedLines, 7);
  assert.equal(tail.bytes, Buffer.byteLength(text));
  assert.equal((await showBuffer(engine, name, { maxLines: 10 })).content, text);
  assert.equal((await showBuffer(engine, name, { maxLines: null })).content, text);
});

test('paste_buffer and paste_text bracket on request, the buffer stays, and delete_buffer removes it once', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  // Programs that asked for bracketed paste, then echo what arrives (cat -v shows ESC as ^[).
  const program = `sh -c "printf '\\\\033[?2004hREADY\\\\n'; exec cat -v"`;
  const bracketed = await tmux.newSession('bracketed', program);
  const plain = await tmux.newSession('plain', program);
  const engine = engineOn(t, tmux);
  const screen = async (pane: string) => (await captureLines(engine, pane)).join('\n');
  for (const pane of [bracketed, plain]) await until(`${pane} ready`, async () => (await screen(pane)).includes('READY'));

  const { name } = await loadBuffer(engine, 'pasted-text', 'paste');
  const pane = await pasteBuffer(engine, { pane: bracketed, name });
  assert.equal(pane.id, bracketed);
  await until('the bracketed paste', async () => (await screen(bracketed)).includes('^[[200~pasted-text^[[201~'));
  await pasteBuffer(engine, { pane: plain, name, bracket: false });
  await until('the plain paste', async () => (await screen(plain)).includes('pasted-text'));
  assert.ok(!(await screen(plain)).includes('[200~'));

  // paste_text takes the same choice.
  await pasteText(engine, { pane: bracketed, text: 'typed-plain', bracket: false });
  await until('the unbracketed paste_text', async () => (await screen(bracketed)).includes('typed-plain'));
  assert.ok(!(await screen(bracketed)).includes('[200~typed-plain'));
  await pasteText(engine, { pane: plain, text: 'typed-bracketed' });
  await until('the bracketed paste_text', async () => (await screen(plain)).includes('^[[200~typed-bracketed^[[201~'));

  assert.ok(
    (await listBuffers(engine)).some((b) => b.name === name),
    'the buffer survives the paste',
  );
  await deleteBuffer(engine, name);
  await assert.rejects(deleteBuffer(engine, name), (error: unknown) => error instanceof Failure && error.kind === 'not_found');
  await assert.rejects(showBuffer(engine, name), (error: unknown) => error instanceof Failure && error.kind === 'not_found');
  await assert.rejects(
    pasteBuffer(engine, { pane: plain, name }),
    (error: unknown) => error instanceof Failure && error.kind === 'not_found',
  );
});

test('paste_buffer refuses the pane this server runs in unless forced', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const engine = engineOn(t, tmux, { caller: { paneId: pane } });
  const { name } = await loadBuffer(engine, 'echo never-pasted');
  await assert.rejects(pasteBuffer(engine, { pane, name }), (error: unknown) => error instanceof Failure && error.kind === 'refused');
  assert.ok(!(await captureLines(engine, pane)).join('\n').includes('never-pasted'));
  await pasteBuffer(engine, { pane, name, force: true });
  await until('the forced paste', async () => (await captureLines(engine, pane)).join('\n').includes('never-pasted'));
});
