/**
 * The profile-neutral engine: one tmux server plus what every profile needs to act on it safely.
 * Listing, resolving targets and refs, and the caller guard live here; profiles only translate.
 */
import { TmuxConnectionLostError, TmuxNoServerError } from '../tmux/errors.js';
import { rowFormat, toInt, type RowFormat } from '../tmux/formats.js';
import type { RunOptions, TmuxServer } from '../tmux/server.js';
import { TmuxSocketUnusableError } from '../tmux/socket-guard.js';
import { asFailure, invalidArgument, notFound, refused, Failure, tmuxSaid } from './failure.js';
import { ForegroundReads } from './read/foreground.js';
import { KeptSessionList, type SessionList } from './read/session-list.js';
import {
  FOREGROUND_FORMAT,
  INPUT_PANE_FORMAT,
  PANE_ROW_FORMATS,
  SESSION_FORMAT,
  type PaneRowFormats,
  WINDOW_FORMAT,
  toInputPane,
  toPane,
  toSession,
  toWindow,
  type Incarnation,
  type InputPaneRecord,
  type PaneRecord,
  type PaneField,
  type RowCore,
  type SessionRecord,
  type WindowRecord,
} from './read/records.js';
import { decodeRef, encodeRef, fingerprint, isRef, type RefKind } from './targets/refs.js';
import { PANE_ID, SESSION_ID, WINDOW_ID } from '../tmux/ids.js';
import { quoted } from './quote.js';
import { Scope } from './targets/scope.js';
import { checkCommand, outside } from './targets/scope-gate.js';

export interface EngineOptions {
  /** Ceiling for any single wait, in milliseconds. */
  readonly waitMaxMs: number;
  /** The pane this process runs in, when it runs inside tmux. */
  readonly caller?: { readonly paneId: string; readonly serverPid?: number; readonly socketPath?: string };
  /**
   * Whether the tmux server may be on this machine, so pane foregrounds can be read from /proc
   * (checked against /proc as well). False for a tmux server reached over ssh. Default true.
   */
  readonly localProcesses?: boolean;
  /**
   * What calls may see and touch (core/scope.ts), shared by every engine of a process; without
   * one, only the caller guard applies.
   */
  readonly scope?: Scope;
  /** Told of every pane the server acts on, so it can record the pane (src/core/watch/recorder.ts); absent: nothing is recorded. */
  readonly recorder?: PaneObserver;
}

/** Something that follows the panes the server acts on; `target` is a pane id, or a session or window id meaning its active pane. */
export interface PaneObserver {
  actedOn(engine: Engine, target: string, sessionId?: string): void;
}

export interface ServerIdentity extends Incarnation {
  readonly version: string;
}

const IDENTITY_FORMAT = rowFormat({ socketPath: 'socket_path', pid: 'pid', startTime: 'start_time', version: 'version' });
const CLIENT_FORMAT = rowFormat({ pid: 'client_pid', sessionId: 'session_id', control: 'client_control_mode' });

/** How tmux words an unknown target. */
const NOT_FOUND = /can't find|no such|not found/i;

export class Engine {
  readonly tmux: TmuxServer;
  readonly options: EngineOptions;
  #identity: { epoch: number; value: ServerIdentity } | undefined;
  readonly #foreground = new ForegroundReads();
  readonly #sessionList: KeptSessionList;

  /** The scope rule every command and listing of this engine passes. */
  readonly scope: Scope;

  constructor(tmux: TmuxServer, options: EngineOptions) {
    this.tmux = tmux;
    this.options = options;
    this.scope = options.scope ?? new Scope(options.caller ? { caller: options.caller } : {});
    const gateHost = { tmux, serverPid: async () => (await this.identity())?.pid };
    tmux.gate = (command) => checkCommand(this.scope, gateHost, command);
    this.#sessionList = new KeptSessionList(tmux, (command) => this.#read(command));
  }

  /** Why this server's local socket path may not be used (one tmux would destroy), or undefined when it may. */
  socketProblem(): string | undefined {
    try {
      this.tmux.checkSocket();
      return undefined;
    } catch (error) {
      if (error instanceof TmuxSocketUnusableError) return `${error.message}. ${error.hint}`;
      throw error;
    }
  }

  // ---- running tmux --------------------------------------------------------------------------
  // Core sends tmux commands only through these, so what tmux reports leaves core as a Failure.

  /** Runs one tmux command and returns its output lines. */
  run(command: readonly string[], options?: RunOptions): Promise<string[]> {
    return this.tmux.run(command, options).catch(failed);
  }

