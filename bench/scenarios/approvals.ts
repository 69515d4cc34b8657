/** Approval rules a call does not meet: send_keys through a server with rules against the same server without. */
import type { Base } from '../base.js';
import { callTurn, interleave } from '../measure.js';
import { McpDriver } from '../mcp.js';
import { opts } from '../options.js';
import { check, sampled, table } from '../report.js';
import { ms, summarize } from '../stats.js';

/** A tool glob and text rules the measured keys are read against and do not meet. */
const RULES = ['tool:kill_*', 'text:\\brm\\s+-[a-z]*[rf]', 'text:\\b(sudo|terraform\\s+destroy)\\b'];

export async function approvalsScenario(base: Base): Promise<void> {
  const { sizes } = opts;
  const row = table(
    'send_keys with approval rules none of its calls meet',
    `One key and Enter to a sink pane through two servers of ours called in turn (${sizes.rounds} rounds at most, ${sizes.budgetMs / 1000} s, ` +
      `after ${sizes.warmup} warm-up calls each): one with \`${RULES.map((rule) => `--approve ${rule}`).join(' ')}\`, one without.`,
  );
  const none = await McpDriver.ours(base.tmux.env);
  const ruled = await McpDriver.ours(
    base.tmux.env,
    RULES.flatMap((rule) => ['--approve', rule]),
  );
  try {
    const args = { paneId: base.sink, keys: ['x'], literal: true, enter: true };
    const [without, withRules] = await interleave(
      [callTurn(none, 'send_keys', args, sizes.warmup), callTurn(ruled, 'send_keys', args, sizes.warmup)],
      sizes.rounds,
    );
    const off = summarize(without!).p50;
    const on = summarize(withRules!).p50;
    row(sampled('send_keys: no rules', without!));
    row(sampled('send_keys: three rules, none met', withRules!, { note: `${on >= off ? '+' : ''}${ms(on - off)} ms against no rules` }));
    check('send_keys with rules none met', 'no rules + 0.1 ms', on, off + 0.1);
  } finally {
    await Promise.all([none.close(), ruled.close()]);
  }
}
