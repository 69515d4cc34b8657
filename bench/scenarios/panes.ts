/** A 200-pane listing: one tmux server of 20 windows x 10 panes, listed whole by ours and the peers' ways. */
import { performance } from 'node:perf_hooks';
import { BEFORE } from '../before.js';
import { callTurn, interleave } from '../measure.js';
import { McpDriver } from '../mcp.js';
import { opts } from '../options.js';
import { check, sampled, table } from '../report.js';
import { summarize } from '../stats.js';
import { BenchTmux, growPaneFarm } from '../tmux.js';

const PANES = 200;
/** Each pane as the run before built it: 125 rows of text (scrollback past its 20-odd rows of screen), then `cat`. */
const paneCommand = () => 'seq -f "row %g: quick brown fox" 1 125; exec cat';

export async function panesScenario(): Promise<void> {
  const row = table(
    `Listing ${PANES} panes`,
    `list_panes over a whole tmux server of ${PANES} panes (20 windows of 10), called in turn: ours with every contract field; ` +
      "nickgnd/tmux-mcp's way asks 3 fields a pane in one spawned tmux (its own tool lists one window a call: this is its best case); " +
      "the Python way asks every field libtmux's objects read.",
  );
  const tmux = new BenchTmux();
  const drivers: McpDriver[] = [];
  try {
    const started = performance.now();
    await tmux.start({ width: 400, height: 200, command: paneCommand() });
    await growPaneFarm(tmux, { from: 1, panes: PANES, paneCommand });
    console.log(`  (built ${PANES} panes in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
    drivers.push(await McpDriver.ours(tmux.env), await McpDriver.bench('nickgnd', tmux.env), await McpDriver.bench('python', tmux.env));
    if (opts.before) drivers.push(await McpDriver.ours(tmux.env, [], opts.before));
    const [ours, nickgnd, python, before] = drivers;
    const warmup = opts.sizes.peerWarmup;
    const [mine, theirs, pythons, measuredBefore] = await interleave(
      [
        callTurn(ours!, 'list_panes', {}, warmup * 5),
        callTurn(nickgnd!, 'list-panes', {}, warmup),
        callTurn(python!, 'list_panes', {}, warmup),
        ...(before ? [callTurn(before, 'list_panes', {}, warmup * 5)] : []),
      ],
      opts.sizes.listRounds,
    );
    row(
      sampled('ours: list_panes, every contract field', mine!, {
        before: measuredBefore ? summarize(measuredBefore).p50 : BEFORE.panes200,
      }),
    );
    if (measuredBefore) row(sampled('ours before the change: list_panes', measuredBefore));
    row(sampled("nickgnd/tmux-mcp's way: 3 fields a pane, tmux spawned per call", theirs!, { note: 'before: the same way measured 8.33' }));
    row(sampled("Python libtmux-mcp's way: every field, tmux spawned per call", pythons!));
    check(
      `list_panes, ${PANES} panes: ours ahead of nickgnd/tmux-mcp's way`,
      "below that way's p50",
      summarize(mine!).p50,
      summarize(theirs!).p50,
      'ms',
      true,
    );
  } finally {
    await Promise.all(drivers.map((driver) => driver.close()));
    tmux.dispose();
  }
}
