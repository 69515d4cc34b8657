/** Semantic-prompt marks in a pane's stream: kept where they arrived, whatever the chunking; read by the shell's nonce, command number and the digest of the line typed. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EscapeFilter } from '../../src/core/read/terminal-text.js';
import { PaneStream } from '../../src/core/watch/pane-stream.js';
import { parseMark } from '../../src/core/act/shell-integration/marks.js';
import { MarkReader } from '../../src/core/act/shell-integration/mark-reader.js';
import { lineDigest } from '../../src/core/act/shell-integration/typed-line.js';
import { execFileSync } from 'node:child_process';

const OUTPUT =
  '\x1b]133;A;tmcp=n1.4;s=0\x07$ echo hi\r\n\x1b]133;C;tmcp=n1.5\x07hi\r\n\x1b]133;D;3;tmcp=n1.5\x07\x1b]133;A;tmcp=n1.5;s=3\x07$ ';

test('the filter removes OSC 133 from the text and hands each mark over with its offset, however the bytes are cut', () => {
  for (let cut = 0; cut <= OUTPUT.length; cut++) {
    const filter = new EscapeFilter();
    let text = '';
    const marks: Array<{ payload: string; at: number }> = [];
    for (const chunk of [OUTPUT.slice(0, cut), OUTPUT.slice(cut)]) {
      const out = filter.write(chunk);
      for (const mark of filter.takeMarks()) marks.push({ payload: mark.payload, at: text.length + mark.offset });
      text += out;
    }
    assert.equal(text, '$ echo hi\r\nhi\r\n$ ');
    assert.deepEqual(marks, [
      { payload: 'A;tmcp=n1.4;s=0', at: 0 },
      { payload: 'C;tmcp=n1.5', at: 11 },
      { payload: 'D;3;tmcp=n1.5', at: 15 },
      { payload: 'A;tmcp=n1.5;s=3', at: 15 },
    ]);
  }
});

test('parseMark reads kind, nonce, number and status; other OSC 133 parameters and foreign marks carry no nonce', () => {
  const at = { line: 0, col: 0 };
  assert.deepEqual(parseMark('D;3;tmcp=n1.5', at), { kind: 'D', position: at, nonce: 'n1', n: 5, status: 3 });
  assert.deepEqual(parseMark('A;tmcp=ab.0;s=130', at), { kind: 'A', position: at, nonce: 'ab', n: 0, status: 130 });
  assert.deepEqual(parseMark('A;k=s', at), { kind: 'A', position: at });
  assert.deepEqual(parseMark('D', at), { kind: 'D', position: at });
  assert.equal(parseMark('Z;tmcp=n1.5', at), undefined);
  assert.deepEqual(parseMark('C;tmcp=bad nonce.5', at), { kind: 'C', position: at });
});

test('parseMark reads the digest of a line the server typed: d= on C and D, r= on A', () => {
  const at = { line: 0, col: 0 };
  assert.deepEqual(parseMark('C;tmcp=n1.5;d=123-4', at), { kind: 'C', position: at, nonce: 'n1', n: 5, digest: '123-4' });
  assert.deepEqual(parseMark('A;tmcp=n1.5;s=2;r=123-4', at), { kind: 'A', position: at, nonce: 'n1', n: 5, status: 2, digest: '123-4' });
  assert.deepEqual(parseMark('A;tmcp=n1.5;s=0;r=', at), { kind: 'A', position: at, nonce: 'n1', n: 5, status: 0 });
  assert.deepEqual(parseMark('C;tmcp=n1.5;r=123-4', at), { kind: 'C', position: at, nonce: 'n1', n: 5 });
});

test('the digest is POSIX cksum of the line without blanks, as the shells compute it with cksum', () => {
  for (const line of ['( echo hi )', "fish -c 'echo \\'x\\''", '( printf "a b\\n" \n)', 'é€ ünï', '']) {
    const said = execFileSync('cksum', { input: Buffer.from(line.replace(/[ \t\n]/g, ''), 'utf8') })
      .toString()
      .trim()
      .replace(' ', '-');
    assert.equal(lineDigest(line), said, line);
  }
});

test("a run is the line of its digest numbered after the shell's latest: output between its C and D, the status from D", () => {
  const stream = new PaneStream('%0', '$0');
  stream.push('\x1b]133;A;tmcp=n1.4;s=0;r=\x07$ ');
  const reader = new MarkReader(stream, 'n1', '11-2');
  assert.equal(reader.scan(), false);
  // Replayed old marks (a log of this pane) and another shell's marks do not end it.
  stream.push(' echo hi\r\n\x1b]133;C;tmcp=n1.5;d=11-2\x07hi\r\n\x1b]133;D;0;tmcp=n1.2;d=11-2\x07\x1b]133;D;9;tmcp=other.5;d=11-2\x07');
  assert.equal(reader.scan(), false);
  assert.equal(reader.started, true);
  stream.push('no newline\x1b]133;D;3;tmcp=n1.5;d=11-2\x07\x1b]133;A;tmcp=n1.5;s=3;r=\x07$ ');
  assert.equal(reader.scan(), true);
  assert.equal(reader.status, 3);
  assert.deepEqual(reader.output().lines, ['hi', 'no newline']);
});

test('lines the shell reads before the one typed (typed ahead, an empty Enter, a replayed start) never answer for it', () => {
  const stream = new PaneStream('%0', '$0');
  stream.push('\x1b]133;A;tmcp=n1.4;s=0;r=\x07$ ');
  const reader = new MarkReader(stream, 'n1', '77-9');
  // An empty Enter: a new prompt, no line of the server's.
  stream.push('\r\n\x1b]133;A;tmcp=n1.4;s=0;r=\x07$ ');
  // A line typed ahead, with its output and end; then a replay of an old start of the same text.
  stream.push('ls\r\n\x1b]133;C;tmcp=n1.5;d=\x07file\r\n\x1b]133;D;0;tmcp=n1.5;d=\x07\x1b]133;A;tmcp=n1.5;s=0;r=\x07$ ');
  stream.push('\x1b]133;C;tmcp=n1.3;d=77-9\x07');
  assert.equal(reader.scan(), false);
  assert.equal(reader.started, false);
  assert.equal(reader.othersFirst, 1);
  stream.push(' ( true )\r\n\x1b]133;C;tmcp=n1.6;d=77-9\x07mine\r\n\x1b]133;D;0;tmcp=n1.6;d=77-9\x07\x1b]133;A;tmcp=n1.6;s=0;r=\x07');
  assert.equal(reader.scan(), true);
  assert.deepEqual([reader.status, reader.output().lines], [0, ['mine']]);
  assert.equal(reader.accepts(6, '77-9'), true);
  const lagging = new PaneStream('%1', '$0');
  lagging.push('\x1b]133;C;tmcp=n1.4;d=1-1\x07flood');
  assert.equal(new MarkReader(lagging, 'n1', '77-9').accepts(5, '77-9'), false, 'typed while the stream lagged behind a flood');
  lagging.push('\x1b]133;D;0;tmcp=n1.4;d=1-1\x07\x1b]133;A;tmcp=n1.4;s=0;r=\x07');
  assert.equal(new MarkReader(lagging, 'n1', '77-9').accepts(5, '77-9'), true);
  assert.equal(new MarkReader(lagging, 'n1', '77-9').accepts(5, '78-9'), false, 'another line');
  assert.equal(reader.accepts(5, '77-9'), false);
});

test("a prompt naming the line typed is a line the shell read and ran nothing of; zsh's end-of-line mark is not output", () => {
  const stream = new PaneStream('%0', '$0');
  stream.push('\x1b]133;A;tmcp=z.7;s=0;r=\x07% ');
  const nothing = new MarkReader(stream, 'z', '5-5');
  stream.push(' echo )\r\nzsh: parse error\r\n\x1b]133;A;tmcp=z.7;s=1;r=5-5\x07% ');
  assert.equal(nothing.scan(), true);
  assert.equal(nothing.status, 1);
  const partial = new MarkReader(stream, 'z', '6-6');
  stream.push(
    ` printf abc\r\n\x1b]133;C;tmcp=z.8;d=6-6\x07abc\x1b[1m\x1b[7m%\x1b[27m\x1b[1m\x1b[0m${' '.repeat(79)}\r \r\x1b]133;D;0;tmcp=z.8;d=6-6\x07`,
  );
  assert.equal(partial.scan(), true);
  assert.deepEqual(partial.output().lines, ['abc']);
});
