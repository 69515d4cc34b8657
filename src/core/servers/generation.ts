/**
 * Generations: an opaque string naming one incarnation of one tmux server, handed out beside ids
 * (`{paneId, generation}`) so a later call can prove it still means the same daemon. tmux reuses
 * `%3` after a restart; the generation does not repeat, so a stale target is refused instead of
 * acting on whatever now has that id.
 *
 * Shape: `<pid>:<start_time>:<socket tag>` for this machine's tmux, `<host>:<pid>:<start_time>:<socket tag>`
 * for a configured host's, the tag a short hash of the host and socket path. The host part says
 * where a target lives, so a call goes there without asking every host; the tag tells "another
 * server" (another socket, or another host) apart from "an earlier daemon on this socket".
 */
import type { Engine } from '../engine.js';
import { Failure } from '../failure.js';
import type { Incarnation } from '../read/records.js';
import { shortHash } from '../targets/refs.js';

/** The check only reads the server's identity: a refusal here has changed nothing. */
const READ_ONLY = { touched: false } as const;

/** The socket part of a generation: tells another server's (another socket or host) from an earlier daemon's. */
function socketTag(incarnation: Incarnation): string {
  // A local server's tag is the hash of its path alone, as before hosts existed.
  return shortHash(incarnation.host === undefined ? incarnation.socketPath : `${incarnation.host}\0${incarnation.socketPath}`, 10);
}

export function generationOf(incarnation: Incarnation): string {
  const local = `${incarnation.pid}:${incarnation.startTime}:${socketTag(incarnation)}`;
  return incarnation.host === undefined ? local : `${incarnation.host}:${local}`;
}

/** The parts of a generation this process could have issued; undefined for any other string. */
function parseGeneration(generation: string): { host: string | undefined; tag: string } | undefined {
  const parts = generation.split(':');
  if (parts.length === 3) return { host: undefined, tag: parts[2]! };
  if (parts.length === 4 && parts[0] !== '') return { host: parts[0], tag: parts[3]! };
  return undefined;
}

/** The host a generation names (undefined: this machine's tmux, or not a generation we issue). */
export function generationHost(generation: string): string | undefined {
  return parseGeneration(generation)?.host;
}

/**
 * Checks, against the running server, that `generation` is the current one before anything acts
 * on `subject` (a pane or session id). A generation of another socket is `wrong_server`; any other
 * mismatch (an earlier daemon, no daemon at all, a string we never issued) is `stale`.
 */
export async function checkGeneration(engine: Engine, subject: string, generation: string): Promise<Incarnation> {
  const identity = await engine.identity();
  if (identity && generationOf(identity) === generation) return identity;
  const parsed = parseGeneration(generation);
  if (identity && parsed && (parsed.tag !== socketTag(identity) || parsed.host !== identity.host)) {
    throw wrongServer(subject, 'Use a target listed by this server (list_panes).');
  }
  throw staleTarget(subject, 'The tmux server restarted since this target was listed; call list_panes for current targets.');
}

/** `subject` belongs to a tmux server other than the one asked (another socket or host). */
export function wrongServer(subject: string, hint: string): Failure {
  return new Failure('wrong_server', `target ${JSON.stringify(subject)} belongs to another server`, hint, READ_ONLY);
}

/** `subject` belonged to an earlier tmux daemon, or is gone; `touched` when tmux was already changed. */
export function staleTarget(subject: string, hint: string, touched = false): Failure {
  return new Failure('stale', `target ${JSON.stringify(subject)} belongs to another observed daemon generation`, hint, { touched });
}
