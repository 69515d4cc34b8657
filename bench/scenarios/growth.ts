/** list_panes and search_panes against pane count, and concurrent clients. */
import { performance } from 'node:perf_hooks';
import { interleave, toolRow, ToolError, useTmuxPid } from '../measure.js';
import { McpDriver } from '../mcp.js';
import { opts } from '../options.js';
import { until } from '../../test/fixture/until.js';
import { addRow, table, type Table } from '../report.js';
import { fitLine, ms, steps, summarize, type Summary } from '../stats.js';
import { BenchTmux, growPaneFarm } from '../tmux.js';

function farmPaneCommand(history: number) {
  // history + the tallest pane (200 rows / 10 panes + borders) so each pane keeps >= history rows of scrollback.
  const total = history + 25;
  const half = Math.floor(total / 2);
  return (i: number) =>
    `seq -f "row %g: quick brown fox" 1 ${half}; ` +
    (i % 10 === 0 ? `echo needle in pane ${i}; ` : '') +
    `seq -f "row %g: quick brown fox" ${half + 1} ${total}; exec cat`;
}

/** Operations of the concurrency table: each client aims at its own pane. */
const CONCURRENT_OPS: Array<{ name: string; tool: string; args: (pane: string) => Record<string, unknown> }> = [
  { name: 'list_panes (whole server)', tool: 'list_panes', args: () => ({}) },
  { name: 'get_pane_info', tool: 'get_pane_info', args: (pane) => ({ paneId: pane }) },
  { name: 'capture_pane', tool: 'capture_pane', args: (pane) => ({ paneId: pane }) },
  { name: 'send_keys (one key + Enter)', tool: 'send_keys', args: (pane) => ({ paneId: pane, keys: ['x'], literal: true, enter: true }) },
];

/** Per-call latencies of `clients` drivers calling `tool` at once, each on its own pane, for about `budgetMs`. */
async function concurrently(drivers: McpDriver[], op: (typeof CONCURRENT_OPS)[number], paneIds: readonly string[], budgetMs: number) {
  const samples: number[] = [];
  const end = performance.now() + budgetMs;
  let failed = '';
  await Promise.all(
    drivers.map(async (driver, k) => {
      const args = op.args(paneIds[k % paneIds.length]!);
      await driver.call(op.tool, args); // warm
      do {
        const outcome = await driver.call(op.tool, args);
        if (outcome.isError) failed = outcome.text;
        samples.push(outcome.ms);
      } while (performance.now() < end);
    }),
  );
  if (failed) throw new ToolError(failed);
  return summarize(samples);
}

