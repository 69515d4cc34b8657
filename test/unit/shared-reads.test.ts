/**
 * Identical listings share replies (tmux/shared-reads.ts): at once always; on a host also for
 * FRESH_MS after one was asked, while nothing was sent to that tmux and it told of no change (the
 * stamp). Driven by a counting reader: what is under test is when a read goes out, not tmux.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { FRESH_MS, SharedReads } from '../../src/tmux/shared-reads.js';

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

test('identical reads asked at once share a reply; without a stamp (this machine) a later read is asked anew', async () => {
  const reads = new SharedReads();
  const { counter, execute } = reader(5);
  const [a, b] = await Promise.all([reads.read(LIST, {}, execute), reads.read(LIST, {}, execute)]);
  assert.equal(counter.sent, 2, 'the second waits for the first and is asked once it ends');
  assert.deepEqual([a, b], [['reply-1'], ['reply-2']]);
  assert.deepEqual(await reads.read(LIST, {}, execute), ['reply-3']);
});

test('on a host a reply answers identical reads within FRESH_MS while the stamp holds, each with its own copy', async () => {
  let stamp = '1 0 0';
  const reads = new SharedReads(() => stamp);
  const { counter, execute } = reader();
  const first = await reads.read(LIST, {}, execute);
  const again = await reads.read(LIST, {}, execute);
  assert.equal(counter.sent, 1, 'kept: no second read went out');
  assert.deepEqual(again, first);
  again.push('changed by the caller');
  assert.deepEqual(await reads.read(LIST, {}, execute), ['reply-1'], 'a caller changing its copy changes no one else\'s');
  assert.deepEqual(await reads.read(['list-panes', '-a'], {}, execute), ['reply-2'], 'another command is its own read');
  stamp = '1 0 1'; // a command went to that tmux
  assert.deepEqual(await reads.read(LIST, {}, execute), ['reply-3'], 'anything sent since makes it old');
  stamp = '1 1 1'; // tmux told of a change
  assert.deepEqual(await reads.read(LIST, {}, execute), ['reply-4']);
  stamp = '2 1 1'; // a new connection
  assert.deepEqual(await reads.read(LIST, {}, execute), ['reply-5']);
  assert.deepEqual(await reads.read(LIST, {}, execute), ['reply-5'], 'and the new reply is kept in turn');
  await sleep(FRESH_MS + 10);
  assert.deepEqual(await reads.read(LIST, {}, execute), ['reply-6'], 'past FRESH_MS from when it was asked, it is asked anew');
  assert.equal(counter.sent, 6);
});

test('on a host a reply is not kept when the stamp changed while it was out, or when there was no connection', async () => {
  let stamp: string | undefined = '1 0 0';
  const reads = new SharedReads(() => stamp);
  let release!: () => void;
  let n = 0;
  const slow = async () => {
    n++;
    await new Promise<void>((resolve) => (release = resolve));
    return [`reply-${n}`];
  };
  const out = reads.read(LIST, {}, slow);
  stamp = '1 0 1'; // sent while the read was on its way: it may have changed what the read shows
  release();
  assert.deepEqual(await out, ['reply-1']);
  const next = reads.read(LIST, {}, slow);
  release();
  assert.deepEqual(await next, ['reply-2'], 'asked anew');
  stamp = undefined;
  const unconnected = reads.read(LIST, {}, slow);
  release();
  await unconnected;
  stamp = '1 0 1';
  const after = reads.read(LIST, {}, slow);
  release();
  assert.deepEqual(await after, ['reply-4'], 'a reply read with no connection is not kept');
});

test('a failed read is not kept', async () => {
  const reads = new SharedReads(() => '1 0 0');
  let fail = true;
  const execute = async () => {
    if (fail) throw new Error('tmux did not answer');
    return ['ok'];
  };
  await assert.rejects(reads.read(LIST, {}, execute), /did not answer/);
  fail = false;
  assert.deepEqual(await reads.read(LIST, {}, execute), ['ok']);
});

test('replies of many different listings do not pile up: old ones go as new ones are kept', async () => {
  const reads = new SharedReads(() => '1 0 0');
  const { execute } = reader();
  for (let i = 0; i < 40; i++) await reads.read(['list-windows', '-t', `$${i}`], {}, execute);
  await sleep(FRESH_MS + 10);
  for (let i = 40; i < 80; i++) await reads.read(['list-windows', '-t', `$${i}`], {}, execute);
  assert.ok(reads.kept <= 40, `${reads.kept} replies kept`);
});
