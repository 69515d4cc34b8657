/** The bench's options: flags, or BENCH_<NAME> in the environment. */
import { fileURLToPath } from 'node:url';

export const SCENARIOS = ['start', 'fast', 'parity', 'http', 'oversight', 'idle', 'wait', 'memory', 'capture', 'ssh', 'hosts', 'growth'];

/** Each option: its default and what it sets. */
const OPTIONS = {
  iterations: ['1000', 'measured calls per fast tool'],
  warmup: ['2000', "unmeasured calls first, at most half the budget (the JIT's steady state)"],
  'budget-ms': ['4000', 'stop a measurement early once it took this long, keeping >= 5 samples'],
  panes: ['10,100,200,1000', 'pane counts for the growth farms'],
  history: ['100', 'history lines per farm pane'],
  lines: ['100,10000,100000', 'history sizes for capture_pane growth'],
  'wait-iterations': ['30', 'wait_for_text latency samples'],
  'flood-mb': ['100', 'megabytes printed in the memory test'],
  only: [SCENARIOS.join(','), 'scenarios to run'],
  'idle-calls': ['1000,10000', 'mixed calls before each idle RSS reading'],
  'start-runs': ['10', 'cold starts of ours and of the floor, alternately'],
  clients: ['1,8,64', 'concurrent clients for the growth table'],
  'client-panes': ['10,100,1000', 'pane counts at which the concurrency table is measured'],
  out: ['bench/RESULTS.md', 'report path ("-" for none)'],
  'parity-passes': ['16', 'passes of the python-against-libtmux table, each of four fresh servers'],
  'parity-warmup': ['3000', 'calls of each operation every server of a parity pass makes before it is measured'],
  cli: ['dist/cli.js', 'the server to measure, e.g. another build to compare'],
  'low-latency-idle': ['on', 'hold /dev/cpu_dma_latency at 0 during the run when permitted (on|off)'],
} as const;

function options() {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log('npm run bench -- [options]      (each option also reads BENCH_<NAME> from the environment)');
    for (const [name, [fallback, what]] of Object.entries(OPTIONS)) console.log(`  --${name.padEnd(17)} ${what} (default ${fallback})`);
    process.exit(0);
  }
  const get = (name: keyof typeof OPTIONS): string => {
    const i = argv.indexOf(`--${name}`);
    if (i !== -1 && argv[i + 1] !== undefined) return argv[i + 1]!;
    return process.env[`BENCH_${name.toUpperCase().replaceAll('-', '_')}`] ?? OPTIONS[name][0];
  };
  const list = (name: keyof typeof OPTIONS) => get(name).split(',').map((s) => s.trim()).filter(Boolean);
  const int = (name: keyof typeof OPTIONS) => {
    const value = Number(get(name));
    if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a non-negative integer`);
    return value;
  };
  const out = get('out');
  const cli = get('cli');
  return {
    iterations: int('iterations'),
    warmup: int('warmup'),
    budgetMs: int('budget-ms'),
    panes: list('panes').map(Number),
    history: int('history'),
    lines: list('lines').map(Number),
    waitIterations: int('wait-iterations'),
    floodMb: int('flood-mb'),
    only: new Set(list('only')),
    idleCalls: list('idle-calls').map(Number),
    startRuns: int('start-runs'),
    clients: list('clients').map(Number),
    clientPanes: list('client-panes').map(Number),
    out: out === OPTIONS.out[0] ? fileURLToPath(new URL('./RESULTS.md', import.meta.url)) : out,
    parityPasses: int('parity-passes'),
    parityWarmup: int('parity-warmup'),
    /** Empty: dist/cli.js. */
    cli: cli === OPTIONS.cli[0] ? '' : cli,
    lowLatencyIdle: get('low-latency-idle') !== 'off',
  };
}

export const opts = options();
