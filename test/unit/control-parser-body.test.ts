/**
 * The reply body fast path: body lines are kept as chunk slices and joined once. Whatever the
 * chunking, the lines, the body and the line count must agree with a line-by-line reading.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ControlParser, type ControlEvent, type ControlReply } from '../../src/tmux/control-parser.js';

function replies(chunks: Buffer[], options?: { maxReplyLines?: number; maxLineBytes?: number }): ControlReply[] {
  const events: ControlEvent[] = [];
  const parser = new ControlParser((e) => events.push(e), options);
  for (const chunk of chunks) parser.push(chunk);
  return events.flatMap((e) => (e.type === 'reply' ? [e.reply] : []));
}

const STREAM = Buffer.concat([
  Buffer.from('%begin 5 10 1\n'),
  Buffer.from('plain\r\n'), // a carriage return before the newline is not part of the line
  Buffer.from('%not the end\n'),
  Buffer.from('caf'),
  Buffer.from([0xc3, 0xa9]),
  Buffer.from('\n\n'), // an empty line
  Buffer.from([0xff, 0x0a]), // invalid UTF-8 stays as bytes
  Buffer.from('%end 5 10 1\r\n'),
  Buffer.from('%begin 5 11 1\n%end 5 11 1\n'), // an empty reply
]);
const LINES = [Buffer.from('plain'), Buffer.from('%not the end'), Buffer.from('café'), Buffer.alloc(0), Buffer.from([0xff])];

test('body lines, body and count agree, for every split into two or three chunks', () => {
  for (let i = 0; i <= STREAM.length; i++) {
    for (let j = i; j <= STREAM.length; j += 3) {
      const [reply, empty] = replies([STREAM.subarray(0, i), STREAM.subarray(i, j), STREAM.subarray(j)]);
      assert.ok(reply && empty, `split at ${i},${j}`);
      assert.deepEqual(
        reply.lines.map((l) => l.toString('hex')),
        LINES.map((l) => l.toString('hex')),
        `split at ${i},${j}`,
      );
      assert.equal(reply.lineCount, LINES.length);
      assert.deepEqual(reply.body, Buffer.concat(reply.lines.flatMap((l) => [l, Buffer.from('\n')])));
      assert.equal(empty.lineCount, 0);
      assert.equal(empty.body.length, 0);
      assert.deepEqual(empty.lines, []);
    }
  }
});

test('byte-at-a-time feeding gives the same body', () => {
  const [whole] = replies([STREAM]);
  const [bytewise] = replies([...STREAM].map((b) => Buffer.from([b])));
  assert.deepEqual(bytewise!.body, whole!.body);
  assert.equal(bytewise!.lineCount, whole!.lineCount);
});

test('decoding the body at once equals decoding each line', () => {
  const [reply] = replies([STREAM]);
  const whole = reply!.body.toString('utf8').split('\n');
  whole.pop();
  assert.deepEqual(
    whole,
    reply!.lines.map((l) => l.toString('utf8')),
  );
});

test('the line bound holds however the body is cut', () => {
  const stream = Buffer.from('%begin 1 2 1\na\r\nb\nc\nd\ne\n%end 1 2 1\n');
  for (let i = 0; i <= stream.length; i++) {
    const [reply] = replies([stream.subarray(0, i), stream.subarray(i)], { maxReplyLines: 3 });
    assert.deepEqual(reply!.lines.map(String), ['a', 'b', 'c'], `split at ${i}`);
    assert.equal(reply!.body.toString(), 'a\nb\nc\n');
  }
});
