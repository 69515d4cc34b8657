/**
 * Refuses a local socket path tmux would destroy. A tmux client that finds no server on its socket
 * unlinks the path and starts one there (client.c: `unlink(path)`, then server_start, which also
 * unlinks `PATH.lock`): an ordinary file given as the socket would lose its content. So before any
 * tmux process runs on a local socket, the path must be missing or a socket, its lock file missing
 * or tmux's own (empty), and a `-L` socket directory must be this user's and closed to others (tmux
 * checks that too, and says only "access not allowed").
 */
import { lstatSync, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { TmuxError } from './errors.js';

/** The socket path is not one tmux may use: nothing was run. */
export class TmuxSocketUnusableError extends TmuxError {
  constructor(path: string, problem: string) {
    super(
      `the tmux socket path ${JSON.stringify(path)} ${problem}; no tmux was run on it`,
      'Point --socket / LIBTMUX_SOCKET_PATH (or the socket name) at a tmux socket or at a path that does not exist yet.',
    );
  }
}

function stat(path: string, follow = false): Stats | undefined {
  try {
    return follow ? statSync(path) : lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function kind(stats: Stats): string {
  if (stats.isFile()) return 'is an ordinary file';
  if (stats.isDirectory()) return 'is a directory';
  if (stats.isSymbolicLink()) return 'is a symbolic link to something that is not a socket';
  if (stats.isFIFO()) return 'is a named pipe';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'is a device';
  return 'is not a socket';
}

/**
 * Throws TmuxSocketUnusableError unless `path` may be handed to tmux. `socketDirectory` is given
 * for a `-L` name: the directory tmux made for this user, which must be theirs and private.
 */
export function checkSocketPath(path: string, options: { socketDirectory?: boolean } = {}): void {
  try {
    const found = stat(path);
    if (found?.isSymbolicLink()) {
      // A link to a live socket is how some set-ups share one; a link to anything else would be replaced.
      const target = stat(path, true);
      if (!target?.isSocket())
        throw new TmuxSocketUnusableError(
          path,
          target ? kind(target).replace(/^is /, 'is a symbolic link to ') : 'is a dangling symbolic link',
        );
    }
    if (found && !found.isSymbolicLink() && !found.isSocket()) throw new TmuxSocketUnusableError(path, kind(found));
    if (options.socketDirectory) {
      const dir = stat(dirname(path), true);
      const uid = process.getuid?.();
      if (dir && uid !== undefined && (!dir.isDirectory() || dir.uid !== uid || (dir.mode & 0o007) !== 0)) {
        throw new TmuxSocketUnusableError(
          path,
          `is in ${dirname(path)}, which is not a private directory of this user (tmux refuses it too)`,
        );
      }
    }
  } catch (error) {
    if (error instanceof TmuxSocketUnusableError) throw error;
    throw new TmuxSocketUnusableError(path, `cannot be checked (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  checkLock(path);
}

/** tmux's socket directory for this user: `$TMUX_TMPDIR` (or /tmp) + `/tmux-<uid>` (tmux.c: expand_paths). */
export function socketDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const base = (env.TMUX_TMPDIR || '/tmp').replace(/\/+$/, '') || '/';
  return `${base === '/' ? '' : base}/tmux-${process.getuid?.() ?? 0}`;
}

/** tmux's start-up lock `PATH.lock` is empty and short-lived; anything else there is someone's file that tmux would unlink. */
function checkLock(path: string): void {
  const lock = stat(`${path}.lock`);
  if (lock && !(lock.isFile() && lock.size === 0))
    throw new TmuxSocketUnusableError(path, `has a file beside it, ${JSON.stringify(`${path}.lock`)}, that is not tmux's lock`);
}
