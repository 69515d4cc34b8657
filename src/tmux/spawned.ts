/**
 * A command in a spawned `tmux` (no control client to carry it, or it needs stdin): sent again
 * while the server on the socket is exiting, and its failure said as tmux's error it is.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { left } from './deadline.js';
import { TmuxCommandError, TmuxNoServerError, TmuxNotTmuxSocketError } from './errors.js';
import type { Launcher } from './launcher.js';
import { spawnTmux } from './spawn.js';

/** What a tmux client says when no server listens on the socket. */
const NO_SERVER = /no server running|error connecting to|No such file or directory|Connection refused/i;
/** What a tmux client says when its server went away before answering (client.c, CLIENT_EXIT_LOST_SERVER). */
const SERVER_EXITING = /server exited unexpectedly|lost server/;
/** Pause between tries at a server that is exiting, so a socket that keeps dropping clients is not hammered. */
const EXITING_PAUSE_MS = 5;
/** The longest a socket that drops clients is taken for a server on its way out. */
const EXITING_MAX_MS = 500;

/** The server a command is spawned for: how to start tmux there, and the socket check made before each start. */
export interface SpawnTarget {
  readonly launcher: Launcher;
  readonly globalArgs: readonly string[];
  readonly socketLabel: string;
  checkSocket(): void;
}

/** Runs `command` in a spawned tmux by `deadline` (performance.now() time); its stdout byte for byte. */
export async function runSpawned(
  target: SpawnTarget,
  command: readonly string[],
  options: {
    readonly deadline: number;
    readonly env: NodeJS.ProcessEnv;
    readonly stdin: Buffer | undefined;
    readonly signal: AbortSignal | undefined;
  },
): Promise<Buffer> {
  const { deadline, env, stdin, signal } = options;
  target.checkSocket();
  let result = await spawnTmux(target.launcher, target.globalArgs, command, { timeoutMs: left(deadline), env, stdin, signal });
  // A server exiting after its last session went still takes connections, then drops them
  // unanswered: the command never ran in a server that lives on. Sent again, it reaches the
  // next server (a spawned tmux starts one) once the old one is gone, a few round trips later.
  // An exiting server is gone within a few round trips; a socket that keeps dropping clients for
  // longer is not a tmux server on its way out (another program listens there), said at once below.
  const exitingUntil = Math.min(deadline, performance.now() + EXITING_MAX_MS);
  while (result.code !== 0 && SERVER_EXITING.test(result.stderr) && performance.now() + EXITING_PAUSE_MS < exitingUntil) {
    await sleep(EXITING_PAUSE_MS);
    target.checkSocket();
    result = await spawnTmux(target.launcher, target.globalArgs, command, { timeoutMs: left(deadline), env, stdin, signal });
  }
  if (result.code !== 0) {
    if (NO_SERVER.test(result.stderr)) throw new TmuxNoServerError(target.socketLabel);
    // Still dropped once the deadline is near: not a server on its way out, but something that does not speak tmux.
    if (SERVER_EXITING.test(result.stderr)) throw new TmuxNotTmuxSocketError(target.socketLabel, result.stderr);
    throw new TmuxCommandError(command, result.stderr);
  }
  return result.stdout;
}
