/** python against libtmux, call for call, beyond what carrying each profile's answer costs. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Base } from '../base.js';
import { parityOperations } from './fast.js';
import { interleave, ToolError } from '../measure.js';
import { McpDriver } from '../mcp.js';
import { opts } from '../options.js';
import { pinToOneCpu } from '../pin.js';
import { addRow, table, type Row } from '../report.js';
import { meanWithInterval, median, ms, summarize } from '../stats.js';

/** Passes of four fresh servers: a process's speed is set where it lands, so passes, not rounds, limit the resolution. */
const PARITY_PASSES = Math.max(2, opts.parityPasses);

export type Operation = { tool: string; args: Record<string, unknown> };

/** Each side's servers (by environment), and what an operation calls on each. */
type Sides = { readonly a: NodeJS.ProcessEnv; readonly b: NodeJS.ProcessEnv };
type Paired = { readonly a: Operation; readonly b: Operation };

/**
 * python against libtmux, operation by operation, beyond what carrying each profile's answer costs
 * (parityPasses); and the same measurement of libtmux against itself, the control that shows what
 * the harness reads when there is no difference to find.
 */
export async function pythonParity(base: Base): Promise<void> {
  const operations = parityOperations(base);
  // This process (the client) and tmux on one CPU; every server a pass starts inherits it.
  const pin = pinToOneCpu([process.pid, await base.tmux.serverPid()]);
  const parity = table(
    'python against libtmux, interleaved',
    `Each operation through both profiles and each profile's answer canned by the no-op server, interleaved, in ${PARITY_PASSES} passes ` +
      `of four fresh servers (${pin.description}); target: the 95% interval of the mean beyond the answers reaches 0; the control must hold 0. Method: bench/notes.md.`,
  );
  let python: Awaited<ReturnType<typeof parityPasses>>;
  let control: Awaited<ReturnType<typeof parityPasses>>;
  const probe = operations.find((o) => o.libtmux.tool === 'get_pane_info') ?? operations[0]!;
  try {
    python = await parityPasses(base, { a: { ...base.tmux.env, TMUX_MCP_PROFILE: 'python' }, b: base.tmux.env }, operations.map((o) => ({ a: o.python, b: o.libtmux })));
    control = await parityPasses(base, { a: base.tmux.env, b: base.tmux.env }, [{ a: probe.libtmux, b: probe.libtmux }]);
  } finally {
    pin.release();
  }
  for (const [i, operation] of operations.entries()) {
    const { latencies, bytes } = python.operations[i]!;
    const [a, b, aCanned, bCanned] = latencies.map((each) => summarize(each));
    addRow(parity, { name: `libtmux: ${operation.name}`, summary: b, note: 'interleaved with the next three rows' });
    addRow(parity, { name: `python: ${operation.name}`, summary: a });
    addRow(parity, { name: `libtmux's answer, canned (${bytes.b} bytes)`, summary: bCanned });
    addRow(parity, { name: `python's answer, canned (${bytes.a} bytes)`, summary: aCanned });
    addRow(parity, beyondRow(`python over libtmux, beyond the answers: ${operation.name}`, python.operations[i]!));
  }
  addRow(parity, controlRow(`control: libtmux over libtmux, beyond the answers: ${probe.name}`, control.operations[0]!));
}

/** Per pass: the median latency difference beyond the answers (ms), and the servers' CPU difference beyond them (us a call). */
type Beyond = { readonly passMedians: readonly number[]; readonly cpuBeyond: readonly number[] };

/**
 * A beyond-the-answers row: met when the 95% interval of the mean over passes reaches 0. The note
 * adds the servers' own CPU beyond the answers (all threads), a second view of the same difference:
 * coarser, as a garbage collection that falls in one server's window weighs on that pass alone.
 */
function beyondRow(name: string, { passMedians, cpuBeyond }: Beyond): Row {
  const extra = meanWithInterval(passMedians);
  const cpu = meanWithInterval(cpuBeyond);
  return {
    name,
    value: extra.mean,
    target: extra.mean - extra.low,
    goal: 'its 95% interval',
    note:
      `mean ${ms(extra.mean)} ms, 95% [${ms(extra.low)}, ${ms(extra.high)}]; median ${ms(median(passMedians))}, sd ${ms(extra.sd)} over ${passMedians.length} passes; ` +
      `server CPU ${cpu.mean.toFixed(1)} us a call, 95% [${cpu.low.toFixed(1)}, ${cpu.high.toFixed(1)}]`,
  };
}

/** The control: met when its 95% interval holds 0 (the mean lies within its half-width of 0), on either side. */
function controlRow(name: string, beyond: Beyond): Row {
  const extra = meanWithInterval(beyond.passMedians);
  return {
    ...beyondRow(name, beyond),
    value: Math.abs(extra.mean),
    target: extra.high - extra.mean,
    goal: 'its 95% half-width (|mean|)',
  };
}

/**
 * Side a against side b on each operation, in PARITY_PASSES passes: each starts a server of each
 * side and a no-op server for each side's canned answers, warms the four (--parity-warmup calls
 * each, all at once: until V8 is done optimising), then calls them once a round, in mirrored order.
 * Per operation: every latency, each side's answer size, and per pass the median of
 * (a - b) - (a canned - b canned) over its rounds.
 */
