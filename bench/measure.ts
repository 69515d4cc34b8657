/** Timed calls: one tool in a loop (measure, toolRow), or several in interleaved rounds (interleave). */
import { performance } from 'node:perf_hooks';
import { McpDriver, processCpuNs } from './mcp.js';
import { opts } from './options.js';
import { addRow, type Row, type Table } from './report.js';
import { summarize, type Summary } from './stats.js';

export class ToolError extends Error {}

/** The tmux server of the scenario running now, for the tmux CPU column. */
let currentTmuxPid: number | undefined;
export function useTmuxPid(pid: number | undefined): void {
  currentTmuxPid = pid;
}

/** Warm-up, then up to `iterations` timed calls (stopping early past the time budget, >= 5 kept). */
export async function measure(
  driver: McpDriver,
  tool: string,
  args: () => Record<string, unknown>,
  config: { iterations?: number; warmup?: number; tmuxPid?: number } = {},
): Promise<Summary & { cpu: { server: number; tmux?: number }; last: any }> {
  const iterations = config.iterations ?? opts.iterations;
  const warmup = config.warmup ?? opts.warmup;
  const budget = opts.budgetMs;
  let last: any;
  const once = async () => {
    const outcome = await driver.call(tool, args());
    if (outcome.isError) throw new ToolError(outcome.text);
    last = outcome.structured;
    return outcome.ms;
  };
  const warmStart = performance.now();
  for (let i = 0; i < warmup; i++) {
    await once();
    if (performance.now() - warmStart > budget / 2 && i >= 1) break;
  }
  const samples: number[] = [];
  const start = performance.now();
  const serverCpu = driver.cpuNs();
  const tmuxCpu = config.tmuxPid ? processCpuNs(config.tmuxPid) : 0;
  while (samples.length < iterations) {
    samples.push(await once());
    if (samples.length >= 5 && performance.now() - start > budget) break;
  }
  const cpu = {
    server: (driver.cpuNs() - serverCpu) / samples.length / 1000,
    tmux: config.tmuxPid ? (processCpuNs(config.tmuxPid) - tmuxCpu) / samples.length / 1000 : undefined,
  };
  return { ...summarize(samples), cpu, last };
}

/** A row of `tool` measured alone (measure); ratio = p50 / `floor`. */
export async function toolRow(
  t: Table,
  driver: McpDriver,
  name: string,
  tool: string,
  args: () => Record<string, unknown>,
  extra: Pick<Row, 'target' | 'goal' | 'floorValue' | 'note'> & {
    floor?: number;
    /** A note made from the last result (e.g. how many panes a search covered). */
    noteOf?: (last: any) => string;
    iterations?: number;
    warmup?: number;
  } = {},
): Promise<Row> {
  const held = { name, target: extra.target, goal: extra.goal, floorValue: extra.floorValue };
  if (!driver.has(tool)) return addRow(t, { ...held, unavailable: true });
  try {
    const summary = await measure(driver, tool, args, { ...extra, tmuxPid: currentTmuxPid });
    const note = [extra.note, extra.noteOf?.(summary.last)].filter(Boolean).join('; ');
    return addRow(t, { ...held, summary, ratio: extra.floor ? summary.p50 / extra.floor : undefined, note, cpu: summary.cpu });
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    return addRow(t, { ...held, error: error.message, note: extra.note });
  }
}

export const sleep = (msec: number) => new Promise((resolve) => setTimeout(resolve, msec));

/** Every order of `items`: interleaved rounds cycling through them give each turn every predecessor alike. */
export function permutations(items: readonly number[]): number[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((first, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [first, ...rest]));
}

/** One call of an interleaved round, to an SDK driver or a plain client. */
export interface Turn {
  readonly driver: { call(tool: string, args: Record<string, unknown>): Promise<{ ms: number; isError: boolean; text: string }>; cpuNs(): number };
  readonly tool: string;
  readonly args: Record<string, unknown>;
}

/**
 * Calls each turn once a round, round after round (warmed), within the row budget: the latencies of
 * each turn, and its server's CPU per measured call (us). Rounds take the given orders in turn (by
 * default the turns' own): a call finds the process of the call before it warm, so a fair comparison
 * gives each side the same predecessors.
 */
export async function interleave(
  turns: readonly Turn[],
  iterations = opts.iterations,
  warmup = Math.min(opts.warmup, 500),
  orders: ReadonlyArray<readonly number[]> = [turns.map((_, i) => i)],
): Promise<{ samples: number[][]; cpu: Array<{ server: number }> }> {
  const samples = turns.map((): number[] => []);
  for (let i = 0; i < warmup; i++) for (const turn of turns) await turn.driver.call(turn.tool, turn.args);
  const cpuBefore = turns.map((turn) => turn.driver.cpuNs());
  const end = performance.now() + opts.budgetMs * turns.length;
  for (let round = 0; samples[0]!.length < iterations && (samples[0]!.length < 20 || performance.now() < end); round++) {
    for (const i of orders[round % orders.length]!) {
      const turn = turns[i]!;
      const outcome = await turn.driver.call(turn.tool, turn.args);
      if (outcome.isError) throw new ToolError(`${turn.tool}: ${outcome.text}`);
      samples[i]!.push(outcome.ms);
    }
  }
  return { samples, cpu: turns.map((turn, i) => ({ server: (turn.driver.cpuNs() - cpuBefore[i]!) / samples[i]!.length / 1000 })) };
}
