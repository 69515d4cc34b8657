/**
 * Identical listings asked at once share replies (tmux/shared-reads.ts), and each is answered by a
 * reply asked for after it was: nothing is kept once a read has ended. Driven by a counting reader:
 * what is under test is when a read goes out, not tmux.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { SharedReads } from '../../src/tmux/shared-reads.js';

const LIST = ['list-panes', '-a', '-F', '#{pane_id}'];

/** A reader that answers `reply-N` for its N-th read, after `delayMs`; `sent` counts the reads. */
function reader(delayMs = 0) {
  const counter = { sent: 0 };
  const execute = async () => {
    const n = ++counter.sent;
    if (delayMs) await sleep(delayMs);
    return [`reply-${n}`];
  };
  return { counter, execute };
}

test('a read asked while an identical one is in flight is answered by the next read, which every read asked meanwhile shares', async () => {
  const reads = new SharedReads();
  const { counter, execute } = reader(5);
  const [a, b, c] = await Promise.all([reads.read(LIST, {}, execute), reads.read(LIST, {}, execute), reads.read(LIST, {}, execute)]);
  assert.equal(counter.sent, 2, 'the first, then one for the two asked while it was out');
  assert.deepEqual([a, b, c], [['reply-1'], ['reply-2'], ['reply-2']]);
  b.push('changed by the caller');
  assert.deepEqual(c, ['reply-2'], 'each caller has its own copy');
});

test('nothing is kept: a read asked after the last one ended goes to tmux, and another command is its own read', async () => {
  const reads = new SharedReads();
  const { counter, execute } = reader();
  assert.deepEqual(await reads.read(LIST, {}, execute), ['reply-1']);
  assert.deepEqual(await reads.read(LIST, {}, execute), ['reply-2']);
  assert.deepEqual(await reads.read(['list-panes', '-a'], {}, execute), ['reply-3']);
  assert.equal(counter.sent, 3);
});

test('a failed read answers only those who shared it', async () => {
  const reads = new SharedReads();
  let fail = true;
  const execute = async () => {
    if (fail) throw new Error('tmux did not answer');
    return ['ok'];
  };
  await assert.rejects(reads.read(LIST, {}, execute), /did not answer/);
  fail = false;
  assert.deepEqual(await reads.read(LIST, {}, execute), ['ok']);
});
