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
 * A kept list is never answered blind: it costs one empty round trip, whose reply proves that the
 * server answers (a hung host still costs its command timeout) and, since tmux writes a control
 * client's notifications and replies in the order things happen, that every notification of a change
 * made before the call has been read by then. A list answered from the kept rows is therefore what
 * tmux holds at that reply, as one read anew would be at its own.
 */
import { rowFormat, toInt } from '../../tmux/formats.js';
import type { TmuxServer } from '../../tmux/server.js';
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

/** Reads a listing with the incarnation of the server that answered it; undefined when no server runs (Engine's #read). */
export type IncarnationRead = (command: readonly string[]) => Promise<{ lines: string[]; incarnation: Incarnation } | undefined>;

const SUMMARY_FORMAT = rowFormat({ id: 'session_id', name: 'session_name', windows: 'session_windows', created: 'session_created' });
const CLIENT_FORMAT = rowFormat({ pid: 'client_pid', sessionId: 'session_id' });
/** The cheapest command every tmux answers at once: its reply is the round trip that checks a kept list. */
const ROUND_TRIP = ['display-message', '-p', ''];

interface Kept {
  readonly epoch: number;
  readonly changes: number;
  readonly sessions: SessionSummary[];
  readonly clients: ReadonlyArray<{ readonly pid: number; readonly sessionId: string }>;
}

export class KeptSessionList {
  readonly #tmux: TmuxServer;
  readonly #read: IncarnationRead;
  #kept: Kept | undefined;

  constructor(tmux: TmuxServer, read: IncarnationRead) {
    this.#tmux = tmux;
    this.#read = read;
  }

  async read(): Promise<SessionList> {
    const kept = this.#kept;
    if (kept && this.#current(kept)) {
      // Ungated: it reads nothing of any session.
      const answered = await this.#tmux.runIfServer(ROUND_TRIP, { ungated: true });
      if (answered && this.#current(kept)) return this.#answer(kept);
    }
    // Counted before the reads go out: a change while they are on their way makes the next call read again.
    const epoch = this.#tmux.connectionEpoch;
    const changes = this.#tmux.changes;
    const [sessions, clients] = await Promise.all([
      this.#read(['list-sessions', '-F', SUMMARY_FORMAT.format]),
      this.#tmux.runIfServer(['list-clients', '-F', CLIENT_FORMAT.format]),
    ]);
    const fresh: Kept = {
      epoch,
      changes,
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
    this.#kept = sessions && epoch !== 0 && epoch === this.#tmux.connectionEpoch ? fresh : undefined;
    return this.#answer(fresh);
  }

  #current(kept: Kept): boolean {
    return kept.epoch === this.#tmux.connectionEpoch && kept.changes === this.#tmux.changes;
  }

  /** A copy the caller may keep; our own clients are told apart now, as they come and go. */
  #answer(kept: Kept): SessionList {
    const own = this.#tmux.ownClientPids();
    const foreignClients = new Map<string, number>();
    for (const client of kept.clients) if (!own.has(client.pid)) foreignClients.set(client.sessionId, (foreignClients.get(client.sessionId) ?? 0) + 1);
    return { sessions: [...kept.sessions], foreignClients };
  }
}
