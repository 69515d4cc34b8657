/** Cold start: spawn to the first tools/list answer. */
import { performance } from 'node:perf_hooks';
import type { Base } from '../base.js';
import { McpDriver } from '../mcp.js';
import { opts } from '../options.js';
import { addRow, table } from '../report.js';
import { ms, summarize } from '../stats.js';


/** Cold start to the first tools/list answer: at most the floor's + this (ms). */
const START_OVER_FLOOR_MS = 40;

/** Spawn to the first tools/list answer, in ms, and the server's CPU by then. */
async function startOnce(which: 'ours' | 'floor', env: NodeJS.ProcessEnv): Promise<{ ms: number; cpu: number }> {
  const { command, args } = McpDriver.command(which);
  const started = performance.now();
  const driver = await McpDriver.start(command, args, env);
  const took = performance.now() - started;
  const cpu = driver.cpuNs() / 1e6;
  await driver.close();
  return { ms: took, cpu };
}

export async function coldStartScenario(base: Base): Promise<void> {
  const t = table(
    'Cold start',
    'From spawning the server (node + script) to the answer of the first tools/list through the SDK client (initialize, then ' +
      'tools/list), ours and the no-op floor alternately, against the running bench tmux server. CPU: the server process\'s CPU ' +
      `time by then (all threads), in ms. Target: ours at most the floor + ${START_OVER_FLOOR_MS} ms.`,
  );
  const ours: number[] = [];
  const floor: number[] = [];
  const oursCpu: number[] = [];
  const floorCpu: number[] = [];
  await startOnce('ours', base.tmux.env); // disk caches warm for both
  await startOnce('floor', base.tmux.env);
  for (let i = 0; i < opts.startRuns; i++) {
    const a = await startOnce('ours', base.tmux.env);
    const b = await startOnce('floor', base.tmux.env);
    ours.push(a.ms);
    oursCpu.push(a.cpu);
    floor.push(b.ms);
    floorCpu.push(b.cpu);
  }
  const floorSummary = summarize(floor);
  addRow(t, { name: 'floor: no-op SDK server', summary: floorSummary, ratio: 1, note: `server CPU p50 ${ms(summarize(floorCpu).p50)} ms` });
  addRow(t, {
    name: 'ours (dist/cli.js), to the first tools/list',
    summary: summarize(ours),
    ratio: summarize(ours).p50 / floorSummary.p50,
    target: floorSummary.p50 + START_OVER_FLOOR_MS,
    goal: `floor + ${START_OVER_FLOOR_MS} ms`,
    floorValue: floorSummary.p50,
    note: `server CPU p50 ${ms(summarize(oursCpu).p50)} ms`,
  });
}

