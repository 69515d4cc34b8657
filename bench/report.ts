/** The report: tables of rows as they are measured, the targets, and bench/RESULTS.md. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { scrubbedEnv, TMUX_BIN } from '../test/fixture/tmux.js';
import type { IdleHold } from './idle.js';
import { opts } from './options.js';
import { ms, type Summary } from './stats.js';

export interface Row {
  readonly name: string;
  readonly summary?: Summary;
  readonly ratio?: number;
  /** Target in ms for p50 (or the unit of `value`). */
  readonly target?: number;
  /** A single measured value when the row is not a latency distribution (MiB, ms...). */
  readonly value?: number;
  readonly unit?: string;
  readonly note?: string;
  readonly unavailable?: boolean;
  readonly error?: string;
  /** CPU per measured call, microseconds: the server process and the tmux server. */
  readonly cpu?: { readonly server: number; readonly tmux?: number };
  /** How the target is stated when it is relative (e.g. "floor + 0.3 ms"); `target` is then its value in this run. */
  readonly goal?: string;
  /** The reference measured in the same run that the goal is stated against (e.g. the floor's p50). */
  readonly floorValue?: number;
}

export interface Table {
  readonly title: string;
  readonly intro?: string;
  readonly rows: Row[];
  readonly after: string[];
}

export const tables: Table[] = [];
export const targets: string[] = [];

export function table(title: string, intro?: string): Table {
  const t: Table = { title, intro, rows: [], after: [] };
  tables.push(t);
  console.log(`\n## ${title}`);
  return t;
}

export function addRow(t: Table, row: Row): Row {
  t.rows.push(row);
  console.log('  ' + renderRow(row).replaceAll(' | ', '  ').replace(/^\| /, '').replace(/ \|$/, ''));
  if (row.target !== undefined) {
    const measured = row.summary?.p50 ?? row.value;
    const unit = row.unit ?? 'ms';
    const value = row.unavailable ? 'not available' : row.error ? 'error' : measured === undefined ? '-' : `${ms(measured)} ${unit}`;
    const goal = `${row.summary ? 'p50 ' : ''}<= ${row.goal ? `${row.goal} = ` : ''}${ms(row.target)} ${unit}`;
    const reference = row.floorValue === undefined ? '' : `${ms(row.floorValue)} ${unit}`;
    targets.push(`| ${t.title}: ${row.name} | ${goal} | ${value} | ${reference} | ${status(row).replace(' (error)', '') || 'MISSED'} |`);
  }
  return row;
}

export function status(row: Row): string {
  if (row.target === undefined) return '';
  if (row.unavailable) return 'not available';
  if (row.error) return 'MISSED (error)';
  const measured = row.summary?.p50 ?? row.value;
  if (measured === undefined) return '';
  return measured <= row.target ? 'MET' : 'MISSED';
}

export function renderRow(row: Row): string {
  const cells = (...values: Array<string | number | undefined>) => `| ${values.map((v) => (v === undefined ? '' : String(v))).join(' | ')} |`;
  const target = row.target === undefined ? undefined : ms(row.target);
  if (row.unavailable) return cells(row.name, 'not available', '', '', '', '', '', '', target, 'not available', row.note ?? 'tool not listed by the server yet');
  if (row.error) return cells(row.name, 'error', '', '', '', '', '', '', target, status(row), row.error.replaceAll('|', '/').replaceAll('\n', ' ').slice(0, 160));
  const s = row.summary;
  const unit = row.unit ?? 'ms';
  if (!s) return cells(row.name, row.value === undefined ? '' : `${ms(row.value)} ${unit}`, '', '', '', '', '', '', target, status(row), row.note);
  const cpu = (us: number | undefined) => (us === undefined ? '' : us.toFixed(0));
  return cells(
    row.name, s.n, ms(s.p50), ms(s.p90), ms(s.p99),
    row.ratio === undefined ? '' : row.ratio.toFixed(1) + 'x',
    cpu(row.cpu?.server), cpu(row.cpu?.tmux),
    target, status(row), row.note,
  );
}

export function machine(idle: IdleHold): string[] {
  const cpu = /^model name\s*:\s*(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? os.cpus()[0]?.model ?? 'unknown';
  const tmuxVersion = execFileSync(TMUX_BIN, ['-V'], { env: scrubbedEnv(), encoding: 'utf8' }).trim();
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['describe', '--always', '--dirty'], { cwd: fileURLToPath(new URL('..', import.meta.url)), encoding: 'utf8' }).trim();
  } catch {
    // not a git checkout
  }
  return [
    `- Server measured: ${opts.cli || 'dist/cli.js'} (tree at ${commit})`,
    `- CPU: ${cpu}, ${os.cpus().length} cores`,
    `- Memory: ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `- Node ${process.version}, ${tmuxVersion}, ${os.type()} ${os.release()}`,
    `- CPU idle: ${idle.description}`,
    `- Date: ${new Date().toISOString()}; load average at start ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    `- Parameters: iterations ${opts.iterations}, warm-up ${opts.warmup}, budget ${opts.budgetMs} ms per row, ` +
      `panes ${opts.panes.join('/')}, history ${opts.history}, lines ${opts.lines.join('/')}, flood ${opts.floodMb} MB`,
  ];
}

export function report(machineLines: string[], seconds: number): string {
  const out = ['# Benchmark results', '', 'Generated by `npm run bench` (bench/run.ts); how to read these numbers: the notes at the end.', ''];
  out.push('## Machine', '', ...machineLines, `- Whole run: ${seconds.toFixed(0)} s`, '');
  out.push('## Targets', '', 'Each goal stated against a reference uses it as measured in this run, shown beside it.', '');
  out.push(...targetLines(), '');
  for (const t of tables) {
    out.push(`## ${t.title}`, '');
    if (t.intro) out.push(t.intro, '');
    out.push(
      '| Measure | n | p50 ms | p90 ms | p99 ms | ratio | server CPU us/call | tmux CPU us/call | target | status | note |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
    );
    for (const row of t.rows) out.push(renderRow(row));
    out.push('');
    for (const line of t.after) out.push(line, '');
  }
  const notes = fileURLToPath(new URL('./notes.md', import.meta.url));
  if (existsSync(notes)) out.push(readFileSync(notes, 'utf8').trim(), '');
  return out.join('\n');
}

/** The targets table: goal, measured value and the same run's reference, side by side. */
export const targetLines = () => ['| Target | Goal | Measured | Reference (same run) | Status |', '|---|---|---|---|---|', ...targets];
