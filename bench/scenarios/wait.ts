/** A wait's wake-up: from the pane printing the awaited text to the result, ours and the Python way (polling). */
import { BEFORE } from '../before.js';
import { servers, type Base } from '../base.js';
import { sleep } from '../measure.js';
import { ToolError, type McpDriver } from '../mcp.js';
import { opts } from '../options.js';
import { sampled, table } from '../report.js';

/** Time for a wait to be armed before the text is printed (ours attaches a watch; the poller takes its entry snapshot). */
const ARM_MS = 100;

/**
 * One sample: a wait for `MARK-<token>-END`, armed, then `<token>` typed into the marker pane, whose
 * bash prints the line with its wall clock read right before the write. Latency: result received
 * minus that clock. undefined when the wait did not see the line printed after it was armed.
 */
async function wakeUp(
  base: Base,
  wait: (pattern: string) => Promise<{ receivedAt: number; matched: boolean }>,
  token: string,
): Promise<number | undefined> {
  const pending = wait(`MARK-${token}-END`);
  await sleep(ARM_MS);
  await base.tmux.tmux('send-keys', '-t', base.marker, '-l', token, ';', 'send-keys', '-t', base.marker, 'Enter');
  const { receivedAt, matched } = await pending;
  const stamp = new RegExp(`MARK-${token}-END (\\d+\\.\\d+)`).exec(
    await base.tmux.tmux('capture-pane', '-p', '-t', base.marker, '-S', '-50'),
  )?.[1];
  return matched && stamp ? receivedAt - Number(stamp) * 1000 : undefined;
}

export async function waitScenario(base: Base): Promise<void> {
  const row = table(
    "A wait's wake-up: print to result",
    `wait_for_text on a pane where bash prints the awaited line with its own wall clock; the client reads the same clock when the result is parsed. ` +
      `Each wait armed ${ARM_MS} ms before the text is typed; ours and the Python way alternate. The Python way polls every 50 ms, its default.`,
  );
  const { ours, python, close } = await servers(base, ['ours', 'python']);
  const waits: Record<'ours' | 'python', (pattern: string) => Promise<{ receivedAt: number; matched: boolean }>> = {
    ours: async (pattern) => {
      const outcome = await ours.ok('wait_for_text', { paneId: base.marker, patterns: [pattern], timeoutMs: 3000 });
      return { receivedAt: outcome.receivedAt, matched: outcome.structured?.outcome === 'matched' && !outcome.structured.matchedAtEntry };
    },
    python: async (pattern) => {
      const outcome = await python.ok('wait_for_text', { pane_id: base.marker, patterns: [pattern], timeout: 3 });
      return { receivedAt: outcome.receivedAt, matched: outcome.structured?.result?.outcome === 'matched' };
    },
  };
  const samples = { ours: [] as number[], python: [] as number[] };
  const missed = { ours: 0, python: 0 };
  try {
    const warm = 3;
    for (let i = 0; i < opts.sizes.waitSamples + warm; i++) {
      for (const side of i % 2 ? (['python', 'ours'] as const) : (['ours', 'python'] as const)) {
        const latency = await wakeUp(base, waits[side], `${process.pid}${side[0]}${i}`);
        if (latency === undefined) missed[side]++;
        else if (i >= warm) samples[side].push(latency);
      }
    }
    if (samples.ours.length === 0 || samples.python.length === 0)
      throw new ToolError(`wait_for_text: no sample (missed: ${JSON.stringify(missed)})`);
    const note = (side: keyof typeof missed) =>
      missed[side] ? `${missed[side]} samples left out: the wait was not armed in time` : undefined;
    row(sampled('ours: wait_for_text, print -> result', samples.ours, { before: BEFORE.wait, note: note('ours') }));
    row(sampled("Python libtmux-mcp's way: wait_for_text polling every 50 ms", samples.python, { note: note('python') }));
  } finally {
    await close();
  }
}
