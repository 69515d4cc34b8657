/** Oversight: the audit log, recordings, the live view and approval rules, against the same server without them. */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fastCalls, type Base } from '../base.js';
import { interleave, permutations } from '../measure.js';
import { McpDriver } from '../mcp.js';
import { opts } from '../options.js';
import { addRow, table } from '../report.js';
import { ms, summarize, type Summary } from '../stats.js';

/** With the oversight flags on, a send_keys or capture_pane may cost at most this much more (p50, ms). */
const OVERSIGHT_OVER_MS = 0.1;
/** A live view with no browser connected may add at most this (p50, ms): nothing of it runs per call. */
const VIEW_IDLE_OVER_MS = 0.05;
/** Approval rules the measured calls do not meet may add at most this (p50, ms): issue 40. */
const RULES_UNMET_OVER_MS = 0.1;
/** Rules a send_keys or capture_pane of the bench meets none of: a tool glob and text rules the keys are read against. */
const RULES = ['--approve', 'tool:kill_*', '--approve', 'text:\\brm\\s+-[a-z]*[rf]', '--approve', 'text:\\b(sudo|terraform\\s+destroy)\\b'];

export async function oversightScenario(base: Base): Promise<void> {
  const dir = mkdtempSync(join(base.tmux.dir, 'oversight-'));
  mkdirSync(join(dir, 'casts'));
  // The audit log, with a redaction pattern so that redaction is paid for too, and recordings of the panes acted on.
  const flags = ['--audit', join(dir, 'audit.jsonl'), '--audit-redact', 'sk-[A-Za-z0-9]{8,}', '--record', join(dir, 'casts')];
  const t = table(
    'Oversight: audit log, live view and approval rules',
    `Five servers on the same tmux, called in turn (every order in rotation, warmed): off; off again (the control); ` +
      `on (${flags.join(' ').replace(dir, 'DIR')}); off with \`--view 127.0.0.1:0\` and no browser; off with approval rules the calls do not meet ` +
      `(${RULES.filter((_, i) => i % 2 === 1).join(', ')}). Targets: on <= off + ${OVERSIGHT_OVER_MS} ms, view <= off + ${VIEW_IDLE_OVER_MS} ms, rules <= off + ${RULES_UNMET_OVER_MS} ms.`,
  );
  const env = { ...base.tmux.env, TMUX_MCP_TOKEN: 'bench-view-token-0123456789' };
  const drivers = [
    await McpDriver.ours(env),
    await McpDriver.ours(env),
    await McpDriver.ours(env, [], flags),
    await McpDriver.ours(env, [], ['--view', '127.0.0.1:0']),
    await McpDriver.ours(env, [], RULES),
  ];
  try {
    const [, , , screen, keys] = fastCalls(base);
    for (const call of [keys!, screen!]) {
      const turns = drivers.map((driver) => ({ driver, tool: call.tool, args: call.args() }));
      const { samples, cpu } = await interleave(turns, opts.iterations, Math.min(opts.warmup, 500), permutations([0, 1, 2, 3, 4]));
      const [off, control, on, viewed, ruled] = samples.map((each) => summarize(each));
      const beyond = (summary: Summary) => `${summary.p50 >= off!.p50 ? '+' : ''}${ms(summary.p50 - off!.p50)} ms against off`;
      const held = (over: number) => ({ target: off!.p50 + over, goal: `off + ${over} ms`, floorValue: off!.p50 });
      addRow(t, { name: `${call.name}: oversight off`, summary: off!, cpu: cpu[0] });
      addRow(t, { name: `${call.name}: off again (control)`, summary: control!, cpu: cpu[1], note: beyond(control!) });
      addRow(t, { name: `${call.name}: --audit --record on`, summary: on!, cpu: cpu[2], ...held(OVERSIGHT_OVER_MS), note: beyond(on!) });
      addRow(t, { name: `${call.name}: --view, no browser`, summary: viewed!, cpu: cpu[3], ...held(VIEW_IDLE_OVER_MS), note: beyond(viewed!) });
      addRow(t, { name: `${call.name}: --approve rules, none met`, summary: ruled!, cpu: cpu[4], ...held(RULES_UNMET_OVER_MS), note: beyond(ruled!) });
    }
    const written = readFileSync(join(dir, 'audit.jsonl'), 'utf8').split('\n').length - 1;
    const casts = readdirSync(join(dir, 'casts')).filter((name) => name.endsWith('.cast')).length;
    t.after.push(`The audit log took ${written} lines in this run (every measured and warm-up call of the "on" server), and ${casts} pane recordings were made.`);
    console.log('  ' + t.after.at(-1));
  } finally {
    await Promise.all(drivers.map((driver) => driver.close()));
  }
}
