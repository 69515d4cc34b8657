/**
 * Generations: an opaque string naming one incarnation of one tmux server, handed out beside ids
 * (`{paneId, generation}`) so a later call can prove it still means the same daemon. tmux reuses
 * `%3` after a restart; the generation does not repeat, so a stale target is refused instead of
 * acting on whatever now has that id.
 *
 * Shape: `<pid>:<start_time>:<socket tag>`, the tag a short hash of the socket path. The socket
 * part tells "another server" (another socket) apart from "an earlier daemon on this socket".
 */
import { createHash } from 'node:crypto';
import type { Engine } from './engine.js';
import { Failure } from './failure.js';
import type { Incarnation } from './records.js';

/** The check only reads the server's identity: a refusal here has changed nothing. */
const READ_ONLY = { touched: false } as const;

const tags = new Map<string, string>();

function socketTag(socketPath: string): string {
  let tag = tags.get(socketPath);
  if (tag === undefined) {
    tag = createHash('sha256').update(socketPath).digest('base64url').slice(0, 10);
    if (tags.size >= 64) tags.clear();
    tags.set(socketPath, tag);
  }
  return tag;
}

export function generationOf(incarnation: Incarnation): string {
  return `${incarnation.pid}:${incarnation.startTime}:${socketTag(incarnation.socketPath)}`;
}

/**
 * Checks, against the running server, that `generation` is the current one before anything acts
 * on `subject` (a pane or session id). A generation of another socket is `wrong_server`; any other
 * mismatch (an earlier daemon, no daemon at all, a string we never issued) is `stale`.
 */
export async function checkGeneration(engine: Engine, subject: string, generation: string): Promise<Incarnation> {
  const identity = await engine.identity();
  if (identity && generationOf(identity) === generation) return identity;
  const parts = generation.split(':');
  if (identity && parts.length === 3 && parts[2] !== socketTag(identity.socketPath)) {
    throw new Failure('wrong_server', `target ${JSON.stringify(subject)} belongs to another server`, 'Use a target listed by this server (list_panes).', READ_ONLY);
  }
  throw new Failure(
    'stale',
    `target ${JSON.stringify(subject)} belongs to another observed daemon generation`,
    'The tmux server restarted since this target was listed; call list_panes for current targets.',
    READ_ONLY,
  );
}
