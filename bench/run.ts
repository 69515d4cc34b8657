/**
 * `npm run bench`: what a user of the built server feels, beside the no-op SDK server and the peer
 * servers' ways of working, all in the same run, on private tmux servers through the official SDK
 * client. Prints each table as it goes, then the checks against the issue's targets, and writes
 * bench/RESULTS.md. `--only NAME,...` runs some scenarios, `--quick` a few samples of each; `--help`.
 */
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { baseServer, type Base } from './base.js';
import { holdLowLatencyIdle } from './idle.js';
import { useCli } from './mcp.js';
import { opts, type ScenarioName } from './options.js';
import { checkSummary, machine, report } from './report.js';
import { approvalsScenario } from './scenarios/approvals.js';
import { callsScenario } from './scenarios/calls.js';
import { httpScenario } from './scenarios/http.js';
import { memoryScenario } from './scenarios/memory.js';
import { panesScenario } from './scenarios/panes.js';
import { runScenario } from './scenarios/run.js';
import { shellsScenario } from './scenarios/shells.js';
import { startScenario } from './scenarios/start.js';
import { waitScenario } from './scenarios/wait.js';

const SCENARIOS: Record<ScenarioName, (base: Base) => Promise<void>> = {
  calls: callsScenario,
  run: runScenario,
  shells: shellsScenario,
  wait: waitScenario,
  panes: panesScenario,
  start: startScenario,
  memory: memoryScenario,
  http: httpScenario,
  approvals: approvalsScenario,
};

async function main(): Promise<void> {
  if (opts.cli) useCli(opts.cli);
  const started = performance.now();
  const idle = holdLowLatencyIdle(opts.lowLatencyIdle);
  const machineLines = machine(idle);
  console.log(machineLines.join('\n'));
  const base = await baseServer();
  try {
    for (const [name, scenario] of Object.entries(SCENARIOS)) {
      if (!opts.only.has(name as ScenarioName)) continue;
      const began = performance.now();
      await scenario(base);
      console.log(`  (${name}: ${((performance.now() - began) / 1000).toFixed(0)} s)`);
    }
  } finally {
    base.tmux.dispose();
    idle.release();
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`\n## Checks\n${checkSummary()}\n\ndone in ${seconds.toFixed(0)} s`);
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
