/** The fast tools over Streamable HTTP in both protocol eras, each against the no-op server behind the same stack. */
import { fastCalls, stdioP50, type Base } from '../base.js';
import { measure, toolRow } from '../measure.js';
import { McpDriver } from '../mcp.js';
import { opts } from '../options.js';
import { addRow, table } from '../report.js';
import { ms } from '../stats.js';


export async function httpScenario(base: Base): Promise<void> {
  const t = table(
    'The same tools over Streamable HTTP',
    'Our server with `--http 127.0.0.1:0` and a bearer token, driven by the SDK client in each protocol era: 2025-11-25 ' +
      '(`initialize`, then calls in its session) and 2026-07-28 (`server/discover`, then each call its own request and ' +
      'server instance). The floor of each era is the no-op server behind the same HTTP stack (dist/mcp/http/serve.js: gates, ' +
      'token, sessions); ratio = p50 / that floor. The stdio rows are in the first table.',
  );
  const eras = [
    ['legacy', 'HTTP 2025-11-25'],
    ['auto', 'HTTP 2026-07-28'],
  ] as const;
  const p50 = new Map<string, Map<string, number | undefined>>();
  for (const [era, label] of eras) {
    const noop = await McpDriver.noopOverHttp(base.tmux.env, era);
    let floor: Awaited<ReturnType<typeof measure>>;
    try {
      floor = await measure(noop, 'noop', () => ({}), { iterations: Math.max(opts.iterations, 200) });
    } finally {
      await noop.close();
    }
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
