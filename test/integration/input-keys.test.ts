import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Engine } from '../../src/core/engine.js';
import { isKeyName, planKeys, sendKeys, withPrivateBuffer } from '../../src/core/act/input.js';
import { TmuxServer } from '../../src/tmux/server.js';
import { privateTmux, scrubbedEnv, TMUX_BIN, type PrivateTmux } from '../fixture/tmux.js';
import { until } from '../fixture/until.js';

function engineFor(t: { after: (fn: () => Promise<void>) => void }, tmux: PrivateTmux, spawnOnly = false): Engine {
  const server = new TmuxServer({ bin: TMUX_BIN, socketPath: tmux.socketPath, commandTimeoutMs: 5000, env: scrubbedEnv(), spawnOnly });
  t.after(() => server.close());
  return new Engine(server, { waitMaxMs: 10_000 });
}

let serial = 0;

/**
 * Has the pane copy exactly `bytes` bytes of input into a file, with the terminal in
 * non-canonical mode (no line-length limit, no echo), and returns a promise of the file.
 */
async function readBytes(tmux: PrivateTmux, pane: string, bytes: number): Promise<() => Promise<Buffer>> {
  const file = join(tmux.dir, `bytes-${++serial}.out`);
  const done = `bytes-done-${process.pid}-${serial}`;
  await tmux.tmux(
    'send-keys',
    '-t',
    pane,
    '-l',
    `stty -icanon -echo; head -c ${bytes} > '${file}'; stty sane; tmux -S '${tmux.socketPath}' wait-for -S ${done}`,
  );
  await tmux.tmux('send-keys', '-t', pane, 'Enter');
  await until(
    'head to run',
    async () => (await tmux.tmux('display-message', '-p', '-t', pane, '#{pane_current_command}')).trim() === 'head',
  );
  return async () => {
    await tmux.tmux('wait-for', done);
    return readFileSync(file);
  };
}

test('planKeys: text is split into lines joined by Enter, trailing ";" goes by value, keys are checked', () => {
  assert.deepEqual(planKeys({ keys: ['echo a;', 'b\r\nc;\n'], literal: true, enter: true }), [
    { kind: 'text', text: 'echo a;b' },
    { kind: 'keys', names: ['Enter'] },
    { kind: 'text', text: 'c' },
    { kind: 'hex', bytes: [0x3b] },
    { kind: 'keys', names: ['Enter', 'Enter'] },
  ]);
  assert.deepEqual(planKeys({ keys: [';;', 'a\\;;'], literal: true, enter: false }), [
    { kind: 'text', text: ';;a\\' },
    { kind: 'hex', bytes: [0x3b, 0x3b] },
  ]);
  assert.deepEqual(planKeys({ keys: ['a\r', '\nb'], literal: true, enter: false }), [
    { kind: 'text', text: 'a\r' },
    { kind: 'keys', names: ['Enter'] },
    { kind: 'text', text: 'b' },
  ]);
  assert.deepEqual(planKeys({ keys: ['C-c', ';', 'Enter'], literal: false, enter: false }), [
    { kind: 'keys', names: ['C-c'] },
    { kind: 'hex', bytes: [0x3b] },
    { kind: 'keys', names: ['Enter'] },
  ]);
  assert.deepEqual(planKeys({ keys: [], literal: true, enter: false }), []);
  // With literal false only exact key names are pressed; other strings are typed.
  assert.deepEqual(planKeys({ keys: ['Up', 'rm -rf /', 'Entr'], literal: false, enter: false }), [
    { kind: 'keys', names: ['Up'] },
    { kind: 'text', text: 'rm -rf /Entr' },
  ]);
  assert.throws(() => planKeys({ keys: ['a\0b'], literal: true, enter: false }), /NUL/);
  assert.throws(() => planKeys({ keys: ['x'.repeat(1_000_001)], literal: true, enter: false }), /at most 1000000/);

  // Long text is cut into pieces on code point boundaries, never inside a surrogate pair.
  const long = '😀'.repeat(10_000);
  const steps = planKeys({ keys: [long], literal: true, enter: false });
  assert.ok(steps.length > 1);
  assert.equal(steps.map((s) => (s.kind === 'text' ? s.text : '')).join(''), long);
  for (const step of steps) assert.ok(step.kind === 'text' && /^(?:😀)+$/u.test(step.text), 'every piece holds whole emoji');
});

