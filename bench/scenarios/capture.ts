/** capture_pane against history size. */
import { fillCommand, type Base, type Floor } from '../base.js';
import { toolRow } from '../measure.js';
import { McpDriver } from '../mcp.js';
import { opts } from '../options.js';
import { until } from '../../test/fixture/until.js';
import { table } from '../report.js';
import { fitLine, ms, steps } from '../stats.js';


export async function captureScenario(base: Base, { summary: floor }: Floor): Promise<void> {
  const t = table(
    'capture_pane growth with history size',
    'capture_pane with start=-N (tmux captures the whole range; the answer keeps the newest 200 rows). Rows are 70 characters.',
  );
  const height = 50;
  const panes: Array<[number, string]> = [];
  for (const lines of opts.lines) panes.push([lines, await base.tmux.newWindow('bench', fillCommand(lines + height))]);
  for (const [lines, pane] of panes) {
    await until(`history of ${pane} to reach ${lines}`, async () => Number(await base.tmux.tmux('display-message', '-p', '-t', pane, '#{history_size}')) >= lines, 60_000);
  }
  const driver = await McpDriver.ours(base.tmux.env);
  const points: Array<[number, number]> = [];
  try {
    for (const [lines, pane] of panes) {
      const row = await toolRow(t, driver, `capture_pane start=-${lines}`, 'capture_pane', () => ({ paneId: pane, start: -lines }), {
        floor: floor.p50,
        iterations: lines >= 100_000 ? 30 : lines >= 10_000 ? 100 : opts.iterations,
        warmup: 3,
      });
      if (row.summary) points.push([lines, row.summary.p50]);
    }
  } finally {
    await driver.close();
  }
  if (points.length >= 2) {
    const { slope, intercept } = fitLine(points);
    t.after.push(
      `Growth: ${steps(points, 'lines', 'line')}; least-squares line: ${ms(intercept)} ms + ${(slope * 1000).toFixed(3)} ms per 1,000 captured lines.`,
    );
    console.log('  ' + t.after.at(-1));
  }
}

