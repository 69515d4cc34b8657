/** Cold start: spawn to the answer of the first tools/list, each profile of ours and the no-op SDK server. */
import { performance } from 'node:perf_hooks';
import { BEFORE } from '../before.js';
import type { Base } from '../base.js';
import { cli, McpDriver, script } from '../mcp.js';
import { opts } from '../options.js';
import { check, sampled, table } from '../report.js';
import { summarize } from '../stats.js';

const PROFILES = ['libtmux', 'python', 'julia'];

export async function startScenario(base: Base): Promise<void> {
  const row = table(
    'Cold start to the first tools/list',
    'From spawning `node SCRIPT` to the answer of tools/list through the SDK client (initialize, then tools/list): each profile of ours and ' +
      'the no-op SDK server (bundled into one file as ours is), started in turn, every other round in reverse order, after one unmeasured round.',
  );
  const noop = { name: 'no-op SDK server', args: [await script('noop')], ms: [] as number[] };
  const build = (path: string, prefix: string) =>
    PROFILES.map((profile) => ({ name: `${prefix}${profile}`, profile, args: [path, '--profile', profile], ms: [] as number[] }));
  const ours = build(cli(), '');
  const before = opts.before ? build(opts.before, 'before the change: ') : [];
  const starts = [...ours, ...before, noop];
  for (let round = -1; round < opts.sizes.startRuns; round++) {
    for (const each of round % 2 === 1 ? [...starts].reverse() : starts) {
      const started = performance.now();
      const driver = await McpDriver.start(process.execPath, each.args, base.tmux.env);
      const took = performance.now() - started;
      await driver.close();
      if (round >= 0) each.ms.push(took); // the first round warms the disk caches for all
    }
  }
  const floor = summarize(noop.ms).p50;
  row(sampled(noop.name, noop.ms, { note: 'before: 189, unbundled then' }));
  ours.forEach((each, i) => {
    const measured = before[i] ? summarize(before[i].ms).p50 : BEFORE.start[each.profile];
    row(sampled(`ours, --profile ${each.profile}`, each.ms, { ...(measured === undefined ? {} : { before: measured }) }));
    check(`cold start, --profile ${each.profile}`, 'no-op SDK server + 50 ms', summarize(each.ms).p50, floor + 50);
  });
  for (const each of before) row(sampled(`ours ${each.name}`, each.ms));
}
