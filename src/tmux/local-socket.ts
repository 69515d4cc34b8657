/**
 * Where this machine's tmux socket is, worked out as tmux does from -S or -L and TMUX_TMPDIR, and
 * what can be known of it without running tmux: whether tmux may use the path, and whether a server
 * listens there. Start-up asks before any engine exists; TmuxServer asks the same.
 */
import { checkSocketPath, socketDirectory } from './socket-guard.js';
import { probeSocket } from './socket-probe.js';

export interface SocketLocation {
  readonly socketName?: string | undefined;
  readonly socketPath?: string | undefined;
}

export interface LocalSocket {
  readonly path: string;
  /** A -L name: the path is in tmux's per-user socket directory. */
  readonly named: boolean;
}

export function localSocket(location: SocketLocation, env: NodeJS.ProcessEnv): LocalSocket {
  return location.socketPath !== undefined
    ? { path: location.socketPath, named: false }
    : { path: `${socketDirectory(env)}/${location.socketName ?? 'default'}`, named: true };
}

/** The socket as messages and the banner name it. */
export function socketLabel(location: SocketLocation): string {
  return location.socketPath !== undefined
    ? location.socketPath
    : location.socketName !== undefined
      ? `-L ${location.socketName}`
      : 'the default socket';
}

/** Throws TmuxSocketUnusableError when tmux would destroy what is at the path. */
export function checkLocalSocket(socket: LocalSocket): void {
  checkSocketPath(socket.path, { socketDirectory: socket.named });
}

/** Whether a tmux server accepts connections on the socket now: a connect, no tmux run. */
export async function serverListening(socket: LocalSocket): Promise<boolean> {
  return (await probeSocket(socket.path)) === 'live';
}
