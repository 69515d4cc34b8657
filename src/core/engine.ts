/**
 * The engine: a handle on one tmux server, its identity and its scope, and running its commands,
 * where what tmux reports becomes a Failure (failure.ts). What core does with it (listings,
 * targets, the caller guard, input, waits...) are functions of their own modules that take it.
 */
import { TmuxNoServerError } from '../tmux/errors.js';
import { rowFormat, toInt } from '../tmux/formats.js';
import type { RunOptions, TmuxServer } from '../tmux/server.js';
import { asFailure, type Failure } from './failure.js';
import type { Incarnation } from './read/records.js';
import { Scope } from './targets/scope.js';
import { checkCommand } from './targets/scope-gate.js';

export interface EngineOptions {
  /** Ceiling for any single wait, in milliseconds. */
  readonly waitMaxMs: number;
  /** The pane this process runs in, when it runs inside tmux. */
  readonly caller?: { readonly paneId: string; readonly serverPid?: number; readonly socketPath?: string };
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

  /** The scope rule every command and listing of this engine passes. */
  readonly scope: Scope;

  constructor(tmux: TmuxServer, options: EngineOptions) {
    this.tmux = tmux;
    this.options = options;
    this.scope = options.scope ?? new Scope(options.caller ? { caller: options.caller } : {});
    const gateHost = { tmux, serverPid: async () => (await this.identity())?.pid };
    tmux.gate = (command) => checkCommand(this.scope, gateHost, command);
    // This server's own clients attach only inside the scope: none marks a session outside as attached.
    const scope = this.scope;
    if (scope.limitsSessions) tmux.attachChoice = (sessions) => sessions.find((s) => scope.allowsSession(tmux.host, s.name))?.id;
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

  /** The socket for messages ("-L name", a path, and the host it is on). */
  get socketLabel(): string {
    return this.tmux.socketLabel;
  }

  /** The socket as configured: a name (`-L`), a path (`-S`), or neither for tmux's default. */
  get socket(): { readonly name?: string; readonly path?: string } {
    return this.tmux.socket;
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
    const value = {
      ...(host !== undefined ? { host } : {}),
      socketPath: row.socketPath,
      pid: toInt(row.pid),
      startTime: toInt(row.startTime),
      version: row.version,
    };
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
}

/**
 * What a core module keeps for each tmux server (inputs in flight, runs, streams, recordings): made
 * on first use, dropped with the engine. Each module holds its own.
 */
export function perServer<T>(make: () => T): (engine: Engine) => T {
  const held = new WeakMap<Engine, T>();
  return (engine) => {
    let value = held.get(engine);
    if (value === undefined) held.set(engine, (value = make()));
    return value;
  };
}

/** Rethrows what tmux reported as the Failure it is. */
function failed(error: unknown): never {
  throw asFailure(error) ?? error;
}
