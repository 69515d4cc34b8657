/** The pieces of a recording that need no tmux: the asciicast file on a real file system, safe names, layout sizes. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CastFile } from '../../src/core/watch/cast-file.js';
import { safePart } from '../../src/core/watch/recorder.js';
import { paneSizeInLayout } from '../../src/core/watch/screen-paint.js';

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'tmux-mcp-cast-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const header = { width: 80, height: 24, timestamp: 1_800_000_000 };

test('a cast file never replaces an existing file or follows a link planted under its name, and is created 0600', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'rec.cast'), 'precious');
  symlinkSync(join(dir, 'elsewhere'), join(dir, 'rec-2.cast'));
  const errors: Error[] = [];
  const file = new CastFile(join(dir, 'rec'), header, 1024 * 1024, (error) => errors.push(error));
  file.event('o', 'hello\r\n');
  await file.end();
  assert.deepEqual(errors, []);
  assert.equal(file.path, join(dir, 'rec-3.cast'));
  assert.equal(readFileSync(join(dir, 'rec.cast'), 'utf8'), 'precious');
  assert.ok(!readdirSync(dir).includes('elsewhere'), 'nothing written through the link');
  assert.equal(statSync(file.path).mode & 0o777, 0o600);
  const [first, second, end] = readFileSync(file.path, 'utf8').split('\n');
  assert.deepEqual(JSON.parse(first!), { version: 2, ...header });
  const event = JSON.parse(second!);
  assert.deepEqual(event.slice(1), ['o', 'hello\r\n']);
  assert.equal(end, '');
});

test('a cast file stops at its limit with a closing note, and takes no event after it', async (t) => {
  const dir = tempDir(t);
  const file = new CastFile(join(dir, 'capped'), header, 4096, () => assert.fail('no error'));
  let accepted = 0;
  while (file.event('o', 'x'.repeat(100))) accepted++;
  assert.ok(file.full);
  assert.equal(file.event('o', 'late'), false);
  await file.end();
  const text = readFileSync(file.path, 'utf8');
  assert.ok(Buffer.byteLength(text) <= 4096, `${Buffer.byteLength(text)} bytes`);
  const lines = text.trimEnd().split('\n');
  assert.equal(lines.length, 1 + accepted + 1);
  assert.deepEqual(JSON.parse(lines.at(-1)!).slice(1), [
    'm',
    'recording stopped: the file reached its size limit of 0.004 MB (--record-max-mb)',
  ]);
});

test('a cast file in a directory it cannot create files in reports the error once', async (t) => {
  const errors: Error[] = [];
  const file = new CastFile('/proc/no-such-recording', header, 4096, (error) => errors.push(error));
  file.event('o', 'x');
  await file.end();
  assert.equal(errors.length, 1);
});

test('file-name parts keep only safe characters, never a leading dot or dash, at most 64', () => {
  assert.equal(safePart('work'), 'work');
  assert.equal(safePart('../../etc/passwd'), '_._.._etc_passwd');
  assert.equal(safePart('-rf'), '_rf');
  assert.equal(safePart('a b\n\u00e9%3'), 'a_b___3');
  assert.equal(safePart(''), '_');
  assert.equal(safePart('x'.repeat(100)).length, 64);
  assert.doesNotMatch(safePart('../x/y\0z'), /[/\0]/);
});

test('a pane size is read from a tmux layout, leaves only', () => {
  assert.deepEqual(paneSizeInLayout('b25f,80x24,0,0,2', '%2'), { width: 80, height: 24 });
  const split = 'cafd,160x50,0,0{80x50,0,0,1,79x50,81,0[79x25,81,0,3,79x24,81,26,12]}';
  assert.deepEqual(paneSizeInLayout(split, '%1'), { width: 80, height: 50 });
  assert.deepEqual(paneSizeInLayout(split, '%3'), { width: 79, height: 25 });
  assert.deepEqual(paneSizeInLayout(split, '%12'), { width: 79, height: 24 });
  assert.equal(paneSizeInLayout(split, '%2'), undefined);
  assert.equal(paneSizeInLayout(split, '%0'), undefined);
});
