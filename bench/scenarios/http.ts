/**
 * The fast tools over Streamable HTTP in both protocol eras, each against the no-op server behind
 * the same stack; what HTTP adds over stdio for one client, ours against a bare Node responder; and
 * fifty clients at once on one server.
 */
import { fastCalls, floorSummary, stdioP50, type Base } from '../base.js';
import { interleave, permutations, toolRow } from '../measure.js';
import { cli, McpDriver, processCpuNs, startListening, stop } from '../mcp.js';
import { opts } from '../options.js';
import { addRow, table } from '../report.js';
import { ms, summarize } from '../stats.js';
import { PLAIN_TOKEN, plainHttp, plainStdio } from '../plain.js';
import { httpLoad } from '../../test/fixture/http-load.js';

export async function httpScenario(base: Base): Promise<void> {
  const { stdioCpuUs } = await overheadScenario(base);
  await loadScenario(base, stdioCpuUs);
  await sdkClientScenario(base);
}

async function sdkClientScenario(base: Base): Promise<void> {
  const t = table(
    'The same tools over Streamable HTTP',
    'Our server with `--http 127.0.0.1:0` and a token, driven by the SDK client in each protocol era; ratio = p50 / the no-op server behind the same HTTP stack.',
  );
  const eras = [
    ['legacy', 'HTTP 2025-11-25'],
    ['auto', 'HTTP 2026-07-28'],
  ] as const;
  const p50 = new Map<string, Map<string, number | undefined>>();
  for (const [era, label] of eras) {
    const { summary: floor } = await floorSummary(base.tmux.env, () => McpDriver.noopOverHttp(base.tmux.env, era));
    addRow(t, { name: `${label}: floor, no-op SDK server`, summary: floor, ratio: 1, cpu: floor.cpu, note: 'same HTTP stack' });
    const driver = await McpDriver.oursOverHttp(base.tmux.env, era);
    const measured = new Map<string, number | undefined>();
    p50.set(label, measured);
    try {
      for (const call of fastCalls(base)) {
        const row = await toolRow(t, driver, `${label}: ${call.name}`, call.tool, call.args, { iterations: call.iterations, warmup: call.warmup, floor: floor.p50 });
        measured.set(call.name, row.summary?.p50);
      }
    } finally {
      await driver.close();
    }
  }
  const cell = (value: number | undefined) => (value === undefined ? '-' : `${ms(value)} ms`);
  for (const call of fastCalls(base)) {
    t.after.push(`${call.name}, p50: stdio ${cell(stdioP50.get(call.name))}, ${eras.map(([, label]) => `${label} ${cell(p50.get(label)?.get(call.name))}`).join(', ')}.`);
    console.log('  ' + t.after.at(-1));
  }
}

// ---- one client: what HTTP adds over stdio, ours against the bare responder ------------------------------

/** Our HTTP overhead over stdio may be at most this many times the bare responder's (p50, same run). */
const OVERHEAD_TIMES_BARE = 1.5;

/** The calls of target 3 (list_sessions, capture_pane, send_keys): the bare responder's overhead is set beside each. */
const overheadCalls = (base: Base) => [0, 3, 4].map((i) => fastCalls(base)[i]!);

/** Plain clients of the bare responder and of ours over stdio and HTTP, called in turn (method: bench/notes.md). */
async function overheadScenario(base: Base): Promise<{ stdioCpuUs: number }> {
  const t = table(
    'HTTP over stdio, one client: ours against a bare Node responder',
    `Plain clients called in turn (every order of the five, warmed); target: our p50 HTTP - stdio <= ${OVERHEAD_TIMES_BARE} x the bare ` +
      "responder's, same rounds. Method: bench/notes.md. CPU: the server process, us per call.",
  );
  const [bare, env, http] = [McpDriver.script('bare'), base.tmux.env, ['--http', '127.0.0.1:0']];
  const clients = [
    await plainStdio('bare stdio', [bare], env),
    await plainHttp('bare HTTP', [bare, '--http'], env, 'legacy'),
    await plainStdio('ours stdio', [cli()], env),
    await plainHttp('ours HTTP 2026-07-28', [cli(), ...http], env, 'modern'),
    await plainHttp('ours HTTP 2025-11-25', [cli(), ...http], env, 'legacy'),
  ];
  const stdioCpu = new Map<string, number>();
  try {
    for (const call of overheadCalls(base)) {
      const turns = clients.map((driver, i) => (i < 2 ? { driver, tool: 'noop', args: {} } : { driver, tool: call.tool, args: call.args() }));
      const { samples, cpu } = await interleave(turns, opts.iterations, Math.min(opts.warmup, 500), permutations([0, 1, 2, 3, 4]));
      const [bareStdio, bareHttp, oursStdio, ...oursHttp] = samples.map((each) => summarize(each));
      const bareOverhead = bareHttp!.p50 - bareStdio!.p50;
      stdioCpu.set(call.tool, cpu[2]!.server);
      addRow(t, { name: `${call.name}: bare responder, stdio`, summary: bareStdio!, cpu: cpu[0] });
      addRow(t, { name: `${call.name}: bare responder, HTTP`, summary: bareHttp!, cpu: cpu[1], note: `+${ms(bareOverhead)} ms over its stdio` });
      addRow(t, { name: `${call.name}: ours, stdio`, summary: oursStdio!, cpu: cpu[2] });
      oursHttp.forEach((summary, i) => {
        const overhead = summary!.p50 - oursStdio!.p50;
        addRow(t, { name: `${call.name}: ours, ${clients[3 + i]!.label.slice(5)}`, summary: summary!, cpu: cpu[3 + i], note: `+${ms(overhead)} ms over our stdio` });
        addRow(t, {
          name: `${call.name}: ours, ${clients[3 + i]!.label.slice(5)}, HTTP - stdio`,
          value: overhead,
          unit: 'ms',
          target: OVERHEAD_TIMES_BARE * bareOverhead,
          goal: `${OVERHEAD_TIMES_BARE} x bare's`,
          floorValue: bareOverhead,
          note: `${(overhead / bareOverhead).toFixed(2)}x the bare responder's +${ms(bareOverhead)} ms`,
        });
      });
    }
  } finally {
    await Promise.all(clients.map((client) => client.close()));
  }
  // The load's first mix, list_sessions and capture_pane alternating, over stdio.
  return { stdioCpuUs: (stdioCpu.get('list_sessions')! + stdioCpu.get('capture_pane')!) / 2 };
}

