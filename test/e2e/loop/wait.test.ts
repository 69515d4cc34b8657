/**
 * The everyday loop of an agent, against real tmux through the SDK client: send keys, then wait for
 * the answer. No sleeps: where a test needs output to have arrived before
 * a wait begins, it waits for tmux to show it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { privateTmux, type PrivateTmux } from '../../fixture/tmux.js';
import { startMcp } from '../../fixture/mcp.js';
import { ownSession, sharedMcp } from '../../fixture/shared.js';
import { until } from '../../fixture/until.js';

type T = Parameters<typeof privateTmux>[0] & { after: (fn: () => Promise<void> | void) => void };

/** Until the pane's screen shows `text` (each check one tmux command). */
async function untilOnScreen(tmux: PrivateTmux, pane: string, text: RegExp): Promise<void> {
  await until(`${text} to show in ${pane}`, async () => text.test(await tmux.tmux('capture-pane', '-p', '-t', pane)), 20_000);
}

/** One tmux server and one MCP server for the tests on a standard pane, each on a session of its own. */
const server = sharedMcp();

async function ownPane(t: T) {
  const { tmux, mcp } = await server();
  const { pane } = await ownSession(t, tmux);
  return { tmux, pane, mcp };
}

async function pythonPane(t: T) {
  const { tmux, pane, mcp } = await ownPane(t);
  await mcp.ok('send_keys', { paneId: pane, keys: ['python3 -q', 'Enter'] });
  // The REPL's prompt counts: it is printed after our input.
  const ready = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['>>> '], timeoutMs: 20_000 });
  assert.equal(ready.outcome, 'matched', JSON.stringify(ready));
  return { tmux, pane, mcp };
}

test('send_keys then wait_for_text: an answer printed before the wait began still matches', async (t) => {
  const { tmux, pane, mcp } = await pythonPane(t);
  await mcp.ok('send_keys', { paneId: pane, keys: ['print(6*7)', 'Enter'] });
  // The worst case for the old rule: the answer is already on screen when the wait is called.
  await untilOnScreen(tmux, pane, /^42$/m);
  const result = await mcp.call('wait_for_text', { paneId: pane, patterns: ['42'], timeoutMs: 5000 });
  const r = result.structuredContent as any;
  assert.equal(r.outcome, 'matched', JSON.stringify(r));
  assert.equal(r.matched, '42');
  assert.equal(r.matchedAtEntry, false, 'the answer is new output, not old screen text');
  assert.ok(r.tail.includes('42'), JSON.stringify(r.tail));
  // The text says where new output began and that the match came before the call.
  assert.match(result.content[0]!.text!, /already printed before this call \(since the last input tmux-mcp sent into the pane\)/);
});

test('wait_for_text: a second wait does not match what the first reported; new input starts a new round', async (t) => {
  const { pane, mcp } = await pythonPane(t);
  await mcp.ok('send_keys', { paneId: pane, keys: ['print(6*7)', 'Enter'] });
  const first = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['42'], timeoutMs: 20_000 });
  assert.equal(first.outcome, 'matched');

  const again = await mcp.call('wait_for_text', { paneId: pane, patterns: ['42'], timeoutMs: 300 });
  const r = again.structuredContent as any;
  assert.equal(r.outcome, 'timedOut', 'the 42 the first wait reported is not new any more');
  assert.equal(r.matchedAtEntry, true);
  assert.match(again.content[0]!.text!, /since the previous wait on this pane stopped/);

  // What the pane prints after the first wait stopped is new to the next one, printed before it or not.
  await mcp.ok('send_keys', { paneId: pane, keys: ['print(6*7)', 'Enter'] });
  const second = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['42'], timeoutMs: 20_000 });
  assert.equal(second.outcome, 'matched');
});

test('wait_for_text: in a pane this server never typed into, only output after the call counts; input from elsewhere is output like any other', async (t) => {
  const { tmux, pane, mcp } = await ownPane(t);
  // Someone else types and the answer arrives before any wait: it is old screen text.
  await tmux.typeAndWait(pane, 'echo ELSE-$((40+2))');
  const old = await mcp.call('wait_for_text', { paneId: pane, patterns: ['ELSE-42'], timeoutMs: 300 });
  assert.equal((old.structuredContent as any).outcome, 'timedOut');
  assert.equal((old.structuredContent as any).matchedAtEntry, true);
  assert.match(old.content[0]!.text!, /since this wait began/);
  // After that wait, what anyone makes the pane print counts for the next wait, even before it is called.
  await tmux.typeAndWait(pane, 'echo ELSE-$((50+5))');
  const next = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['ELSE-55'], timeoutMs: 5000 });
  assert.equal(next.outcome, 'matched');
});

test('wait_for_text with a capture_since cursor: tail repeats no line where the screen backlog and the live stream meet', async (t) => {
  const tmux = privateTmux(t);
  const pane = await tmux.start({ height: 50 });
  const mcp = await startMcp(t, { env: tmux.env });
  // A pane printing numbered lines steadily, so output keeps arriving while each wait starts.
  await tmux.tmux('send-keys', '-t', pane, '-l', 'i=0; while [ $i -lt 4000 ]; do i=$((i+1)); echo n=$i; sleep 0.001; done\n');
  await untilOnScreen(tmux, pane, /^n=1$/m);
  for (let round = 0; round < 12; round++) {
    const { cursor } = await mcp.ok('capture_since', { paneId: pane });
    // Any new output ends the wait at once; its tail joins rows read from the screen and lines from the stream.
    await untilOnScreen(tmux, pane, /^n=\d+$/m);
    const r = await mcp.ok('wait_for_text', { paneId: pane, patterns: ['n='], cursor, maxLines: 2000, timeoutMs: 10_000 });
    assert.equal(r.outcome, 'matched');
    const numbers = (r.tail as string[]).filter((line) => /^n=\d+$/.test(line)).map((line) => Number(line.slice(2)));
    for (let i = 1; i < numbers.length; i++) {
      assert.equal(numbers[i], numbers[i - 1]! + 1, `round ${round}: tail must run on without repeats or gaps: ${JSON.stringify(r.tail)}`);
    }
  }
  await tmux.tmux('send-keys', '-t', pane, 'C-c');
});
