/**
 * Checks that a tmux runs and is one this server can drive: the local binary before serving, and
 * the tmux on each host when its first connection is made.
 */
import { localLauncher, type Launcher } from './launcher.js';
import { spawnTmux } from './spawn.js';
import { TmuxHostError, TmuxUnavailableError } from './errors.js';
import { OLDEST_TESTED, parseVersion, tooOld } from './versions.js';

/**
 * Runs `bin -V` and returns the version it reports ("3.3a", "next-3.5", "master"). Throws
 * TmuxUnavailableError when it cannot run, exits non-zero, is not tmux, or is older than the oldest tested.
 */
export async function checkTmuxBinary(bin: string, env: NodeJS.ProcessEnv, timeoutMs = 10_000): Promise<string> {
  return checkTmuxVersion(localLauncher(bin), env, timeoutMs);
}

/**
 * `tmux -V` through `launcher`. On a host a failure is a TmuxHostError naming the host (ssh's own
 * failure stays what ssh said); here it is a TmuxUnavailableError.
 */
export async function checkTmuxVersion(launcher: Launcher, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  const result = await spawnTmux(launcher, [], ['-V'], { timeoutMs, env });
  const problem = (text: string) =>
    launcher.host === undefined
      ? new TmuxUnavailableError(launcher.label, text)
      : TmuxHostError.tmux(launcher.host, launcher.destination ?? launcher.label, text);
  const out = result.stdout.toString('utf8').trim();
  const m = /^tmux (\S+)/.exec(out);
  const bin = launcher.host === undefined ? launcher.label : 'tmux';
  if (result.code !== 0 || !m) {
    const said = (out || result.stderr.trim()).split('\n')[0]?.slice(0, 200) ?? '';
    throw problem(
      `\`${bin} -V\` ${result.code !== 0 ? `exited with status ${result.code}` : 'did not answer "tmux <version>"'}${said ? ` (it said: ${said})` : ''}; it is not a working tmux`,
    );
  }
  const version = m[1]!;
  if (tooOld(parseVersion(version))) {
    const why = `it is tmux ${version}; tmux ${OLDEST_TESTED} or newer is needed`;
    if (launcher.host !== undefined) throw problem(why);
    throw new TmuxUnavailableError(bin, why, {
      message: `${bin}: ${why}`,
      hint: `Install tmux ${OLDEST_TESTED} or newer (Debian 13 ships 3.5a), or set LIBTMUX_TMUX_BIN to one.`,
    });
  }
  return version;
}
