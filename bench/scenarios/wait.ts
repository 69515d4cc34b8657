/** wait_for_text: from the pane printing the text to the result. */
import type { Base, Floor } from '../base.js';
import { sleep } from '../measure.js';
import { McpDriver } from '../mcp.js';
import { opts } from '../options.js';
import { addRow, table } from '../report.js';
import { summarize } from '../stats.js';

export async function waitScenario(base: Base, { summary: floor }: Floor): Promise<void> {
  const t = table('wait_for_text: time from print to result', 'From the pane printing the text (its own wall clock) to the result parsed; method: bench/notes.md.');
  const driver = await McpDriver.ours(base.tmux.env);
  try {
    if (!driver.has('wait_for_text')) {
      addRow(t, { name: 'wait_for_text latency after print', unavailable: true, target: 5 });
      return;
    }
    // Cold start (control clients to attach, the pane's output watch to open) happens here, not in a sample.
    await driver.call('wait_for_text', { paneId: base.marker, patterns: ['no such text'], timeoutMs: 100 });
    const armMs = 40;
    const samples: number[] = [];
    const calls: number[] = [];
    let discarded = 0;
    let lastError = '';
    const total = opts.waitIterations + 3;
    for (let i = 0; i < total; i++) {
      const token = `${process.pid}x${i}`;
      const pending = driver.call('wait_for_text', { paneId: base.marker, patterns: [`MARK-${token}-END`], timeoutMs: 3_000 });
      await sleep(i < 3 ? 250 : armMs); // the first waits also open the pane's output stream
      await base.tmux.tmux('send-keys', '-t', base.marker, '-l', token, ';', 'send-keys', '-t', base.marker, 'Enter');
      const outcome = await pending;
      // Taken when the result arrived, not after the trigger's tmux process (awaited above) exited.
      const received = outcome.receivedAt;
      const s = outcome.structured as { outcome?: string; matchedAtEntry?: boolean } | undefined;
      if (outcome.isError || s?.outcome !== 'matched' || s.matchedAtEntry) {
        discarded++;
        lastError = `sample ${i}: ` + (outcome.isError ? outcome.text.slice(0, 160) : `outcome ${s?.outcome}, matchedAtEntry ${s?.matchedAtEntry}`);
        continue;
      }
      const marked = new RegExp(`MARK-${token}-END (\\d+\\.\\d+)`);
      let stamp = marked.exec(outcome.text)?.[1];
      if (!stamp) stamp = marked.exec(await base.tmux.tmux('capture-pane', '-p', '-t', base.marker, '-S', '-50'))?.[1];
      if (!stamp) {
        discarded++;
        lastError = 'no timestamp in the result or on the screen';
        continue;
      }
      if (i < 3) continue; // warm-up
      samples.push(received - Number(stamp) * 1000);
      calls.push(outcome.ms);
    }
    if (samples.length === 0) {
      addRow(t, { name: 'wait_for_text latency after print', error: `no valid sample (${discarded} discarded): ${lastError}`, target: 5 });
      return;
    }
    addRow(t, {
      name: 'wait_for_text: print -> result received',
      summary: summarize(samples),
      target: 5,
      note: `${discarded} discarded${discarded ? ` (last: ${lastError})` : ''}; arm delay ${armMs} ms`,
    });
    const whole = summarize(calls);
    addRow(t, {
      name: 'wait_for_text: whole call (includes the arm delay and trigger)',
      summary: whole,
      ratio: whole.p50 / floor.p50,
      note: 'informational',
    });
  } finally {
    await driver.close();
  }
}

