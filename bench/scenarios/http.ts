/** 50 HTTP clients at once on one `--http` server, in each protocol era, ours and the no-op SDK server. */
import { BEFORE } from '../before.js';
import type { Base } from '../base.js';
import { cli, script, startListening, stop } from '../mcp.js';
import { opts } from '../options.js';
import { check, checkThat, sampled, table } from '../report.js';
import { httpLoad, type LoadCall, type LoadEra } from '../../test/fixture/http-load.js';

const CLIENTS = 50;
const TOKEN = `bench-${process.pid}`;
const ERAS: ReadonlyArray<[LoadEra, string]> = [
  ['modern', 'HTTP 2026-07-28'],
  ['legacy', 'HTTP 2025-11-25'],
];

/** `load` against a fresh `node ARGS --http` server: once unmeasured (connections, JIT), then measured. */
async function underLoad(args: string[], env: NodeJS.ProcessEnv, era: LoadEra, mixes: ReadonlyArray<readonly LoadCall[]>) {
  const { child, url } = await startListening(args, env, TOKEN);
  try {
    const results = [];
    for (const mix of mixes) {
      const load = () => httpLoad({ url, token: TOKEN, era, clients: CLIENTS, calls: opts.sizes.httpCalls, mix });
      await load();
      results.push(await load());
    }
    return results;
  } finally {
    await stop(child);
  }
}

export async function httpScenario(base: Base): Promise<void> {
  const row = table(
    `${CLIENTS} HTTP clients at once on one server`,
    `Each client its own keep-alive connection (test/fixture/http-load.ts: plain JSON-RPC POSTs, the next when the last is answered), ` +
      `${opts.sizes.httpCalls} calls each, after a round of the same size; 2026-07-28 calls stand alone, 2025-11-25 ones run in a session per client. ` +
      "Ours with `--http 127.0.0.1:0` and a token; the no-op SDK server on the SDK's own HTTP paths, calling its tool that does nothing.",
  );
  const screen = { tool: 'capture_pane', args: { paneId: base.others[0] } };
  const mixes = [
    { name: 'list_sessions + capture_pane', mix: [{ tool: 'list_sessions', args: {} }, screen] },
    { name: '+ list_panes', mix: [{ tool: 'list_sessions', args: {} }, screen, { tool: 'list_panes', args: {} }] },
  ];
  const noopScript = await script('noop');
  for (const [era, label] of ERAS) {
    const [floor] = await underLoad([noopScript, '--http'], base.tmux.env, era, [[{ tool: 'noop', args: {} }]]);
    row(sampled(`${label}, no-op SDK server`, floor!.ms, { note: `${floor!.ms.length - floor!.failed} of ${floor!.ms.length} answered` }));
    const results = await underLoad(
      [cli(), '--http', '127.0.0.1:0'],
      base.tmux.env,
      era,
      mixes.map((each) => each.mix),
    );
    mixes.forEach(({ name }, i) => {
      const result = results[i]!;
      const answered = result.ms.length - result.failed;
      const perSecond = (result.ms.length / result.wallMs) * 1000;
      const failure = result.firstFailure ? `; first failure: ${result.firstFailure.slice(0, 100)}` : '';
      const before = BEFORE.http[`${label}, ${name}`]!;
      const note = `${answered} of ${result.ms.length} answered, ${perSecond.toFixed(0)} calls/s; p99 before: ${before}${failure}`;
      const measured = row(sampled(`${label}, ours: ${name}`, result.ms, { note }));
      check(`${CLIENTS} clients, ${label}, ${name}: p99`, `under 200 ms (before: ${before})`, measured.summary!.p99, 200, 'ms', true);
      checkThat(
        `${CLIENTS} clients, ${label}, ${name}: every call answered`,
        'all answered',
        `${answered} of ${result.ms.length}`,
        result.failed === 0,
      );
    });
  }
}
