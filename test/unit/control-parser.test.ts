import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ControlParser, unescapeOctal, type ControlEvent } from '../../src/tmux/control-parser.js';

/** A recorded stream: the attach block, notifications, output with escapes and split UTF-8, a tricky reply. */
const RECORDED = Buffer.concat([
  Buffer.from('%begin 1796223170 268 0\n%end 1796223170 268 0\n'),
  Buffer.from('%session-changed $0 A\n'),
  Buffer.from('%output %0 root@vm:~# \\033[?2004h\n'),
  Buffer.from('%output %0 caf'),
  Buffer.from([0xc3, 0xa9]),
  Buffer.from(' \\134n ok\\015\\012\n'),
  Buffer.from('%begin 1796223171 273 1\n'),
  Buffer.from('first line\n'),
  Buffer.from('%end 1796223171 999 1\n'), // looks like an end, but not this block's
  Buffer.from('%end 1796223171 273 0\n'), // flags differ: still body
  Buffer.from('name with \t tab\n'),
  Buffer.from([0xff, 0xfe, 0x41, 0x0a]), // invalid UTF-8 survives as bytes
  Buffer.from('%end 1796223171 273 1\n'),
  Buffer.from('%begin 1796223171 274 1\nparse error: unknown command: bogus\n%error 1796223171 274 1\n'),
  Buffer.from('%layout-change @0 b25d,80x24,0,0,0 b25d,80x24,0,0,0 *\n'),
  Buffer.from('%extended-output %1 12 : late\\040text\n'),
  Buffer.from('%future-notification with args\n'),
  Buffer.from('%exit detached\n'),
]);

function parseAll(chunks: Buffer[]): ControlEvent[] {
  const events: ControlEvent[] = [];
  const parser = new ControlParser((event) => events.push(event));
  for (const chunk of chunks) parser.push(chunk);
  return events;
}

function normalise(events: ControlEvent[]) {
  return events.map((event) =>
    event.type === 'reply'
      ? { ...event, reply: { ...event.reply, lines: event.reply.lines.map((line) => line.toString('hex')) } }
      : event.type === 'output'
        ? { ...event, data: event.data.toString('hex') }
        : event,
  );
}

test('parses a recorded stream into replies, output and notifications', () => {
  const events = parseAll([RECORDED]);
  const replies = events.filter((e) => e.type === 'reply');
  assert.equal(replies.length, 3);
  const [attach, listing, failed] = replies.map((e) => (e as Extract<ControlEvent, { type: 'reply' }>).reply);
  assert.equal(attach!.flags, 0);
  assert.equal(listing!.ok, true);
  assert.deepEqual(
    listing!.lines.map((line) => line.toString('latin1')),
    ['first line', '%end 1796223171 999 1', '%end 1796223171 273 0', 'name with \t tab', '\xff\xfeA'],
  );
  assert.equal(failed!.ok, false);
  assert.equal(failed!.lines[0]!.toString(), 'parse error: unknown command: bogus');

  const output = events.filter((e) => e.type === 'output') as Array<Extract<ControlEvent, { type: 'output' }>>;
  assert.deepEqual(
    output.map((e) => e.paneId),
    ['%0', '%0', '%1'],
  );
  assert.equal(output[0]!.data.toString(), 'root@vm:~# \x1b[?2004h');
  assert.equal(output[1]!.data.toString('utf8'), 'café \\n ok\r\n');
  assert.equal(output[2]!.data.toString(), 'late text');
  // How long tmux held it (pause-after mode); plain %output carries none.
  assert.deepEqual(
    output.map((e) => e.ageMs),
    [0, 0, 12],
  );

  const notes = events.filter((e) => e.type === 'notification') as Array<Extract<ControlEvent, { type: 'notification' }>>;
  assert.deepEqual(
    notes.map((n) => n.name),
    ['session-changed', 'layout-change', 'future-notification'],
  );
  assert.equal(notes[2]!.args, 'with args');
  assert.deepEqual(events.at(-1), { type: 'exit', reason: 'detached' });
});

test('every split of the stream into two or three chunks gives the same events', () => {
  const whole = JSON.stringify(normalise(parseAll([RECORDED])));
  for (let i = 0; i <= RECORDED.length; i++) {
    assert.equal(JSON.stringify(normalise(parseAll([RECORDED.subarray(0, i), RECORDED.subarray(i)]))), whole, `split at ${i}`);
  }
  for (let i = 0; i <= RECORDED.length; i += 7) {
    for (let j = i; j <= RECORDED.length; j += 5) {
      const chunks = [RECORDED.subarray(0, i), RECORDED.subarray(i, j), RECORDED.subarray(j)];
      assert.equal(JSON.stringify(normalise(parseAll(chunks))), whole, `split at ${i},${j}`);
    }
  }
});

test('byte-at-a-time feeding gives the same events', () => {
  const whole = JSON.stringify(normalise(parseAll([RECORDED])));
  const bytes = [...RECORDED].map((byte) => Buffer.from([byte]));
  assert.equal(JSON.stringify(normalise(parseAll(bytes))), whole);
});

test('octal escapes: every byte value round-trips, malformed escapes pass through', () => {
  const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  let escaped = '';
  for (const byte of all) escaped += byte < 0x20 || byte === 0x5c ? '\\' + byte.toString(8).padStart(3, '0') : String.fromCharCode(byte);
  assert.deepEqual(unescapeOctal(Buffer.from(escaped, 'latin1')), all);
  assert.equal(unescapeOctal(Buffer.from('a\\9b\\01')).toString(), 'a\\9b\\01');
  assert.equal(unescapeOctal(Buffer.from('trailing\\')).toString(), 'trailing\\');
});

test('output for panes nobody watches is skipped without decoding', () => {
  const events: ControlEvent[] = [];
  const parser = new ControlParser((e) => events.push(e), { wantsOutput: (pane) => pane === '%1' });
  parser.push(Buffer.from('%output %0 ignored\n%output %1 kept\n'));
  assert.deepEqual(
    events.map((e) => (e.type === 'output' ? e.paneId : e.type)),
    ['%1'],
  );
});

test('a line longer than the limit is cut, not grown without bound', () => {
  const events: ControlEvent[] = [];
  const parser = new ControlParser((e) => events.push(e), { maxLineBytes: 64 });
  parser.push(Buffer.from('%output %0 '));
  for (let i = 0; i < 100; i++) parser.push(Buffer.alloc(1000, 0x61));
  parser.push(Buffer.from('\n%exit\n'));
  const output = events[0] as Extract<ControlEvent, { type: 'output' }>;
  assert.equal(output.type, 'output');
  assert.ok(output.data.length <= 64);
  assert.equal(events[1]!.type, 'exit');
});

test('a reply is bounded in lines', () => {
  const events: ControlEvent[] = [];
  const parser = new ControlParser((e) => events.push(e), { maxReplyLines: 3 });
  parser.push(Buffer.from('%begin 1 2 1\na\nb\nc\nd\ne\n%end 1 2 1\n'));
  const reply = (events[0] as Extract<ControlEvent, { type: 'reply' }>).reply;
  assert.equal(reply.lines.length, 3);
});