test('isKeyName accepts tmux key names and single characters, and nothing that is text', () => {
  for (const key of [
    'Enter',
    'enter',
    'C-c',
    'c-c',
    'M-x',
    'S-F5',
    'C-M-Left',
    '^a',
    'F12',
    'BSpace',
    'KP+',
    'PageUp',
    'a',
    'Z',
    '-',
    '~',
    'é',
    '😀',
    '^',
    'C--',
  ]) {
    assert.ok(isKeyName(key), key);
  }
  for (const key of ['', 'hello', 'Entr', 'F13', 'ls -l', ' ', '\t', '\n', 'C-', 'C-hello', 'ab', 'é😀', 'MouseDown1Pane']) {
    assert.ok(!isKeyName(key), JSON.stringify(key));
  }
});

test('text arrives exactly over the spawn path too, where tmux would eat a trailing ";"', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const engine = engineFor(t, tmux, true);
  const keys = ['a;', ';', 'b\\;', '-x ;', 'c;;'];
  const expected = Buffer.from(keys.join('') + ';');
  const read = await readBytes(tmux, pane, expected.length);
  // One call per string, so each ends its own tmux argument.
  for (const key of keys) await sendKeys(engine, { pane, keys: [key], literal: true, enter: false });
  await sendKeys(engine, { pane, keys: [';'], literal: false, enter: false });
  assert.equal((await read()).toString('utf8'), expected.toString('utf8'));
});

test('long text in one string arrives whole: chunked on code points, separators at chunk edges kept', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const engine = engineFor(t, tmux);
  // 8191 ASCII characters then ";" puts a separator at the end of the first chunk; emoji and CJK straddle later edges.
  const text = 'x'.repeat(8191) + ';' + '😀日本語;'.repeat(3000) + ' end';
  const bytes = Buffer.from(text, 'utf8');
  const read = await readBytes(tmux, pane, bytes.length);
  await sendKeys(engine, { pane, keys: [text], literal: true, enter: false });
  assert.ok((await read()).equals(bytes));
});

test('concurrent sends to one pane never interleave their lines', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start();
  const engine = engineFor(t, tmux);
  const blocks = ['a', 'b', 'c'].map((p) => Array.from({ length: 20 }, (_, i) => `${p}${i}`).join('\n') + '\n');
  const total = Buffer.byteLength(blocks.join(''));
  // -icanon turns off line editing but keeps CR -> NL, so Enter arrives as a newline.
  const read = await readBytes(tmux, pane, total);
  await Promise.all(blocks.map((block) => sendKeys(engine, { pane, keys: [block], literal: true, enter: false })));
  const received = (await read()).toString('utf8');
  const order = [...received.matchAll(/^([abc])0$/gm)].map((m) => m[1]!);
  assert.equal(received, order.map((p) => blocks[p.charCodeAt(0) - 97]).join(''), received);
});

test('withPrivateBuffer deletes its buffer even when the paste fails, and never touches other buffers', async (t) => {
  const tmux = privateTmux(t);
  await tmux.start();
  const engine = engineFor(t, tmux);
  await tmux.tmux('set-buffer', '-b', 'mine', 'keep me');
  const names = async () => (await tmux.tmux('list-buffers', '-F', '#{buffer_name}')).split('\n').filter(Boolean).sort();

  let seen = '';
  await assert.rejects(
    withPrivateBuffer(engine, Buffer.from('secret; text\n'), async (name) => {
      seen = name;
      assert.deepEqual(await names(), [name, 'mine'].sort());
      assert.equal(await tmux.tmux('show-buffer', '-b', name), 'secret; text\n');
      await engine.tmux.run(['paste-buffer', '-b', name, '-t', '%999']);
    }),
    /can't find pane/,
  );
  assert.match(seen, /^tmux-mcp-[0-9a-f]{16}$/);
  assert.deepEqual(await names(), ['mine']);
  assert.equal(await tmux.tmux('show-buffer', '-b', 'mine'), 'keep me');
});