async function parityPasses(base: Base, sides: Sides, operations: readonly Paired[]) {
  // Per operation: the latencies of a's server, b's, a's canned answer and b's, over every pass.
  const results = operations.map(() => ({ latencies: [[], [], [], []] as number[][], passMedians: [] as number[], cpuBeyond: [] as number[], bytes: { a: 0, b: 0 } }));
  const rounds = Math.ceil((opts.iterations * 3) / PARITY_PASSES);
  for (let pass = 0; pass < PARITY_PASSES; pass++) {
    // Every other pass starts b's processes first: a process's start order (its tmux client's place
    // among the others, where it lands) must not side with a or b over the whole table.
    const order = pass % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const);
    const servers = await bothSides(order, (side) => McpDriver.ours(sides[side]));
    let floors: Record<'a' | 'b', McpDriver> | undefined;
    try {
      const canned = await cannedAnswers<'a' | 'b'>(base, servers, operations);
      // One no-op server for each side's answers: each is then called once a round, as each side's server is.
      const noops = (floors = await bothSides(order, () => McpDriver.noop(base.tmux.env, canned.file)));
      // Per operation, its four turns: each side's server, then each side's canned answer. Two passes
      // in four give b the first place of each pair (first in even rounds and in the warm-up), crossed
      // with the start order, so that no place in the turn order sides with a or b either.
      const places = Math.floor(pass / 2) % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const);
      const turns = operations.map((operation) => [
        ...places.map((side) => ({ driver: servers[side], ...operation[side] })),
        ...places.map((side) => ({ driver: noops[side], tool: canned.name(side, operation[side].tool), args: operation[side].args })),
      ]);
      // The turns of a's server, b's, a's canned answer and b's, in this pass's order.
      const bySide = [places.indexOf('a'), places.indexOf('b'), 2 + places.indexOf('a'), 2 + places.indexOf('b')];
      const warm = async (server: number) => {
        for (let call = 0; call < opts.parityWarmup; call++) {
          for (const turn of turns.map((four) => four[server]!)) await turn.driver.call(turn.tool, turn.args);
        }
      };
      await Promise.all([0, 1, 2, 3].map(warm));
      for (const [i, operation] of operations.entries()) {
        // Warm already: a few rounds settle the four into calling one another in turn.
        const { samples, cpu } = await interleave(turns[i]!, rounds, Math.min(opts.warmup, 20), MIRRORED);
        const [a, b, aCanned, bCanned] = bySide.map((k) => samples[k]!);
        const [aCpu, bCpu, aCannedCpu, bCannedCpu] = bySide.map((k) => cpu[k]!.server);
        const result = results[i]!;
        bySide.forEach((k, side) => result.latencies[side]!.push(...samples[k]!));
        result.passMedians.push(median(a!.map((value, round) => value - b![round]! - (aCanned![round]! - bCanned![round]!))));
        result.cpuBeyond.push(aCpu! - bCpu! - (aCannedCpu! - bCannedCpu!));
        result.bytes = { a: canned.bytes('a', operation.a.tool), b: canned.bytes('b', operation.b.tool) };
      }
    } finally {
      await Promise.all([servers.a.close(), servers.b.close(), floors?.a.close(), floors?.b.close()]);
    }
  }
  return { operations: results };
}

/** One process for each side, started one after the other in the given order. */
async function bothSides(order: readonly ['a', 'b'] | readonly ['b', 'a'], start: (side: 'a' | 'b') => Promise<McpDriver>) {
  const started: Partial<Record<'a' | 'b', McpDriver>> = {};
  for (const side of order) started[side] = await start(side);
  return started as Record<'a' | 'b', McpDriver>;
}

/**
 * Rounds of python, libtmux, python's canned answer, libtmux's, and then the mirror image (each pair
 * swapped): over two rounds each python call has the predecessors its libtmux twin has.
 */
const MIRRORED = [[0, 1, 2, 3], [1, 0, 3, 2]] as const;

/**
 * Each profile's answer to each operation, as its server gave it, written for the no-op server's
 * `--answers` (bench/noop-server.ts) with the tool's output schema, under the name `<profile>.<tool>`.
 */
async function cannedAnswers<P extends string>(base: Base, drivers: Record<P, McpDriver>, operations: ReadonlyArray<Record<P, Operation>>) {
  const name = (profile: P, tool: string) => `${profile}.${tool}`;
  const entries: Array<{ name: string; outputSchema?: unknown; result: unknown }> = [];
  for (const [profile, driver] of Object.entries(drivers) as Array<[P, McpDriver]>) {
    const { tools } = await driver.client.listTools();
    for (const operation of operations) {
      const { tool, args } = operation[profile];
      const outcome = await driver.call(tool, args);
      if (outcome.isError) throw new ToolError(`${tool}: ${outcome.text}`);
      const { content, structuredContent } = outcome.result as { content: unknown; structuredContent?: unknown };
      const outputSchema = tools.find((each) => each.name === tool)?.outputSchema;
      entries.push({ name: name(profile, tool), ...(outputSchema ? { outputSchema } : {}), result: { content, ...(structuredContent === undefined ? {} : { structuredContent }) } });
    }
  }
  const file = join(base.tmux.dir, 'canned-answers.json');
  writeFileSync(file, JSON.stringify(entries));
  const bytes = (profile: P, tool: string) => Buffer.byteLength(JSON.stringify(entries.find((entry) => entry.name === name(profile, tool))!.result), 'utf8');
  return { file, name, bytes };
}

