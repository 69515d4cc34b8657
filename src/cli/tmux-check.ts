/** The tmux binary check at start-up, worded for the flag or variable that chose the binary. */
import { describeTmuxVersion, localTmuxCheck } from '../core/servers/tmux-binary.js';
import { ConfigError, type Config } from '../config.js';

/**
 * Checks that the tmux executable runs and is tmux 3.3a or newer (the oldest the suite runs on), so a wrong LIBTMUX_TMUX_BIN stops
 * start-up with a message instead of failing every call later. Returns the version as the banner says it.
 */
export async function checkTmuxBin(config: Config, env: NodeJS.ProcessEnv): Promise<string> {
  const checked = await localTmuxCheck(config.tmuxBin, env);
  if ('version' in checked) return describeTmuxVersion(checked.version);
  const fromEnv = env.LIBTMUX_TMUX_BIN === undefined || env.LIBTMUX_TMUX_BIN.trim() === '' ? undefined : env.LIBTMUX_TMUX_BIN;
  const source = config.tmuxBin !== (fromEnv ?? 'tmux') ? '--tmux' : fromEnv !== undefined ? 'LIBTMUX_TMUX_BIN' : 'tmux on PATH';
  throw new ConfigError(`${source}: ${checked.problem}`);
}