// ---- fifty clients on one server --------------------------------------------------------------------------

const LOAD_CLIENTS = 50;
/** Every call answered within this at p99 (ms), list_sessions and capture_pane. */
const LOAD_P99_MS = 50;
/** At least this many calls a second, list_sessions and capture_pane. */
const LOAD_CALLS_PER_S = 2000;
/** With list_panes in the mix: p99 (ms). */
const PANES_P99_MS = 200;

/** Fifty plain HTTP clients at once on one `--http` server, in each era, after a warm-up round of the same size (method: bench/notes.md). */
async function loadScenario(base: Base, stdioCpuUs: number): Promise<void> {
  const t = table(
    `HTTP, ${LOAD_CLIENTS} clients at once on one server`,
    `Targets: every call answered; list_sessions + capture_pane: p99 <= ${LOAD_P99_MS} ms, >= ${LOAD_CALLS_PER_S} calls/s, server CPU per call <= ours over stdio ` +
      `(${stdioCpuUs.toFixed(0)} us); with list_panes: p99 <= ${PANES_P99_MS} ms. Method: bench/notes.md.`,
  );
  const screen = { tool: 'capture_pane', args: { paneId: base.others[0] } };
  const mixes = [
    { name: 'list_sessions + capture_pane', calls: 40, p99: LOAD_P99_MS, rate: true, mix: [{ tool: 'list_sessions', args: {} }, screen] },
    { name: '+ list_panes', calls: 50, p99: PANES_P99_MS, rate: false, mix: [{ tool: 'list_sessions', args: {} }, screen, { tool: 'list_panes', args: {} }] },
  ];
  const tmuxPid = await base.tmux.serverPid();
  for (const era of ['modern', 'legacy'] as const) {
    const label = era === 'modern' ? 'HTTP 2026-07-28' : 'HTTP 2025-11-25';
    const { child, url } = await startListening([cli(), '--http', '127.0.0.1:0'], base.tmux.env, PLAIN_TOKEN);
    try {
      for (const { name, calls, p99, rate, mix } of mixes) {
        const load = (keep = false) => httpLoad({ url, token: PLAIN_TOKEN, era, clients: LOAD_CLIENTS, calls, mix, keep });
        await load();
        const cpu = processCpuNs(child.pid!);
        const tmuxCpu = processCpuNs(tmuxPid);
        const result = await load();
        const cpuUs = (processCpuNs(child.pid!) - cpu) / result.ms.length / 1000;
        const tmuxUs = (processCpuNs(tmuxPid) - tmuxCpu) / result.ms.length / 1000;
        const summary = summarize(result.ms);
        const answered = result.ms.length - result.failed;
        const perS = (result.ms.length / result.wallMs) * 1000;
        addRow(t, { name: `${label}, ${name}: every call`, summary, cpu: { server: cpuUs, tmux: tmuxUs }, note: `${answered} of ${LOAD_CLIENTS * calls} answered${result.firstFailure ? `; first failure: ${result.firstFailure.slice(0, 80)}` : ''}` });
        addRow(t, { name: `${label}, ${name}: p99`, value: summary.p99, unit: 'ms', target: result.failed === 0 ? p99 : -1, note: `p50 ${ms(summary.p50)} ms` });
        if (rate) addRow(t, { name: `${label}, ${name}: wall ms per call`, value: 1000 / perS, unit: 'ms', target: 1000 / LOAD_CALLS_PER_S, note: `${perS.toFixed(0)} calls/s` });
        if (rate) addRow(t, { name: `${label}, ${name}: server CPU per call`, value: cpuUs / 1000, unit: 'ms', target: stdioCpuUs / 1000, goal: 'ours over stdio', floorValue: stdioCpuUs / 1000 });
      }
    } finally {
      await stop(child);
    }
  }
}
