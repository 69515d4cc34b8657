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
const PROFILES = ['libtmux', 'python', 'julia'] as const;

/** Spawn to the first tools/list answer, in ms, and the server's CPU by then. */
async function startOnce(which: 'ours' | 'noop' | 'bare', args: string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; cpu: number }> {
  const { command, args: argv } = McpDriver.command(which, args);
  const started = performance.now();
  const driver = await McpDriver.start(command, argv, env);
  const took = performance.now() - started;
  const cpu = driver.cpuNs() / 1e6;
  await driver.close();
  return { ms: took, cpu };
}

export async function coldStartScenario(base: Base): Promise<void> {
  const t = table(
    'Cold start',
    'From spawning the server (node + script) to the answer of the first tools/list through the SDK client (initialize, then ' +
      'tools/list), against the running bench tmux server. Each round starts, in turn (every other round in reverse): for each ' +
      'profile ours and a bare Node process answering initialize and tools/list with that profile\'s tools/list bytes and no SDK ' +
      `(bench/bare-responder.ts, the floor of any Node server); and the no-op SDK server. CPU: the server's CPU time by then (all ` +
      `threads). Target: ours at most ${START_OVER_BARE} x the bare responder, in every profile (p50, same run).`,
  );
  const starts: Array<{ name: string; which: 'ours' | 'noop' | 'bare'; args: string[]; ms: number[]; cpu: number[] }> = [];
  for (const profile of PROFILES) {
    const ours = await McpDriver.ours(base.tmux.env, [], ['--profile', profile]);
    const file = join(base.tmux.dir, `tools-${profile}.json`);
    writeFileSync(file, JSON.stringify(await ours.client.listTools()));
    await ours.close();
    starts.push({ name: `${profile}: bare Node responder`, which: 'bare', args: [file], ms: [], cpu: [] });
    starts.push({ name: `${profile}: ours (dist/cli.js --profile ${profile})`, which: 'ours', args: ['--profile', profile], ms: [], cpu: [] });
  }
  starts.push({ name: 'no-op SDK server', which: 'noop', args: [], ms: [], cpu: [] });
  for (const start of starts) await startOnce(start.which, start.args, base.tmux.env); // disk caches warm for all
  for (let round = 0; round < opts.startRuns; round++) {
    for (const start of round % 2 ? [...starts].reverse() : starts) {
      const { ms: took, cpu } = await startOnce(start.which, start.args, base.tmux.env);
      start.ms.push(took);
      start.cpu.push(cpu);
    }
  }
  const cpuNote = (cpu: number[]) => `server CPU p50 ${ms(summarize(cpu).p50)} ms`;
  for (let i = 0; i < PROFILES.length; i++) {
    const [bare, ours] = [starts[2 * i]!, starts[2 * i + 1]!];
    const floor = summarize(bare.ms);
    const summary = summarize(ours.ms);
    addRow(t, { name: bare.name, summary: floor, ratio: 1, note: cpuNote(bare.cpu) });
    addRow(t, {
      name: ours.name,
      summary,
      ratio: summary.p50 / floor.p50,
      target: floor.p50 * START_OVER_BARE,
      goal: `${START_OVER_BARE} x bare responder`,
      floorValue: floor.p50,
      note: cpuNote(ours.cpu),
    });
  }
  const noop = starts.at(-1)!;
  const noopSummary = summarize(noop.ms);
  addRow(t, { name: noop.name, summary: noopSummary, ratio: noopSummary.p50 / summarize(starts[0]!.ms).p50, note: `informational; ${cpuNote(noop.cpu)}` });
}
