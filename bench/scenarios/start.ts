/** Cold start: spawn to the first tools/list answer, each profile against a bare Node responder serving its bytes. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Base } from '../base.js';
import { McpDriver } from '../mcp.js';
import { opts } from '../options.js';
import { addRow, table } from '../report.js';
import { ms, summarize } from '../stats.js';

/** Ours may take at most this many times the bare responder (p50, same run). */
const START_OVER_BARE = 1.5;

export async function coldStartScenario(base: Base): Promise<void> {
  const t = table(
    'Cold start',
    `Spawn to the answer of the first tools/list through the SDK client, rounds in alternating order (method: bench/notes.md). ` +
      `CPU: the server's by then. Target: ours <= ${START_OVER_BARE} x the bare responder serving the same bytes, every profile.`,
  );
  const starts: Array<{ name: string; args: string[]; ms: number[]; cpu: number[] }> = [];
  const start = (name: string, args: string[]) => starts.push({ name, args, ms: [], cpu: [] });
  for (const profile of ['libtmux', 'python', 'julia']) {
    const ours = await McpDriver.ours(base.tmux.env, [], ['--profile', profile]);
    const file = join(base.tmux.dir, `tools-${profile}.json`);
    writeFileSync(file, JSON.stringify(await ours.client.listTools()));
    await ours.close();
    start(`${profile}: bare Node responder`, [McpDriver.script('bare'), file]);
    start(`${profile}: ours (dist/cli.js --profile ${profile})`, [McpDriver.script('ours'), '--profile', profile]);
  }
  start('no-op SDK server', [McpDriver.script('noop')]);
  for (let round = -1; round < opts.startRuns; round++) {
    for (const each of round % 2 === 1 ? [...starts].reverse() : starts) {
      const started = performance.now();
      const driver = await McpDriver.start(process.execPath, each.args, base.tmux.env);
      const took = performance.now() - started;
      const cpu = driver.cpuNs() / 1e6;
      await driver.close();
      if (round < 0) continue; // disk caches warm for all
      each.ms.push(took);
      each.cpu.push(cpu);
    }
  }
  const [bareLibtmux] = starts.map((each) => summarize(each.ms));
  for (const [i, each] of starts.entries()) {
    const summary = summarize(each.ms);
    const cpu = `server CPU p50 ${ms(summarize(each.cpu).p50)} ms`;
    if (i === starts.length - 1) addRow(t, { name: each.name, summary, ratio: summary.p50 / bareLibtmux!.p50, note: `informational; ${cpu}` });
    else if (i % 2 === 0) addRow(t, { name: each.name, summary, ratio: 1, note: cpu });
    else {
      const bare = summarize(starts[i - 1]!.ms).p50;
      addRow(t, { name: each.name, summary, ratio: summary.p50 / bare, target: bare * START_OVER_BARE, goal: `${START_OVER_BARE} x bare responder`, floorValue: bare, note: cpu });
    }
  }
}