  /** Like run, answering undefined when no tmux server runs on the socket. */
  runIfServer(command: readonly string[], options?: RunOptions): Promise<string[] | undefined> {
    return this.tmux.runIfServer(command, options).catch(failed);
  }

  /** Runs commands one after another, in one round trip where it can; the first failure is thrown. */
  runInOrder(commands: ReadonlyArray<readonly string[]>): Promise<void> {
    return this.tmux.runInOrder(commands).catch(failed);
  }

  /** Runs one command in a spawned tmux and returns its stdout byte for byte. */
  output(command: readonly string[], options?: RunOptions): Promise<Buffer> {
    return this.tmux.output(command, options).catch(failed);
  }

  /** Streams a pane's output (TmuxServer.watchPane); resolves once tmux is sending. */
  watchPane(...args: Parameters<TmuxServer['watchPane']>): Promise<() => void> {
    return this.tmux.watchPane(...args).catch(failed);
  }

  /** Runs commands on the client carrying a session's pane output, answered in order with it (TmuxServer.runInWatch). */
  runInWatch(...args: Parameters<TmuxServer['runInWatch']>): Promise<void> {
    return this.tmux.runInWatch(...args).catch(failed);
  }

  /** Why this host's link was ended for silence, while that is the last word on it. */
  get linkLost(): Failure | undefined {
    return asFailure(this.tmux.linkLost);
  }

  /** The running server's identity, or undefined when no server is running on the socket. */
  async identity(): Promise<ServerIdentity | undefined> {
    const cached = this.#identity;
    if (cached && cached.epoch !== 0 && cached.epoch === this.tmux.connectionEpoch) return cached.value;
    let row: Record<'socketPath' | 'pid' | 'startTime' | 'version', string> | undefined;
    // A live server always prints the row; an empty reply came from a connection being torn down.
    for (let attempt = 0; attempt < 2 && !row; attempt++) {
      // Ungated: the server's own fields, read in no session's context.
      const lines = await this.runIfServer(['display-message', '-p', IDENTITY_FORMAT.format], { ungated: true });
      if (!lines) return undefined;
      row = IDENTITY_FORMAT.parse(lines)[0];
    }
    if (!row) return undefined;
    const host = this.tmux.host;
    const value = { ...(host !== undefined ? { host } : {}), socketPath: row.socketPath, pid: toInt(row.pid), startTime: toInt(row.startTime), version: row.version };
    this.#identity = { epoch: this.tmux.connectionEpoch, value };
    return value;
  }

  async requireIdentity(): Promise<ServerIdentity> {
    const identity = await this.identity();
    if (!identity) failed(new TmuxNoServerError(this.tmux.socketLabel));
    return identity;
  }

  // ---- listings -------------------------------------------------------------------------------

  async listSessions(): Promise<SessionRecord[]> {
    const read = await this.#read(['list-sessions', '-F', SESSION_FORMAT.format]);
    const sessions = read ? SESSION_FORMAT.parse(read.lines).map((row) => toSession(row, read.incarnation)) : [];
    return this.scope.limitsSessions ? sessions.filter((s) => this.scope.allowsSession(this.tmux.host, s.name)) : sessions;
  }

  /**
   * The sessions with what list_sessions shows of each, and the clients of people per session: kept
   * between calls while tmux reports no change, so a call costs one empty round trip (read/session-list.ts).
   */
  async sessionList(): Promise<SessionList> {
    const list = await this.#sessionList.read();
    if (!this.scope.limitsSessions) return list;
    return { ...list, sessions: list.sessions.filter((s) => this.scope.allowsSession(this.tmux.host, s.name)) };
  }

