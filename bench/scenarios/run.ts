/** A command's run: `true` in an sh pane, from the call to its exit status, ours and the peers' ways. */
import { performance } from 'node:perf_hooks';
import { BEFORE } from '../before.js';
import { servers, type Base } from '../base.js';
import { callTurn, interleave, type Turn } from '../measure.js';
import { ToolError, type McpDriver } from '../mcp.js';
import { opts } from '../options.js';
import { check, sampled, table } from '../report.js';
import { ms, summarize } from '../stats.js';

/**
 * nickgnd/tmux-mcp's way: `execute-command`, then `get-command-result` until it says completed,
 * asked again the moment it answers pending (the best an agent could do; a real one asks a turn later).
 */
function pollingTurn(driver: McpDriver, paneId: string, warmup: number, polls: number[]): Turn {
  return {
    warmup,
    async once() {
      const start = performance.now();
      const started = await driver.ok('execute-command', { paneId, command: 'true' });
      const commandId = /commandId: (\S+)/.exec(started.text)![1];
      for (let poll = 1; poll <= 1000; poll++) {
        const answer = await driver.ok('get-command-result', { commandId });
        if (!answer.text.startsWith('Status: completed')) continue;
        const took = performance.now() - start;
        polls.push(poll);
        return took;
      }
      throw new ToolError('get-command-result: still pending after 1,000 polls');
    },
  };
}

export async function runScenario(base: Base): Promise<void> {
  const { sizes } = opts;
  const row = table(
    "A command's run: `true` in an sh pane",
    'From the call to the answer with the exit status, each server in an sh pane of its own (ours runs it framed), called in turn. ' +
      "nickgnd/tmux-mcp's way: execute-command, then get-command-result again the moment it answers pending.",
  );
  const panes = [
    await base.tmux.newWindow('bench', 'sh'),
    await base.tmux.newWindow('bench', 'sh'),
    await base.tmux.newWindow('bench', 'sh'),
  ];
  const all = await servers(base, ['ours', 'before', 'nickgnd', 'python']);
  const polls: number[] = [];
  try {
    const ownWarmup = Math.min(sizes.warmup, 100);
    const [ours, nickgnd, python, measuredBefore] = await interleave(
      [
        callTurn(all.ours, 'run_shell_command', { paneId: base.shell, command: 'true' }, ownWarmup),
        pollingTurn(all.nickgnd, panes[0]!, sizes.peerWarmup, polls),
        callTurn(all.python, 'run_command', { pane_id: panes[1], command: 'true' }, sizes.peerWarmup),
        ...(all.before ? [callTurn(all.before, 'run_shell_command', { paneId: panes[2]!, command: 'true' }, ownWarmup)] : []),
      ],
      sizes.runRounds,
    );
    const before = measuredBefore ? summarize(measuredBefore).p50 : BEFORE.run;
    row(sampled('ours: run_shell_command', ours!, { before }));
    if (measuredBefore) row(sampled('ours before the change: run_shell_command', measuredBefore));
    const meanPolls = polls.reduce((sum, n) => sum + n, 0) / polls.length;
    row(
      sampled("nickgnd/tmux-mcp's way: execute-command + get-command-result polls", nickgnd!, {
        note: `${meanPolls.toFixed(1)} get-command-result calls a run`,
      }),
    );
    row(sampled("Python libtmux-mcp's way: run_command (tmux wait-for)", python!));
    const p50 = summarize(ours!).p50;
    check('run_shell_command `true`: ours, per call', `before (${ms(before)}) + 0.5 ms`, p50, before + 0.5);
    check(
      "run_shell_command `true`: ours ahead of nickgnd/tmux-mcp's way",
      "below that way's p50",
      p50,
      summarize(nickgnd!).p50,
      'ms',
      true,
    );
  } finally {
    await all.close();
    for (const pane of panes) await base.tmux.tmux('kill-pane', '-t', pane);
  }
}
