/**
 * `npm run bench`: latency and memory of the built server against private tmux servers through the
 * official SDK Client, each beside its reference measured in the same run. Prints each table as it
 * goes and writes bench/RESULTS.md. Options: `--help`. One file per scenario in bench/scenarios/.
 */
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { baseServer, floorSummary, type Base, type Floor } from './base.js';
import { holdLowLatencyIdle } from './idle.js';
import { useTmuxPid } from './measure.js';
import { useCli } from './mcp.js';
import { opts } from './options.js';
import { machine, report, targetLines } from './report.js';
import { ms } from './stats.js';
import { captureScenario } from './scenarios/capture.js';
import { fastScenario } from './scenarios/fast.js';
import { growthScenario } from './scenarios/growth.js';
import { hostsScenario } from './scenarios/hosts.js';
import { httpScenario } from './scenarios/http.js';
import { idleMemoryScenario } from './scenarios/idle.js';
import { memoryScenario } from './scenarios/memory.js';
import { oversightScenario } from './scenarios/oversight.js';
import { pythonParity } from './scenarios/parity.js';
import { sshScenario } from './scenarios/ssh.js';
import { coldStartScenario } from './scenarios/start.js';
import { waitScenario } from './scenarios/wait.js';

/** The scenarios in the order they run, on the shared tmux server; growth builds servers of its own. */
const SCENARIOS: ReadonlyArray<readonly [string, (base: Base, floor: Floor) => Promise<void>]> = [
  ['fast', fastScenario],
  ['parity', pythonParity],
  ['http', httpScenario],
  ['oversight', oversightScenario],
  ['idle', idleMemoryScenario],
  ['start', coldStartScenario],
  ['wait', waitScenario],
  ['capture', captureScenario],
  ['memory', memoryScenario],
  ['ssh', sshScenario],
  ['hosts', hostsScenario],
];

async function main(): Promise<void> {
  if (opts.cli) useCli(opts.cli);
  const started = performance.now();
  const idle = holdLowLatencyIdle(opts.lowLatencyIdle);
  const machineLines = machine(idle);
  console.log(machineLines.join('\n'));
  const base = await baseServer();
  try {
    useTmuxPid(await base.tmux.serverPid());
    const floor = await floorSummary(base.tmux.env);
    console.log(`floor p50 ${ms(floor.summary.p50)} ms`);
    for (const [name, run] of SCENARIOS) if (opts.only.has(name)) await run(base, floor);
    base.tmux.dispose();
    if (opts.only.has('growth')) await growthScenario(floor.summary);
  } finally {
    base.tmux.dispose();
    idle.release();
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`\n## Targets\n${targetLines().join('\n')}\n\ndone in ${seconds.toFixed(0)} s`);
  if (opts.out !== '-') {
    writeFileSync(opts.out, report(machineLines, seconds));
    console.log(`wrote ${opts.out}`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exit(1);
  },
);
