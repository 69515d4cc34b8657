/**
 * Whether a tmux server listens on a socket file, found by connecting and hanging up at once: a
 * live server accepts, a stale socket (its server killed) refuses. Nothing is said to the server,
 * and no tmux process runs, so probing never starts a server.
 */
import { connect } from 'node:net';

export type SocketState = 'live' | 'stale' | 'missing';

export function probeSocket(path: string, timeoutMs = 1000): Promise<SocketState> {
  return new Promise((resolve) => {
    const socket = connect({ path });
    const done = (state: SocketState) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(state);
    };
    // A listening server accepts at once; one that cannot even accept within the deadline serves no one.
    const timer = setTimeout(() => done('stale'), timeoutMs);
    socket.once('connect', () => done('live'));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code === 'ENOENT' ? 'missing' : 'stale'));
  });
}
