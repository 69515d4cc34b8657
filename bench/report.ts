/** The report: a table per scenario, the checks against the issue's targets, and bench/RESULTS.md. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { scrubbedEnv, TMUX_BIN } from '../test/fixture/tmux.js';
import type { IdleHold } from './idle.js';
import { opts } from './options.js';
import { ms, summarize, type Summary } from './stats.js';

export interface Row {
  readonly name: string;
  /** A latency distribution (ms)... */
  readonly summary?: Summary;
  /** ...or one measured value in `unit`. */
  readonly value?: number;
  readonly unit?: string;
  /** The same measure in the run before the simplification (bench/before.ts), same unit. */
  readonly before?: number;
  readonly note?: string;
}

interface Table {
  readonly title: string;
  readonly intro: string;
  readonly rows: Row[];
}

interface Check {
  readonly name: string;
  readonly goal: string;
  readonly measured: string;
  readonly met: boolean;
}

const tables: Table[] = [];
const checks: Check[] = [];

/** A new table; its rows print as they are measured. */
export function table(title: string, intro: string): (row: Row) => Row {
  const t: Table = { title, intro, rows: [] };
  tables.push(t);
  console.log(`\n## ${title}`);
  return (row) => {
    t.rows.push(row);
    console.log('  ' + renderRow(row).slice(2, -2).replaceAll(' | ', '  '));
    return row;
  };
}

/** A row of samples in milliseconds. */
export const sampled = (name: string, samples: readonly number[], extra: Omit<Row, 'name' | 'summary'> = {}): Row => ({
  name,
  summary: summarize(samples),
  ...extra,
});

/** One of the issue's acceptance targets, held against this run: reported, never a failure. */
export function check(name: string, goal: string, measured: number, limit: number, unit = 'ms', strict = false): void {
  const met = strict ? measured < limit : measured <= limit;
  checks.push({ name, goal: `${goal} = ${ms(limit)} ${unit}`, measured: `${ms(measured)} ${unit}`, met });
  console.log(`  check: ${name}: ${ms(measured)} ${unit}, ${goal} = ${ms(limit)} ${unit}: ${met ? 'met' : 'MISSED'}`);
}

/** A check that is a statement, not a number (e.g. every call answered). */
export function checkThat(name: string, goal: string, measured: string, met: boolean): void {
  checks.push({ name, goal, measured, met });
  console.log(`  check: ${name}: ${measured}: ${met ? 'met' : 'MISSED'}`);
}

function renderRow(row: Row): string {
  const unit = row.unit ?? 'ms';
  const s = row.summary;
  const before = row.before === undefined ? '' : `${ms(row.before)}${s ? '' : ` ${unit}`}`;
  const cells = s
    ? [row.name, s.n, ms(s.p50), ms(s.p90), ms(s.p99), before, row.note]
    : [row.name, '', row.value === undefined ? '' : `${ms(row.value)} ${unit}`, '', '', before, row.note];
  return `| ${cells.map((cell) => (cell === undefined ? '' : String(cell).replaceAll('|', '/'))).join(' | ')} |`;
}

const checkLines = () => [
  '| Check | Goal | Measured | Verdict |',
  '|---|---|---|---|',
  ...checks.map((c) => `| ${c.name} | ${c.goal} | ${c.measured} | ${c.met ? 'met' : 'MISSED'} |`),
];

/** Where this run's "before" figures come from. */
export const beforeSource = () =>
  opts.before ? `measured in this run (${opts.before})` : 'as recorded on December 5 (bench/before.ts; another machine state)';

export function machine(idle: IdleHold): string[] {
  const cpu = /^model name\s*:\s*(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? os.cpus()[0]?.model ?? 'unknown';
  const tmuxVersion = execFileSync(TMUX_BIN, ['-V'], { env: scrubbedEnv(), encoding: 'utf8' }).trim();
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['describe', '--always', '--dirty'], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      encoding: 'utf8',
    }).trim();
  } catch {
    // not a git checkout
  }
  return [
    `- Server measured: ${opts.cli || 'dist/cli.js'} (tree at ${commit})${opts.quick ? '; QUICK MODE: a few samples each, for development' : ''}`,
    `- Before the change: ${beforeSource()}`,
    `- CPU: ${cpu}, ${os.cpus().length} cores; memory ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `- Node ${process.version}, ${tmuxVersion}, ${os.type()} ${os.release()}`,
    `- CPU idle: ${idle.description}`,
    `- Date: ${new Date().toISOString()}; load average at start ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  ];
}

export function report(machineLines: string[], seconds: number): string {
  const out = [
    '# Benchmark results',
    '',
    'Written by `npm run bench` (bench/run.ts). How to read it, and what each stand-in models: bench/notes.md.',
    '',
  ];
  out.push('## Machine', '', ...machineLines, `- Whole run: ${seconds.toFixed(0)} s`, '');
  out.push(
    '## Checks',
    '',
    "The issue's acceptance targets, each held against this run (reported, never a failure).",
    '',
    ...checkLines(),
    '',
  );
  for (const t of tables) {
    out.push(`## ${t.title}`, '', t.intro, '');
    out.push('| Measure | n | p50 ms | p90 ms | p99 ms | before (p50) | note |', '|---|---|---|---|---|---|---|');
    for (const row of t.rows) out.push(renderRow(row));
    out.push('');
  }
  return out.join('\n');
}

/** The checks, for the console at the end of a run. */
export const checkSummary = () => checkLines().join('\n');
