/**
 * The tmux servers of this user: the sockets in tmux's socket directory (`$TMUX_TMPDIR` or /tmp,
 * then `tmux-<uid>`), each told live or stale without starting a server, and ending one server.
 */
import { readdir, lstat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { probeSocket } from '../../tmux/socket-probe.js';
import type { Engine } from '../engine.js';
import { invalidArgument, notFound, refused } from '../failure.js';
import { socketDirectory } from './registry.js';

export interface SocketEntry {
  /** The name `tmux -L` takes, for sockets in the socket directory; null for other paths. */
  readonly socketName: string | null;
  readonly socketPath: string;
  /** A tmux server accepts connections on it now (false: stale, missing, or not a socket). */
  readonly alive: boolean;
}

/** Most sockets looked at in the directory, and most extra paths per call. */
const MAX_SOCKETS = 256;
const MAX_EXTRA_SOCKET_PATHS = 64;

/**
 * The sockets in the socket directory (sorted by name; other files left out), then each of
 * `extraSocketPaths` in the order given (not a socket, or missing: not alive).
 */
export async function listSockets(
  options: { env?: NodeJS.ProcessEnv; extraSocketPaths?: readonly string[] | null } = {},
): Promise<SocketEntry[]> {
  const extra = options.extraSocketPaths ?? [];
  if (extra.length > MAX_EXTRA_SOCKET_PATHS)
    throw invalidArgument(`extra_socket_paths lists ${extra.length} paths; at most ${MAX_EXTRA_SOCKET_PATHS}`);
  for (const path of extra) {
    if (path.includes('\0') || !isAbsolute(path)) {
      throw invalidArgument(
        `extra_socket_paths: ${JSON.stringify(path.slice(0, 200))} is not an absolute path`,
        'Give full socket paths, such as the one tmux -S was started with.',
      );
    }
  }
  const dir = socketDirectory(options.env);
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const names = entries
    .filter((entry) => entry.isSocket())
    .map((entry) => entry.name)
    .sort()
    .slice(0, MAX_SOCKETS);
  const inDirectory = names.map(async (name) => {
    const socketPath = join(dir, name);
    return { socketName: name, socketPath, alive: (await probeSocket(socketPath)) === 'live' };
  });
  const byPath = extra.map(async (socketPath) => {
    const info = await lstat(socketPath).catch(() => undefined);
    return { socketName: null, socketPath, alive: info?.isSocket() === true && (await probeSocket(socketPath)) === 'live' };
  });
  return Promise.all([...inDirectory, ...byPath]);
}

/**
 * Ends the tmux server and everything in it. Refused, unless `force`, when this MCP server runs
 * inside it (or may: a caller whose server is unknown).
 */
export async function killServer(engine: Engine, options: { force?: boolean } = {}): Promise<void> {
  const identity = await engine.identity();
  if (!identity) throw notFound(`no tmux server is running on ${engine.tmux.socketLabel}`, 'Call list_servers to see which servers run.');
  const caller = engine.options.caller;
  const inside =
    caller !== undefined &&
    (caller.serverPid !== undefined
      ? caller.serverPid === identity.pid
      : caller.socketPath !== undefined
        ? caller.socketPath === identity.socketPath
        : true);
  if (inside && !options.force) {
    throw refused(
      `refusing to kill the tmux server on ${identity.socketPath}: this MCP server runs inside it, and would end with it`,
      'Kill the sessions you no longer need instead, or end the server from outside it; where the tool takes force, force: true allows it.',
    );
  }
  // Spawned: the control connection dies with the server, possibly before tmux answers on it.
  await engine.output(['kill-server']);
  // tmux answers before its process has exited and stopped accepting on the socket: answer once it
  // is gone, so a list_servers right after does not find it. Another host's pid cannot be watched here.
  if (identity.host === undefined) await processGone(identity.pid, EXIT_WAIT_MS);
}

/** The longest kill_server waits for the server's process to end (it ends in milliseconds). */
const EXIT_WAIT_MS = 2000;

/** Resolves once `pid` no longer exists, or after `ms`. A process that is not our child has no exit event to wait on. */
async function processGone(pid: number, ms: number): Promise<void> {
  const deadline = performance.now() + ms;
  while (performance.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return;
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