export async function growthScenario(floor: Summary): Promise<void> {
  const t = table(
    'Growth with pane count',
    `One tmux server grown to N panes (each with >= ${opts.history} rows of scrollback; method: bench/notes.md); search_panes looks for a literal in every 10th pane. ` +
      'At 200 panes list_panes against the 3-field peer (bench/three-field-server.ts), interleaved; target: ours faster.',
  );
  const listPoints: Array<[number, number]> = [];
  const searchPoints: Array<[number, number]> = [];
  const sizes = [...opts.panes].sort((a, b) => a - b);
  const grid = new Map<string, string>(); // `${op} ${clients} ${panes}` -> p50 cell
  const paneCommand = farmPaneCommand(opts.history);
  const tmux = new BenchTmux();
  const drivers: McpDriver[] = [];
  try {
    await tmux.start({ width: 400, height: 200, command: paneCommand(0) });
    useTmuxPid(await tmux.serverPid());
    let built = 1;
    for (const panes of sizes) {
      const started = performance.now();
      const paneIds = await growPaneFarm(tmux, { from: built, panes, paneCommand });
      built = panes;
      await until(`history of ${panes} panes`, async () => (await tmux.tmux('list-panes', '-a', '-F', '#{history_size}')).trim().split('\n').every((h) => Number(h) >= opts.history), 60_000);
      console.log(`  (grew to ${panes} panes in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
      if (drivers.length === 0) drivers.push(await McpDriver.ours(tmux.env));
      const driver = drivers[0]!;
      const list = await toolRow(t, driver, `list_panes, ${panes} panes`, 'list_panes', () => ({}), { floor: floor.p50, iterations: panes >= 1000 ? 60 : opts.iterations, warmup: 3 });
      if (list.summary) listPoints.push([panes, list.summary.p50]);
      if (panes === 200) await peerListing(t, driver, tmux);
      const search = await toolRow(t, driver, `search_panes, ${panes} panes x ${opts.history} lines`, 'search_panes', () => ({ pattern: 'needle in pane', scrollbackLines: opts.history }), {
        noteOf: (last) =>
          last ? `searched ${last.panesSearched} of ${last.panesAvailable} panes, ${last.matches?.length} matches` + (last.truncated ? `, truncated by ${last.truncatedBy.join('+')}` : '') : '',
        floor: floor.p50,
        target: panes === 200 ? 100 : undefined,
        iterations: panes >= 1000 ? 10 : panes >= 200 ? 30 : 60,
        warmup: 2,
      });
      // Past search_panes' own pane limit the work stops growing: fit only sizes searched whole.
      if (search.summary && search.note?.includes(`searched ${panes} of ${panes}`)) searchPoints.push([panes, search.summary.p50]);
      if (!opts.clientPanes.includes(panes)) continue;
      for (const clients of opts.clients) {
        while (drivers.length < clients) drivers.push(await McpDriver.ours(tmux.env));
        for (const op of CONCURRENT_OPS.filter((each) => driver.has(each.tool))) {
          const summary = await concurrently(drivers.slice(0, clients), op, paneIds, Math.min(opts.budgetMs, 2000)).catch((error: unknown) => {
            if (error instanceof ToolError) return undefined;
            throw error;
          });
          grid.set(`${op.name}\0${clients}\0${panes}`, summary ? `${ms(summary.p50)} (n ${summary.n})` : 'error');
        }
        console.log(`  (${clients} concurrent clients at ${panes} panes: ${CONCURRENT_OPS.map((op) => `${op.tool} ${grid.get(`${op.name}\0${clients}\0${panes}`) ?? '-'}`).join(', ')})`);
      }
      // Only the measured client stays: with 64 idle control clients attached, tmux 3.3 spent
      // ~965 ms of CPU on a 1,000-pane listing that costs it ~63 ms alone; the next rows must not pay that.
      await Promise.all(drivers.splice(1).map((extra) => extra.close()));
    }
  } finally {
    await Promise.all(drivers.map((driver) => driver.close()));
    tmux.dispose();
    useTmuxPid(undefined);
  }
  for (const [tool, points] of [['list_panes', listPoints], ['search_panes', searchPoints]] as const) {
    if (points.length < 2) continue;
    const { slope, intercept } = fitLine(points);
    t.after.push(
      `${tool}: ${steps(points, 'panes', 'pane')}; least-squares line of p50 over ${points.map(([n]) => n).join(', ')} panes` +
        `${tool === 'search_panes' ? ' (the sizes searched whole)' : ''}: ${ms(intercept)} ms + ${(slope * 1000).toFixed(1)} us per pane.`,
    );
    console.log('  ' + t.after.at(-1));
  }
  const columns = sizes.filter((panes) => opts.clientPanes.includes(panes));
  const lines = [
    '### Growth table: p50 ms per call at N panes and C concurrent clients',
    '',
    'C SDK clients, each with its own server process over stdio, calling at once on their own panes (bench/notes.md); p50 over every call.',
    '',
    `| operation | clients | ${columns.map((n) => `${n} panes`).join(' | ')} |`,
    `|---|---|${columns.map(() => '---').join('|')}|`,
  ];
  for (const op of CONCURRENT_OPS) {
    for (const clients of opts.clients) lines.push(`| ${op.name} | ${clients} | ${columns.map((n) => grid.get(`${op.name}\0${clients}\0${n}`) ?? '-').join(' | ')} |`);
  }
  t.after.push(lines.join('\n'));
  console.log(lines.join('\n'));
}

/** list_panes at 200 panes: ours and the 3-field peer, calls interleaved. */
async function peerListing(t: Table, ours: McpDriver, tmux: BenchTmux): Promise<void> {
  const peer = await McpDriver.threeField(tmux.env);
  try {
    const { samples } = await interleave([ours, peer].map((driver) => ({ driver, tool: 'list_panes', args: {} })), Math.min(opts.iterations, 300), 5);
    const [mine, theirs] = samples.map((each) => summarize(each));
    addRow(t, { name: 'peer: 3 fields per pane, tmux spawned per call, 200 panes', summary: theirs!, note: 'bench/three-field-server.ts, interleaved with the next row' });
    addRow(t, {
      name: 'list_panes, 200 panes, every contract field (interleaved with the peer)',
      summary: mine!,
      target: theirs!.p50,
      goal: 'faster than the 3-field peer',
      floorValue: theirs!.p50,
    });
  } finally {
    await peer.close();
  }
}
