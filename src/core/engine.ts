/**
 * The profile-neutral engine: one tmux server, its identity, and running its commands, where what
 * tmux reports becomes a Failure (failure.ts). Listings (read/listings.ts), targets and refs
 * (targets/resolve.ts) and the caller guard (targets/caller-guard.ts) live in their folders; the
 * methods below them are the doors profiles call, each one line.
 */
import { TmuxNoServerError } from '../tmux/errors.js';
import { rowFormat, toInt } from '../tmux/formats.js';
import type { RunOptions, TmuxServer } from '../tmux/server.js';
import { EngineState } from './engine-state.js';
import { asFailure, type Failure } from './failure.js';
import * as listings from './read/listings.js';
import { readSessionList, type SessionList } from './read/session-list.js';
import type { Incarnation, InputPaneRecord, PaneField, PaneRecord, PaneRowFormats, RowCore, SessionRecord, WindowRecord } from './read/records.js';
import * as guard from './targets/caller-guard.js';
import { encodeRef, type RefKind } from './targets/refs.js';
import * as targets from './targets/resolve.js';
import { Scope } from './targets/scope.js';
import { checkCommand } from './targets/scope-gate.js';

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
  /** `--read-only`: nothing is changed in tmux, not even the input marks waits leave for other processes (watch/input-mark.ts). */
  readonly readOnly?: boolean;
}

/** Something that follows the panes the server acts on; `target` is a pane id, or a session or window id meaning its active pane. */
export interface PaneObserver {
  actedOn(engine: Engine, target: string, sessionId?: string): void;
}

export interface ServerIdentity extends Incarnation {
  readonly version: string;
}

const IDENTITY_FORMAT = rowFormat({ socketPath: 'socket_path', pid: 'pid', startTime: 'start_time', version: 'version' });

export class Engine {
  readonly tmux: TmuxServer;
  readonly options: EngineOptions;
  #identity: { epoch: number; value: ServerIdentity } | undefined;

  /** What core's modules keep for this tmux server (inputs in flight, runs, streams, recordings). */
  readonly state = new EngineState();

  /** The scope rule every command and listing of this engine passes. */
  readonly scope: Scope;

  constructor(tmux: TmuxServer, options: EngineOptions) {
    this.tmux = tmux;
    this.options = options;
    this.scope = options.scope ?? new Scope(options.caller ? { caller: options.caller } : {});
    const gateHost = { tmux, serverPid: async () => (await this.identity())?.pid };
    tmux.gate = (command) => checkCommand(this.scope, gateHost, command);
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

  /** A wait of `requestedMs`, held to the server's ceiling (LIBTMUX_MCP_WAIT_MAX_SECONDS). */
  capWait(requestedMs: number): number {
    return Math.min(requestedMs, this.options.waitMaxMs);
  }

  ref(kind: RefKind, subject: string, incarnation: Incarnation): string {
    return encodeRef(kind, subject, incarnation);
  }

  // ---- listings (read/listings.ts) --------------------------------------------------------------

  listSessions(): Promise<SessionRecord[]> {
    return listings.listSessions(this);
  }
  /** What list_sessions shows of each session, and the clients of people per session, kept while tmux reports no change (read/session-list.ts). */
  sessionList(): Promise<SessionList> {
    return readSessionList(this);
  }
  foreignClientsBySession(): Promise<Map<string, number>> {
    return listings.foreignClientsBySession(this);
  }
  listWindows(sessionId?: string): Promise<WindowRecord[]> {
    return listings.listWindows(this, sessionId);
  }
  listPanes(scope: { sessionId?: string; windowId?: string } = {}): Promise<PaneRecord[]> {
    return listings.listPanes(this, scope);
  }
  listPaneRows<K extends string, B extends PaneField = PaneField>(
    scope: { sessionId?: string; windowId?: string },
    formats: PaneRowFormats<K, B>,
    options?: { readonly everyLink?: boolean },
  ): Promise<{ rows: Array<Record<B | RowCore | K, string>>; incarnation: Incarnation } | undefined> {
    return listings.listPaneRows(this, scope, formats, options);
  }
  inScope<T extends { readonly id: string }>(rows: readonly T[]): Promise<T[]> {
    return listings.inScope(this, rows);
  }
  paneInScope(paneId: string): Promise<boolean> {
    return listings.paneInScope(this, paneId);
  }

  // ---- targets (targets/resolve.ts) -------------------------------------------------------------

  checkSessionName(name: string): void {
    targets.checkSessionName(this, name);
  }
  getPane(paneId: string): Promise<PaneRecord> {
    return targets.getPane(this, paneId);
  }
  getInputPane(paneId: string): Promise<InputPaneRecord> {
    return targets.getInputPane(this, paneId);
  }
  getWindow(windowId: string): Promise<WindowRecord> {
    return targets.getWindow(this, windowId);
  }
  getSession(sessionId: string): Promise<SessionRecord> {
    return targets.getSession(this, sessionId);
  }
  resolvePane(input: string, field?: string): Promise<PaneRecord> {
    return targets.resolvePane(this, input, field);
  }
  resolveInputPane(input: string, field?: string): Promise<InputPaneRecord> {
    return targets.resolveInputPane(this, input, field);
  }
  resolvePaneId(input: string, field?: string): Promise<string> {
    return targets.resolvePaneId(this, input, field);
  }
  paneIdFrom(input: string, field?: string): Promise<string> {
    return targets.paneIdFrom(this, input, field);
  }
  onPane<T>(paneId: string, work: () => Promise<T>): Promise<T> {
    return targets.onPane(this, paneId, work);
  }
  resolveWindow(input: string, field?: string): Promise<WindowRecord> {
    return targets.resolveWindow(this, input, field);
  }
  resolveSession(input: string, field?: string): Promise<SessionRecord> {
    return targets.resolveSession(this, input, field);
  }

  // ---- the caller guard (targets/caller-guard.ts) ----------------------------------------------

  isCallerPane(paneId: string): Promise<boolean> {
    return guard.isCallerPane(this, paneId);
  }
  guardCaller(paneIds: readonly string[], action: string, force: boolean | undefined): Promise<void> {
    return guard.guardCaller(this, paneIds, action, force);
  }
  guardCallerWithin(scope: { windowId: string } | { sessionId: string }, action: string, force: boolean | undefined): Promise<void> {
    return guard.guardCallerWithin(this, scope, action, force);
  }
}

/** Rethrows what tmux reported as the Failure it is. */
function failed(error: unknown): never {
  throw asFailure(error) ?? error;
}
