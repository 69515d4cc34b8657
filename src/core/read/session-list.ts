/**
 * The session list of one tmux server as list_sessions shows it (id, name, window count, creation
 * time, and the clients attached to each session), kept between calls while tmux reports no change.
 *
 * Each of those fields changes only with a notification tmux sends every control client
 * (control-notify.c: %sessions-changed, %session-renamed, %window-add/%window-close and their
 * %unlinked- forms, %client-session-changed, %client-detached), which TmuxServer counts in `changes`.
 * Fields that can change silently are left out on purpose: a session's active window and pane
 * (swap-window moves them without a word) and the client counts tmux keeps (ours are counted here).
 *
 * A kept list is answered without asking tmux only while it is fresh: tmux reported no change since it
 * was read, this server sent that tmux nothing but reads since (ChangeCount counts every other command,
 * when sent and when it came back), and the last proof began at most FRESH_MS ago on the same
 * connection. A proof is a round trip whose reply came back: it shows that the server answers and, since
 * tmux writes a control client's notifications and replies in the order things happen, that every
 * notification of a change made before it began has been read. Otherwise the kept list costs one empty
 * round trip, the proof. So a listing shows every change this server made, and every change tmux
 * reported up to FRESH_MS before the call; a hung host is found out at most FRESH_MS later, and then
 * costs its command timeout once.
 */
import { rowFormat, toInt } from '../../tmux/formats.js';
import { FRESH_MS } from '../../tmux/shared-reads.js';
import type { Engine } from '../engine.js';
import { readWithIncarnation } from './listings.js';
import type { Incarnation } from './records.js';

export interface SessionSummary {
  readonly incarnation: Incarnation;
  readonly id: string;
  readonly name: string;
  readonly windowCount: number;
  /** Seconds since the epoch. */
  readonly created: number;
}

export interface SessionList {
  readonly sessions: SessionSummary[];
  /** Clients per session id that are people (or other programs), not this server's own control clients. */
  readonly foreignClients: Map<string, number>;
}

/** The rows read last, with the connection and change count they were read under (EngineState.keptSessions). */
export interface KeptSessions {
  readonly epoch: number;
  readonly changes: number;
  /** When the last proof that they still hold began (performance.now()). */
  provedAt: number;
  /** The proof in flight, if any: when it began, and whether tmux answered it. */
  proving?: { readonly at: number; readonly answered: Promise<boolean> };
  readonly sessions: SessionSummary[];
  readonly clients: ReadonlyArray<{ readonly pid: number; readonly sessionId: string }>;
}

const SUMMARY_FORMAT = rowFormat({ id: 'session_id', name: 'session_name', windows: 'session_windows', created: 'session_created' });
const CLIENT_FORMAT = rowFormat({ pid: 'client_pid', sessionId: 'session_id' });
/** The cheapest command every tmux answers at once: its reply is the round trip that checks a kept list. */
const ROUND_TRIP = ['display-message', '-p', ''];

/** The sessions (in scope) and the clients of people per session, from the kept rows when tmux reported no change. */
export async function readSessionList(engine: Engine): Promise<SessionList> {
  const list = answer(engine, await rows(engine));
  if (!engine.scope.limitsSessions) return list;
  return { ...list, sessions: list.sessions.filter((s) => engine.scope.allowsSession(engine.tmux.host, s.name)) };
}

async function rows(engine: Engine): Promise<KeptSessions> {
  const { tmux } = engine;
  const current = (kept: KeptSessions) => kept.epoch === tmux.connectionEpoch && kept.changes === tmux.changes;
  const kept = engine.state.keptSessions;
  if (kept && current(kept)) {
    const now = performance.now();
    if (now - kept.provedAt <= FRESH_MS) return kept;
    // A proof begun within FRESH_MS is as good as one begun now: listings asked meanwhile share it.
    const proof = kept.proving && now - kept.proving.at <= FRESH_MS ? kept.proving : prove(engine, kept, now);
    if ((await proof.answered) && current(kept)) return kept;
  }
  // Counted before the reads go out: a change while they are on their way makes the next call read again.
  const epoch = tmux.connectionEpoch;
  const changes = tmux.changes;
  const provedAt = performance.now();
  const [sessions, clients] = await Promise.all([
    readWithIncarnation(engine, ['list-sessions', '-F', SUMMARY_FORMAT.format]),
    engine.runIfServer(['list-clients', '-F', CLIENT_FORMAT.format]),
  ]);
  const fresh: KeptSessions = {
    epoch,
    changes,
    provedAt,
    sessions: sessions
      ? SUMMARY_FORMAT.parse(sessions.lines).map((row) => ({
          incarnation: sessions.incarnation,
          id: row.id,
          name: row.name,
          windowCount: toInt(row.windows),
          created: toInt(row.created),
        }))
      : [],
    clients: clients ? CLIENT_FORMAT.parse(clients).map((row) => ({ pid: toInt(row.pid), sessionId: row.sessionId })) : [],
  };
  // Kept only from one connection that lasted through both reads (the same server, every notification heard).
  engine.state.keptSessions = sessions && epoch !== 0 && epoch === tmux.connectionEpoch ? fresh : undefined;
  return fresh;
}

/** One empty round trip; its reply, on the connection the rows were read on, makes them proved as of `at`. */
function prove(engine: Engine, kept: KeptSessions, at: number): NonNullable<KeptSessions['proving']> {
  // Ungated: it reads nothing of any session.
  const answered = engine.runIfServer(ROUND_TRIP, { ungated: true }).then((lines) => {
    if (lines && kept.epoch === engine.tmux.connectionEpoch) kept.provedAt = Math.max(kept.provedAt, at);
    return lines !== undefined;
  });
  const proof = { at, answered };
  kept.proving = proof;
  void answered.finally(() => {
    if (kept.proving === proof) kept.proving = undefined;
  }).catch(() => {});
  return proof;
}

/** A copy the caller may keep; this server's own clients are told apart now, as they come and go. */
function answer(engine: Engine, kept: KeptSessions): SessionList {
  const own = engine.tmux.ownClientPids();
  const foreignClients = new Map<string, number>();
  for (const client of kept.clients) if (!own.has(client.pid)) foreignClients.set(client.sessionId, (foreignClients.get(client.sessionId) ?? 0) + 1);
  return { sessions: [...kept.sessions], foreignClients };
}
