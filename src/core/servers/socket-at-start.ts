/**
 * The configured local socket as start-up sees it before any engine exists: how the banner names
 * it, whether tmux may use the path, and whether a server listens there (a connect, no tmux run).
 */
import { checkLocalSocket, localSocket, serverListening, socketLabel, type SocketLocation } from '../../tmux/local-socket.js';
import { TmuxSocketUnusableError } from '../../tmux/socket-guard.js';
import { asFailure } from '../failure.js';

export interface SocketAtStart {
  readonly label: string;
  /** Why tmux may not be run on the path (it would destroy what is there), or undefined when it may. */
  readonly problem: string | undefined;
  listening(): Promise<boolean>;
}

export function socketAtStart(location: SocketLocation, env: NodeJS.ProcessEnv): SocketAtStart {
  const socket = localSocket(location, env);
  let problem: string | undefined;
  try {
    checkLocalSocket(socket);
  } catch (error) {
    if (!(error instanceof TmuxSocketUnusableError)) throw error;
    problem = asFailure(error)!.sentence;
  }
  return { label: socketLabel(location), problem, listening: () => serverListening(socket) };
}
