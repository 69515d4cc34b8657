/** A run of `true` in an integrated bash pane beside a framed sh pane: what the integration costs a run. */
import { servers, type Base } from '../base.js';
import { interleave, type Turn } from '../measure.js';
import type { McpDriver } from '../mcp.js';
import { opts } from '../options.js';
import { sampled, table } from '../report.js';

/** A run of `true` in `paneId`; `modes` collects how each answer says it ran (framed or not). */
function runTurn(driver: McpDriver, paneId: string, modes: Set<string>, warmup: number): Turn {
  return {
    warmup,
    async once() {
      const outcome = await driver.ok('run_shell_command', { paneId, command: 'true' });
      modes.add(/\[framed/.test(outcome.text) ? 'framed' : 'not framed');
      return outcome.ms;
    },
  };
}

export async function shellsScenario(base: Base): Promise<void> {
  const row = table(
    'A run of `true`: integrated bash pane beside framed sh pane',
    'run_shell_command `true` in a bash pane the server found (its first run installs the shell integration: that run is a warm-up) and in an sh pane, ' +
      'which is framed; called in turn. No target: what the integration costs a run (docs/shell-integration.md).',
  );
  const bash = await base.tmux.newWindow('bench', 'bash');
  const { ours, close } = await servers(base, ['ours']);
  const modes = { bash: new Set<string>(), sh: new Set<string>() };
  try {
    const warmup = Math.max(opts.sizes.peerWarmup, 5);
    const [inBash, inSh] = await interleave(
      [runTurn(ours, bash, modes.bash, warmup), runTurn(ours, base.shell, modes.sh, warmup)],
      opts.sizes.runRounds,
    );
    const said = (seen: Set<string>) => `the answers said: ${[...seen].join(', ')}`;
    row(sampled('bash pane (integrated)', inBash!, { note: said(modes.bash) }));
    row(sampled('sh pane (framed)', inSh!, { note: said(modes.sh) }));
  } finally {
    await close();
    await base.tmux.tmux('kill-pane', '-t', bash);
  }
}
