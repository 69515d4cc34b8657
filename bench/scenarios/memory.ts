/** Memory while a pane prints a flood of output. */
import { performance } from 'node:perf_hooks';
import type { Base } from '../base.js';
import { sleep } from '../measure.js';
import { McpDriver } from '../mcp.js';
import { opts } from '../options.js';
import { addRow, table } from '../report.js';

/** Node flags of the capped run: a 48 MiB old generation, 2 MiB semi-spaces. */
const CAPPED_HEAP = ['--max-old-space-size=48', '--max-semi-space-size=2'];

export async function memoryScenario(base: Base): Promise<void> {
  const t = table(
    `Memory while a pane prints ${opts.floodMb} MB`,
    `\`head -c N /dev/urandom | base64\` in a pane while a wait_for_text on it waits for the line after; VmRSS sampled every 20 ms. ` +
      `Run 1: as shipped. Run 2: ${Math.ceil(opts.floodMb / 3)} MB with the heap capped (node ${CAPPED_HEAP.join(' ')}): were the live data unbounded ` +
      'it would run out of heap. Target (bounded): run 2 matched, its peak within 16 MiB of its RSS before.',
  );
  const shipped = await flood(base, opts.floodMb);
  if (!shipped) {
    addRow(t, { name: 'RSS during the flood', unavailable: true, target: 16, unit: 'MiB' });
    return;
  }
  addRow(t, { name: `run 1 (as shipped, ${opts.floodMb} MB): RSS before`, value: shipped.before, unit: 'MiB' });
  addRow(t, { name: `run 1: peak RSS during the flood`, value: shipped.peak, unit: 'MiB', note: shipped.note });
  const capped = await flood(base, Math.ceil(opts.floodMb / 3), CAPPED_HEAP);
  if (!capped) return;
  addRow(t, { name: `run 2 (heap capped, ${Math.ceil(opts.floodMb / 3)} MB): RSS before`, value: capped.before, unit: 'MiB' });
  addRow(t, {
    name: 'run 2: peak RSS growth over before (bounded live memory)',
    value: capped.matched ? capped.peak - capped.before : undefined,
    error: capped.matched ? undefined : `the capped run did not match: ${capped.note}`,
    unit: 'MiB',
    target: 16,
    note: capped.note,
  });
}

async function flood(base: Base, megabytes: number, args: string[] = []) {
  const raw = Math.floor((megabytes * 1_000_000 * 3) / 4 / (77 / 76)); // base64 wraps at 76: 4/3 growth plus a newline per 76 chars
  const driver = await McpDriver.ours(base.tmux.env, args);
  try {
    if (!driver.has('wait_for_text')) return undefined;
    await driver.call('list_panes', {});
    await sleep(100);
    const before = driver.memory();
    let peak = before;
    const sampler = setInterval(() => {
      try {
        peak = Math.max(peak, driver.memory());
      } catch {
        // the process may be gone; the call result will say why
      }
    }, 20);
    const pending = driver.call('wait_for_text', { paneId: base.flood, patterns: ['FLOOD-2-DONE'], timeoutMs: 300_000 }, 320_000);
    await sleep(100);
    const started = performance.now();
    await base.tmux.tmux('send-keys', '-t', base.flood, '-l', `head -c ${raw} /dev/urandom | base64; echo FLOOD-$((1+1))-DONE`, ';', 'send-keys', '-t', base.flood, 'Enter');
    const outcome = await pending.catch((error: Error) => ({ isError: true, text: error.message, structured: undefined, ms: 0 }));
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const s = outcome.structured as { outcome?: string } | undefined;
    const note = outcome.isError
      ? `wait failed: ${outcome.text.slice(0, 120)}`
      : `wait outcome ${s?.outcome}; ${seconds.toFixed(1)} s, ~${(megabytes / seconds).toFixed(1)} MB/s`;
    await base.tmux.tmux('send-keys', '-t', base.flood, 'clear', 'Enter');
    await base.tmux.tmux('clear-history', '-t', base.flood);
    return { before, peak, note, matched: !outcome.isError && s?.outcome === 'matched' };
  } finally {
    await driver.close();
  }
}

