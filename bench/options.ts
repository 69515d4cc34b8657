/** The bench's options (flags, or BENCH_<NAME> in the environment) and the sample sizes they choose. */
import { fileURLToPath } from 'node:url';

/** The scenarios, in the order they run (bench/scenarios/<name>.ts). */
export const SCENARIOS = ['calls', 'run', 'shells', 'wait', 'panes', 'start', 'memory', 'http', 'approvals'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

const OPTIONS = {
  only: [SCENARIOS.join(','), 'the scenarios to run, by name'],
  quick: ['off', 'on (or a bare --quick): a few samples of everything, for development; no report written unless --out names one'],
  out: ['bench/RESULTS.md', 'where the report goes ("-": nowhere)'],
  cli: ['dist/cli.js', 'the server to measure, e.g. another build to compare'],
  before: ['', 'a build of the server before the change (bench/build-before.sh makes one): measured beside ours in the same run'],
  'low-latency-idle': ['on', 'hold /dev/cpu_dma_latency at 0 during the run when permitted (on|off)'],
} as const;
type Option = keyof typeof OPTIONS;

/** Sample sizes: the full run (under ten minutes on 2 cores) and the quick one (about a minute). */
const FULL = {
  /** Interleaved rounds of the everyday calls, per call. */
  rounds: 400,
  /** Calls of our server and the no-op server before measuring: V8 optimises both only after many. */
  warmup: 2000,
  /** Calls of a stand-in before measuring: its cost is processes, which need no warming. */
  peerWarmup: 20,
  /** Rounds of a command's run (each stand-in's run is several processes). */
  runRounds: 60,
  /** Samples of a wait's wake-up, each side. */
  waitSamples: 30,
  /** Rounds of the 200-pane listing. */
  listRounds: 150,
  /** Cold starts of each server. */
  startRuns: 10,
  /** Calls made before memory is read at rest. */
  restCalls: 1000,
  /** Calls each of the 50 HTTP clients makes. */
  httpCalls: 40,
  /** A measurement stops once it took this long (keeping at least 20 samples each). */
  budgetMs: 12_000,
};
const QUICK: typeof FULL = {
  rounds: 40,
  warmup: 200,
  peerWarmup: 3,
  runRounds: 8,
  waitSamples: 6,
  listRounds: 15,
  startRuns: 3,
  restCalls: 200,
  httpCalls: 8,
  budgetMs: 3_000,
};

function options() {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log('npm run bench -- [options]      (each option also reads BENCH_<NAME> from the environment)');
    for (const [name, [fallback, what]] of Object.entries(OPTIONS)) console.log(`  --${name.padEnd(17)} ${what} (default ${fallback})`);
    console.log(`scenarios: ${SCENARIOS.join(', ')} (bench/notes.md says what each measures)`);
    process.exit(0);
  }
  const given = (name: Option): string | undefined => {
    const i = argv.indexOf(`--${name}`);
    if (i !== -1) return argv[i + 1] === undefined || argv[i + 1]!.startsWith('--') ? 'on' : argv[i + 1];
    return process.env[`BENCH_${name.toUpperCase().replaceAll('-', '_')}`];
  };
  const get = (name: Option) => given(name) ?? OPTIONS[name][0];
  const only = get('only')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = only.filter((name) => !(SCENARIOS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`--only: no scenario ${unknown.join(', ')} (there are: ${SCENARIOS.join(', ')})`);
  const quick = get('quick') !== 'off';
  const out = given('out') ?? (quick ? '-' : OPTIONS.out[0]);
  const cli = get('cli');
  return {
    only: new Set(only as ScenarioName[]),
    quick,
    sizes: quick ? QUICK : FULL,
    out: out === OPTIONS.out[0] ? fileURLToPath(new URL('./RESULTS.md', import.meta.url)) : out,
    /** Empty: dist/cli.js. */
    cli: cli === OPTIONS.cli[0] ? '' : cli,
    /** Empty: the figures recorded in bench/before.ts stand in for it. */
    before: get('before'),
    lowLatencyIdle: get('low-latency-idle') !== 'off',
  };
}

export const opts = options();
