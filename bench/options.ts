/** The bench's options: flags, or BENCH_<NAME> in the environment. */
import { fileURLToPath } from 'node:url';

export const SCENARIOS = ['start', 'fast', 'parity', 'http', 'oversight', 'idle', 'wait', 'memory', 'capture', 'ssh', 'hosts', 'growth'];

const HELP = `npm run bench -- [options]      (each option also reads BENCH_<NAME> from the environment)
  --iterations N     measured calls per fast tool (default 1000)
  --warmup N         unmeasured calls first, at most half the budget (default 2000: the JIT's steady state)
  --budget-ms N      stop a measurement early once it took this long, keeping >= 5 samples (default 4000)
  --panes LIST       pane counts for the growth farms (default 10,100,200,1000)
  --history N        history lines per farm pane (default 100)
  --lines LIST       history sizes for capture_pane growth (default 100,10000,100000)
  --wait-iterations N  wait_for_text latency samples (default 30)
  --flood-mb N       megabytes printed in the memory test (default 100)
  --only LIST        scenarios to run: start,fast,parity,http,oversight,idle,wait,memory,capture,ssh,hosts,growth (default all)
  --idle-calls LIST  mixed calls before each idle RSS reading (default 1000,10000)
  --start-runs N     cold starts of ours and of the floor, alternately (default 10)
  --clients LIST     concurrent clients for the growth table (default 1,8,64)
  --client-panes LIST  pane counts at which the concurrency table is measured (default 10,100,1000)
  --out FILE         report path (default bench/RESULTS.md; "-" for none)
  --parity-passes N  passes of the python-against-libtmux table, each of four fresh servers (default 16)
  --parity-warmup N  calls of each operation every server of a parity pass makes before it is measured (default 3000)
  --cli FILE         the server to measure (default dist/cli.js), e.g. another build to compare
  --low-latency-idle on|off  hold /dev/cpu_dma_latency at 0 during the run when permitted (default on)`;

function options() {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(HELP);
    process.exit(0);
  }
  const get = (name: string, fallback: string): string => {
    const i = argv.indexOf(`--${name}`);
    if (i !== -1 && argv[i + 1] !== undefined) return argv[i + 1]!;
    return process.env[`BENCH_${name.toUpperCase().replaceAll('-', '_')}`] ?? fallback;
  };
  const list = (name: string, fallback: string) => get(name, fallback).split(',').map((s) => s.trim()).filter(Boolean);
  const int = (name: string, fallback: number) => {
    const value = Number(get(name, String(fallback)));
    if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a non-negative integer`);
    return value;
  };
  return {
    iterations: int('iterations', 1000),
    warmup: int('warmup', 2000),
    budgetMs: int('budget-ms', 4000),
    panes: list('panes', '10,100,200,1000').map(Number),
    history: int('history', 100),
    lines: list('lines', '100,10000,100000').map(Number),
    waitIterations: int('wait-iterations', 30),
    floodMb: int('flood-mb', 100),
    only: new Set(list('only', SCENARIOS.join(','))),
    idleCalls: list('idle-calls', '1000,10000').map(Number),
    startRuns: int('start-runs', 10),
    clients: list('clients', '1,8,64').map(Number),
    clientPanes: list('client-panes', '10,100,1000').map(Number),
    out: get('out', fileURLToPath(new URL('./RESULTS.md', import.meta.url))),
    parityPasses: int('parity-passes', 16),
    parityWarmup: int('parity-warmup', 3000),
    cli: get('cli', ''),
    lowLatencyIdle: get('low-latency-idle', 'on') !== 'off',
  };
}

export const opts = options();