  /**
   * Runs a read and pairs its output with the incarnation of the tmux server that answered it, or
   * answers undefined when no server runs. Rows do not spell the identity out (three format fields
   * per row, a sixth of a pane row's cost in tmux): the identity cached for the control connection
   * holds when that connection stayed the same across the read; otherwise it is read again after
   * the read and must be unchanged (a server between two equal identities is that same server).
   */
  async #read(command: readonly string[]): Promise<{ lines: string[]; incarnation: Incarnation } | undefined> {
    for (let attempt = 0; ; attempt++) {
      const before = await this.identity();
      if (!before) return undefined;
      const epoch = this.tmux.connectionEpoch;
      const lines = await this.runIfServer(command);
      if (!lines) return undefined;
      const incarnation = { ...(before.host !== undefined ? { host: before.host } : {}), socketPath: before.socketPath, pid: before.pid, startTime: before.startTime };
      if (epoch !== 0 && epoch === this.tmux.connectionEpoch) return { lines, incarnation };
      const after = await this.identity();
      if (after && after.pid === before.pid && after.startTime === before.startTime) return { lines, incarnation };
      if (attempt > 0) failed(new TmuxConnectionLostError('the tmux server restarted while it was being read; try again'));
    }
  }

  /** Clients per session that are people (or other programs), not this server's own control clients. */
  async foreignClientsBySession(): Promise<Map<string, number>> {
    const lines = await this.runIfServer(['list-clients', '-F', CLIENT_FORMAT.format]);
    const own = this.tmux.ownClientPids();
    const counts = new Map<string, number>();
    for (const row of lines ? CLIENT_FORMAT.parse(lines) : []) {
      if (own.has(toInt(row.pid))) continue;
      counts.set(row.sessionId, (counts.get(row.sessionId) ?? 0) + 1);
    }
    return counts;
  }

  /** Window links, in every session or in one (`sessionId` must be resolved first). */
  async listWindows(sessionId?: string): Promise<WindowRecord[]> {
    const command = sessionId === undefined ? ['list-windows', '-a'] : ['list-windows', '-t', sessionId];
    const read = await this.#read([...command, '-F', WINDOW_FORMAT.format]);
    const windows = read ? WINDOW_FORMAT.parse(read.lines).map((row) => toWindow(row, read.incarnation)) : [];
    if (!this.scope.limitsSessions) return windows;
    const { windows: outside } = await this.#placesOutside();
    return windows.filter((w) => !outside.has(w.id));
  }

  /**
   * Panes of the whole server, of one session, or of one window. A pane whose window is linked into
   * several sessions appears once, as seen from the first session tmux lists.
   */
  async listPanes(scope: { sessionId?: string; windowId?: string } = {}): Promise<PaneRecord[]> {
    const read = await this.listPaneRows(scope, PANE_ROW_FORMATS);
    return read ? read.rows.map((row) => toPane(row, read.incarnation)) : [];
  }

  /**
   * The rows behind listPanes, with the extra fields `formats` adds (paneRowFormats), each pane
   * once, or with `everyLink` once per place its window is linked (tmux's order: by session, then
   * window index; session and window fields then differ between a pane's rows); undefined when no
   * server runs.
   */
  async listPaneRows<K extends string, B extends PaneField = PaneField>(
    scope: { sessionId?: string; windowId?: string },
    formats: PaneRowFormats<K, B>,
    options: { readonly everyLink?: boolean } = {},
  ): Promise<{ rows: Array<Record<B | RowCore | K, string>>; incarnation: Incarnation } | undefined> {
    const read = await this.#readPanes(listPanesCommand(scope), formats);
    if (!read) return undefined;
    const seen = new Set<string>();
    const rows = options.everyLink ? read.rows : read.rows.filter((row) => !seen.has(row.id) && seen.add(row.id));
    return { rows: this.scope.active ? await this.inScope(rows) : rows, incarnation: read.incarnation };
  }

  /**
   * Pane rows with every field. For a listing made before, of a tmux server on this machine, tmux lists all
   * but the foreground command and directory, which src/core/read/foreground.ts reads from /proc
   * meanwhile (the panes the same listing had last time) and after (the rest); a pane it cannot
   * read there is asked of tmux.
   */
  async #readPanes<K extends string, B extends PaneField>(
    command: readonly string[],
    formats: PaneRowFormats<K, B>,
  ): Promise<{ rows: Array<Record<B | RowCore | K, string>>; incarnation: Incarnation } | undefined> {
    type Row = Record<B | RowCore | K, string>;
    const withFormat = (format: string) => [...command, '-F', format];
    const identity = await this.identity();
    const listing = command.join(' ');
    if (!identity || this.options.localProcesses === false || !this.#foreground.worthReading(listing, identity.pid)) {
      const read = await this.#read(withFormat(formats.full.format));
      if (!read) return undefined;
      const rows = formats.full.parse(read.lines) as Row[];
      this.#foreground.remember(listing, rows.map((row) => toInt(row.pid)));
      return { rows, incarnation: read.incarnation };
    }
    const reading = this.#read(withFormat(formats.noForeground.format));
    const ahead = await this.#foreground.readAhead(listing, identity.pid);
    const read = await reading;
    if (!read) return undefined;
    const partial = formats.noForeground.parse(read.lines);
    const found = this.#foreground.complete(listing, partial.map((row) => toInt(row.pid)), read.incarnation.pid, ahead);
    const rows: Row[] = [];
    const unread: Row[] = [];
    partial.forEach((row, i) => {
      const foreground = found[i];
      // Completed in place: spread into a new object, a row takes ~10 us in V8 (node 20), 100 times more.
      const full = Object.assign(row, { command: foreground?.command ?? '', path: foreground?.path ?? '' }) as Row;
      rows.push(full);
      if (!foreground) unread.push(full);
    });
    // Dead panes, processes of another user or outside the pane's terminal: tmux's own answer.
    await Promise.all(
      unread.map(async (row) => {
        const lines = await this.run(['display-message', '-p', '-t', row.id, FOREGROUND_FORMAT.format]).catch(() => []);
        const answer = FOREGROUND_FORMAT.parse(lines)[0];
        if (answer?.id === row.id) Object.assign(row, { command: answer.command, path: answer.path });
      }),
    );
    return { rows, incarnation: read.incarnation };
  }

  /**
   * The pane rows (`id`: a pane id) that are in scope: panes of windows linked only into allowed
   * sessions, and admitted by the pane rule when there is one. Every row when no scope is set.
   * Listings and searches filter through here; so can anything else that shows panes.
   */
  async inScope<T extends { readonly id: string }>(rows: readonly T[]): Promise<T[]> {
    if (!this.scope.active) return [...rows];
    const { outside } = await this.#placesOutside();
    return rows.filter((row) => !outside.has(row.id));
  }

  /** Refuses a session name outside the scope, naming the rule (whether or not such a session exists). */
  checkSessionName(name: string): void {
    if (!this.scope.allowsSession(this.tmux.host, name)) throw outside(this.scope, `session ${quoted(name)} is outside this server's scope`);
  }

  /** Whether one pane is in scope now (its window linked only into allowed sessions, the pane rule admitting it). */
  async paneInScope(paneId: string): Promise<boolean> {
    return (await this.inScope([{ id: paneId }])).length === 1;
  }

  /**
   * Panes out of scope (windows linked into a session not allowed, or not admitted by the pane
   * rule), and the windows linked into a session not allowed.
   */
  async #placesOutside(): Promise<{ outside: Set<string>; windows: Set<string> }> {
    const outside = new Set<string>();
    const windows = new Set<string>();
    const lines = await this.runIfServer(['list-panes', '-a', '-F', '#{pane_id}\t#{window_id}\t#{session_id}\t#{session_name}'], { ungated: true });
    const host = this.tmux.host;
    const sessionsOf = new Map<string, string[]>();
    const rows = (lines ?? []).map((line) => {
      const [pane = '', window = '', sessionId = '', ...name] = line.split('\t');
      sessionsOf.set(window, [...(sessionsOf.get(window) ?? []), sessionId]);
      return { pane, window, name: name.join('\t') };
    });
    for (const row of rows) {
      if (!this.scope.allowsSession(host, row.name)) {
        windows.add(row.window);
        outside.add(row.pane);
      } else if (this.scope.limitsPanes && !this.scope.allowsPane(host, row.pane, [], sessionsOf.get(row.window) ?? [])) outside.add(row.pane);
    }
    return { outside, windows };
  }

  // ---- single objects -------------------------------------------------------------------------

  async getPane(paneId: string): Promise<PaneRecord> {
    // One pane: tmux's own two /proc fields cost less than reading them here, and keep this one command.
    return this.#paneRow(paneId, PANE_ROW_FORMATS.full, toPane);
  }

  /** What input checks read of a pane (a third of the row, tmux reading nothing from /proc). */
  async getInputPane(paneId: string): Promise<InputPaneRecord> {
    return this.#paneRow(paneId, INPUT_PANE_FORMAT, toInputPane);
  }

  async #paneRow<T>(paneId: string, format: RowFormat<string>, convert: (row: Record<string, string>, incarnation: Incarnation) => T): Promise<T> {
    const read = await this.#display(paneId, format.format, 'pane');
    const row = format.parse(read.lines)[0];
    return convert(row?.id === paneId ? row : missing('pane', paneId), read.incarnation);
  }

  async getWindow(windowId: string): Promise<WindowRecord> {
    const read = await this.#display(windowId, WINDOW_FORMAT.format, 'window');
    const row = WINDOW_FORMAT.parse(read.lines)[0];
    return toWindow(row?.id === windowId ? row : missing('window', windowId), read.incarnation);
  }

  async getSession(sessionId: string): Promise<SessionRecord> {
    const read = await this.#display(sessionId, SESSION_FORMAT.format, 'session');
    const row = SESSION_FORMAT.parse(read.lines)[0];
    return toSession(row?.id === sessionId ? row : missing('session', sessionId), read.incarnation);
  }

  /** One row about `target`; tmux answers an unknown target with an error or with empty fields. */
  async #display(target: string, format: string, kind: RefKind): Promise<{ lines: string[]; incarnation: Incarnation }> {
    return this.#onTarget(kind, target, async () => {
      const read = await this.#read(['display-message', '-p', '-t', target, format]);
      if (!read) failed(new TmuxNoServerError(this.tmux.socketLabel));
      return read;
    });
  }

  /** Runs `work` (tmux commands aimed at `target`), reporting tmux's "can't find" as a missing object. */
  async #onTarget<T>(kind: RefKind, target: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (tmuxSaid(error, NOT_FOUND)) missing(kind, target);
      throw error;
    }
  }

  // ---- targets --------------------------------------------------------------------------------

  /** A pane id (`%3`) or pane ref, as the id of a pane that exists now. */
  async resolvePane(input: string, field = 'paneId'): Promise<PaneRecord> {
    return this.getPane(await this.paneIdFrom(input, field));
  }

  /** Like resolvePane, with only what an input check needs (getInputPane). */
  async resolveInputPane(input: string, field = 'paneId'): Promise<InputPaneRecord> {
    return this.getInputPane(await this.paneIdFrom(input, field));
  }

  /**
   * Like resolvePane, for callers that need only the id: tmux expands one field, not a whole row.
   * For commands that answer a missing target with empty output (display-message) instead of an error.
   */
  async resolvePaneId(input: string, field = 'paneId'): Promise<string> {
    const paneId = await this.paneIdFrom(input, field);
    const read = await this.#display(paneId, '#{pane_id}', 'pane');
    if (read.lines[0] !== paneId) missing('pane', paneId);
    return paneId;
  }

  /**
   * A pane id (`%3`) or pane ref as a pane id, checked for form and, for a ref, for belonging to
   * this tmux server; not for the pane still existing. For a command aimed at the pane itself,
   * which tmux refuses for a missing pane anyway: run it through `onPane` for the usual error.
   */
  async paneIdFrom(input: string, field = 'paneId'): Promise<string> {
    return this.#resolveId(input, 'pane', PANE_ID, field, 'a pane id like %3');
  }

  /** Runs `work` (tmux commands aimed at `paneId`), reporting tmux's "can't find pane" as a missing pane. */
  async onPane<T>(paneId: string, work: () => Promise<T>): Promise<T> {
    return this.#onTarget('pane', paneId, work);
  }

  /** A window id (`@1`), window ref or window-link ref, as the window record. */
  async resolveWindow(input: string, field = 'windowId'): Promise<WindowRecord> {
    if (isRef(input)) {
      const ref = await this.#checkRef(input, field);
      if (ref.kind === 'link') {
        const [sessionId, windowId] = ref.subject.split(':');
        const windows = await this.listWindows(sessionId);
        const link = windows.find((w) => w.id === windowId);
        if (!link) missing('window', ref.subject);
        return link!;
      }
      if (ref.kind !== 'window') throw wrongRef(field, ref.kind, 'window');
      return this.getWindow(ref.subject);
    }
    if (!WINDOW_ID.test(input)) throw invalidArgument(`${field} must be a window id like @1 or a window ref, got ${quoted(input)}`);
    return this.getWindow(input);
  }

  /** A session id (`$0`), session ref, or exact session name. */
  async resolveSession(input: string, field = 'session'): Promise<SessionRecord> {
    if (isRef(input)) {
      const ref = await this.#checkRef(input, field);
      if (ref.kind !== 'session') throw wrongRef(field, ref.kind, 'session');
      return this.getSession(ref.subject);
    }
    if (SESSION_ID.test(input)) return this.getSession(input);
    if (input === '') throw invalidArgument(`${field} must not be empty`);
    this.checkSessionName(input);
    const sessions = await this.listSessions();
    const byName = sessions.find((s) => s.name === input);
    if (!byName) {
      throw notFound(
        `no session named ${quoted(input)}`,
        sessions.length ? `Sessions: ${sessions.slice(0, 12).map((s) => `${s.id} ${quoted(s.name)}`).join(', ')}.` : 'There are no sessions; create one with create_session.',
      );
    }
    return byName;
  }

  async #resolveId(input: string, kind: RefKind, idPattern: RegExp, field: string, example: string): Promise<string> {
    if (isRef(input)) {
      const ref = await this.#checkRef(input, field);
      if (ref.kind !== kind) throw wrongRef(field, ref.kind, kind);
      return ref.subject;
    }
    if (!idPattern.test(input)) throw invalidArgument(`${field} must be ${example} or a ${kind} ref, got ${quoted(input)}`);
    return input;
  }

  async #checkRef(input: string, field: string) {
    const ref = decodeRef(input);
    if (!ref) throw invalidArgument(`${field} is not a ref this server issued: ${quoted(input)}`);
    if (ref.host !== this.tmux.host) {
      // Routing sends a ref to its own host; one that still lands elsewhere must not act there.
      throw refused(
        `the ${ref.kind} reference belongs to ${ref.host === undefined ? 'the local tmux' : `host ${ref.host}`}, not to ${this.tmux.host === undefined ? 'the local tmux' : `host ${this.tmux.host}`}`,
        'Pass refs back unchanged to the tool that takes them; each one goes to its own host.',
      );
    }
    const identity = await this.requireIdentity();
    if (ref.fingerprint !== fingerprint(identity)) {
      throw refused(
        `the ${ref.kind} reference is stale: it belongs to an earlier tmux server on this socket`,
        `Call ${ref.kind === 'session' ? 'list_sessions' : ref.kind === 'pane' ? 'list_panes' : 'list_windows'} again for current refs.`,
      );
    }
    return ref;
  }

  ref(kind: RefKind, subject: string, incarnation: Incarnation): string {
    return encodeRef(kind, subject, incarnation);
  }

  /** A wait of `requestedMs`, held to the server's ceiling (LIBTMUX_MCP_WAIT_MAX_SECONDS). */
  capWait(requestedMs: number): number {
    return Math.min(requestedMs, this.options.waitMaxMs);
  }

  // ---- the caller guard -----------------------------------------------------------------------

  /** True when `paneId` is the pane this server runs in, on this very tmux server. */
  async isCallerPane(paneId: string): Promise<boolean> {
    const caller = this.scope.caller;
    if (!caller || caller.paneId !== paneId || this.tmux.host !== undefined) return false;
    if (caller.serverPid === undefined) return true; // unsure which server: err on the safe side
    const identity = await this.identity();
    return identity !== undefined && this.scope.isCaller(this.tmux.host, paneId, identity.pid);
  }

  /** Refuses to act on the caller's own pane unless `force`. */
  async guardCaller(paneIds: readonly string[], action: string, force: boolean | undefined): Promise<void> {
    if (force) return;
    for (const paneId of paneIds) {
      if (await this.isCallerPane(paneId)) {
        throw refused(
          `refusing to ${action}: ${paneId} is the pane this MCP server runs in`,
          'Pick another pane (list_panes marks this one is_caller), or do it in tmux yourself; where the tool takes force, force: true allows it.',
        );
      }
    }
  }
  /** Refuses to act on a window or session holding the caller's pane unless `force`; lists its panes only when that can matter. */
  async guardCallerWithin(scope: { windowId: string } | { sessionId: string }, action: string, force: boolean | undefined): Promise<void> {
    if (force || !this.scope.caller) return;
    const panes = await this.listPanes(scope);
    await this.guardCaller(panes.map((p) => p.id), action, force);
  }

}

/** `list-panes` for the whole server, one session, or one window (give a format after it). */
export function listPanesCommand(scope: { sessionId?: string; windowId?: string }): string[] {
  if (scope.windowId !== undefined) return ['list-panes', '-t', scope.windowId];
  if (scope.sessionId !== undefined) return ['list-panes', '-s', '-t', scope.sessionId];
  return ['list-panes', '-a'];
}

/** Rethrows what tmux reported as the Failure it is. */
function failed(error: unknown): never {
  throw asFailure(error) ?? error;
}

function missing(kind: RefKind, target: string): never {
  const list = kind === 'session' ? 'list_sessions' : kind === 'pane' ? 'list_panes' : 'list_windows';
  throw notFound(`no ${kind === 'link' ? 'window' : kind} ${target} on this tmux server`, `Call ${list} to see what exists now.`);
}

function wrongRef(field: string, got: RefKind, want: RefKind): Failure {
  return invalidArgument(`${field} needs a ${want} ref, but this is a ${got} ref`);
}
