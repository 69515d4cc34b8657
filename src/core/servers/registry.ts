/**
 * The engines of one process, one per tmux server it talks to, keyed by where that server lives.
 * A location is a socket name (`tmux -L`, always inside tmux's socket directory), a socket path
 * (`tmux -S`), and later a remote host; its key is a stable string, so the same server always
 * gets the same engine and one control-mode connection. Engines open on first use and close once
 * idle; the default engine (the configured server) stays for the life of the process.
 */
import { TmuxServer } from '../../tmux/server.js';
import { Engine, type EngineOptions } from '../engine.js';
import type { Scope } from '../targets/scope.js';
import { Failure, invalidArgument, isHostUnreachable, notFound, refused } from '../failure.js';
import { HOST_NAME, LOCAL_HOST, type RemoteHost } from './host-config.js';
import { quoted } from '../quote.js';
import { closePaneStreams } from '../watch/pane-streams.js';

/** One server's part of a call made on every server: its answer, or why it has none. */
export type ServerAnswer<T> = { readonly host: string | undefined } & (
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: unknown }
);

/** `NAME: reason` for each server that did not answer (`local` for this machine's). */
export function unanswered(answers: ReadonlyArray<ServerAnswer<unknown>>): string[] {
  return answers.flatMap((answer) =>
    answer.ok ? [] : [`${answer.host ?? LOCAL_HOST}: ${answer.error instanceof Error ? answer.error.message : String(answer.error)}`],
  );
}

/** Where a tmux server lives. `host` is reserved for remote hosts (absent: this machine). */
export interface ServerLocation {
  readonly host?: string;
  /** `tmux -L NAME`: a socket inside tmux's socket directory. */
  readonly socketName?: string;
  /** `tmux -S PATH`. */
  readonly socketPath?: string;
}

function hostLocation(host: RemoteHost): ServerLocation {
  return { host: host.name, ...(host.socketPath !== undefined ? { socketPath: host.socketPath } : { socketName: host.socketName }) };
}

/** The stable string key of a location: equal locations, equal keys; the parts never run together. */
export function locationKey(location: ServerLocation): string {
  const where =
    location.socketPath !== undefined
      ? `S:${location.socketPath}`
      : location.socketName !== undefined
        ? `L:${location.socketName}`
        : 'default';
  return location.host === undefined ? `local/${where}` : `host:${JSON.stringify(location.host)}/${where}`;
}

/** The longest socket name accepted: a socket path must fit a sockaddr_un (108 bytes) with its directory. */
export const MAX_SOCKET_NAME_LENGTH = 64;

// What tmux socket names sensibly are: letters, digits, ".", "_" and "-", not starting with "-" (tmux
// would read it as an option) and no "." or ".." alone (the directory itself, or its parent).
const SOCKET_NAME = /^[A-Za-z0-9._][A-Za-z0-9._-]*$/;

/**
 * Refuses a socket name tmux should not be given, before any tmux runs: `-L NAME` is joined onto
 * tmux's socket directory as a path, and a server started on an odd name (a newline, an escape, a
 * leading "-") outlives this process under a name nobody can type.
 */
export function checkSocketName(name: string, field = 'socket_name'): void {
  if (name === '') throw invalidArgument(`${field} must not be empty`, 'Omit it to use the configured tmux server.');
  if (name.length > MAX_SOCKET_NAME_LENGTH) throw invalidArgument(`${field} is longer than ${MAX_SOCKET_NAME_LENGTH} characters`);
  const colon = name.indexOf(':');
  if (colon > 0 && HOST_NAME.test(name.slice(0, colon))) {
    throw new Failure(
      'not_found',
      `${field} ${quoted(name)} names host ${quoted(name.slice(0, colon))}, which is not configured`,
      'Configure it with --host NAME=DESTINATION, or give a plain socket name.',
      { touched: false },
    );
  }
  if (!SOCKET_NAME.test(name) || name === '.' || name.includes('..')) {
    throw invalidArgument(
      `${field} ${quoted(name)} is not a socket name: use letters, digits, ".", "_" and "-", not starting with "-"`,
      'Pass the bare name tmux -L takes (like "work"), or HOST: / HOST:NAME for a configured host; a socket elsewhere is configured with LIBTMUX_SOCKET_PATH.',
    );
  }
}

export { socketDirectory } from '../../tmux/socket-guard.js';

export interface RegistryOptions {
  readonly bin: string;
  readonly commandTimeoutMs: number;
  readonly engine: EngineOptions;
  /** The configured server: the engine every call without a location uses. */
  readonly defaultLocation: ServerLocation;
  /** How long an engine other than the default stays open with nothing using it. */
  readonly idleMs?: number;
  /** Most engines open at once. */
  readonly maxEngines?: number;
  /** Builds the tmux server for a location (tests plug in here). */
  readonly connect?: (location: ServerLocation) => TmuxServer;
  /** Hosts served over ssh; their engines stay open like the default's and reconnect on use. */
  readonly hosts?: readonly RemoteHost[];
}

const DEFAULT_IDLE_MS = 60_000;
/** How long a listing leaves out a host that could not be reached, before trying it again. */
const UNREACHABLE_MS = 10_000;
const DEFAULT_MAX_ENGINES = 32;

interface Entry {
  readonly key: string;
  readonly location: ServerLocation;
  readonly engine: Engine;
  leases: number;
  idle: NodeJS.Timeout | undefined;
}

export class EngineRegistry {
  readonly #options: RegistryOptions;
  readonly #entries = new Map<string, Entry>();
  readonly #defaultKey: string;
  /** Keys of engines never closed as idle: the default and every configured host. */
  readonly #pinned = new Set<string>();
  readonly #hosts: ReadonlyMap<string, RemoteHost>;
  #closed = false;

  constructor(options: RegistryOptions) {
    this.#options = options;
    this.#defaultKey = locationKey(options.defaultLocation);
    this.#hosts = new Map((options.hosts ?? []).map((host) => [host.name, host]));
    for (const location of [options.defaultLocation, ...[...this.#hosts.values()].map(hostLocation)]) {
      const key = locationKey(location);
      this.#pinned.add(key);
      this.#entries.set(key, this.#open(location, key));
    }
  }

  /** The scope rule every engine of this process shares (core/scope.ts): what calls may see and touch. */
  get scope(): Scope {
    return this.defaultEngine.scope;
  }

  /**
   * Hosts that failed to answer (ssh refused, or silence past the command timeout) lately, with
   * that failure: a listing over every host skips them for a while instead of waiting on each again.
   */
  /** Set while calls may reach only the listed servers (confineToListed): why. */
  #confinedBy: string | undefined;
  readonly #unreachable = new Map<string, { readonly until: number; readonly error: unknown }>();

  /** Remembers that `host` could not be reached; `forMs` later it is tried again by listings too. */
  markUnreachable(host: string, error: unknown, forMs = UNREACHABLE_MS): void {
    this.#unreachable.set(host, { until: Date.now() + forMs, error });
  }

  /** A host answered: listings use it again at once. */
  markReachable(host: string): void {
    this.#unreachable.delete(host);
  }

  /** The failure that made `host` unreachable, while it is remembered. */
  unreachable(host: string): unknown {
    const entry = this.#unreachable.get(host);
    if (entry && entry.until > Date.now()) return entry.error;
    this.#unreachable.delete(host);
    return undefined;
  }

  /**
   * Runs `work` on this machine's configured tmux and on every configured host at once, answers in
   * that order. A host that failed to answer lately is not asked again for a while (its failure
   * stands in), so one hung host does not stall every listing; each host's outcome is remembered.
   */
  async everyServer<T>(work: (engine: Engine, host: string | undefined) => Promise<T>): Promise<Array<ServerAnswer<T>>> {
    const hosts: Array<string | undefined> = [undefined, ...this.hostNames];
    const answers = await Promise.allSettled(
      hosts.map(async (host) => {
        const failure = host === undefined ? undefined : this.unreachable(host);
        if (failure !== undefined) throw failure;
        try {
          const value = await work(this.engineOn(host), host);
          if (host !== undefined) this.markReachable(host);
          return value;
        } catch (error) {
          if (host !== undefined && isHostUnreachable(error)) this.markUnreachable(host, error);
          throw error;
        }
      }),
    );
    return answers.map((answer, i) =>
      answer.status === 'fulfilled'
        ? { host: hosts[i], ok: true, value: answer.value }
        : { host: hosts[i], ok: false, error: answer.reason },
    );
  }

  /** The configured hosts' names, in configuration order. */
  get hostNames(): string[] {
    return [...this.#hosts.keys()];
  }

  /** The location of a host's tmux (undefined: this machine's configured server). */
  hostLocation(host: string | undefined): ServerLocation | undefined {
    if (host === undefined) return undefined;
    const config = this.#hosts.get(host);
    if (!config) {
      throw notFound(
        `no host named ${JSON.stringify(host)} is configured`,
        this.#hosts.size
          ? `Hosts: ${[LOCAL_HOST, ...this.#hosts.keys()].join(', ')}.`
          : 'This server serves the local tmux only (see --host).',
      );
    }
    return hostLocation(config);
  }

  /**
   * The engine of this machine's configured server (host undefined) or of a configured host: both
   * stay open for the life of the process, so they need no lease. Throws not_found for a name that
   * is not a configured host.
   */
  engineOn(host: string | undefined): Engine {
    if (this.#closed) throw refused('the server is shutting down');
    if (host === undefined) return this.defaultEngine;
    return this.#entries.get(locationKey(this.hostLocation(host)!))!.engine;
  }

  /** The engine of the configured server; it is never closed as idle. */
  get defaultEngine(): Engine {
    return this.#entries.get(this.#defaultKey)!.engine;
  }

  get defaultLocation(): ServerLocation {
    return this.#options.defaultLocation;
  }

  /** Keys of the engines open now, the default first. */
  keys(): string[] {
    return [...this.#entries.keys()];
  }

  /**
   * Runs `work` on the engine for `location` (undefined: the default), opening it if needed.
   * While any work runs on it the engine stays open; after the last, it closes once idle, or at
   * once when its tmux server is gone (no live connection left to keep).
   */
  use<T>(location: ServerLocation | undefined, work: (engine: Engine) => Promise<T>): Promise<T> {
    // The configured server's engine is pinned (never closed as idle): no lease to take or give back,
    // and no async layer of its own around the work, which every call without a location passes.
    if (location === undefined) {
      try {
        return work(this.engineOn(undefined));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return this.#leased(location, work);
  }

  async #leased<T>(location: ServerLocation, work: (engine: Engine) => Promise<T>): Promise<T> {
    const entry = this.#acquire(location);
    try {
      return await work(entry.engine);
    } finally {
      this.#release(entry);
    }
  }

  /** The location a socket name selects (checked), or the default for none. */
  static named(socketName: string | null | undefined, field = 'socket_name'): ServerLocation | undefined {
    if (socketName === undefined || socketName === null) return undefined;
    // `HOST:` or `HOST:NAME` reaches a configured host (see #onHost, which checks the host); NAME is checked here too.
    const colon = socketName.indexOf(':');
    if (colon > 0 && HOST_NAME.test(socketName.slice(0, colon)) && socketName.length <= MAX_SOCKET_NAME_LENGTH) {
      const rest = socketName.slice(colon + 1);
      if (rest !== '') checkSocketName(rest, field);
      return { socketName };
    }
    checkSocketName(socketName, field);
    return { socketName };
  }

  /** Closes every engine and waits for their tmux clients to end. */
  async close(): Promise<void> {
    this.#closed = true;
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.all(entries.map((entry) => this.#dispose(entry)));
  }

  /**
   * A socket name `HOST:` or `HOST:NAME`, HOST a configured host, means that host's configured
   * socket or socket NAME there: how a profile with a per-call socket name (python) reaches hosts.
   * Any other name, `:` or not, is a local socket name.
   */
  #onHost(location: ServerLocation | undefined): ServerLocation | undefined {
    const name = location?.host === undefined ? location?.socketName : undefined;
    const colon = name?.indexOf(':') ?? -1;
    if (name === undefined || colon <= 0 || !this.#hosts.has(name.slice(0, colon))) return location;
    const host = name.slice(0, colon);
    const socketName = name.slice(colon + 1);
    return socketName === '' ? this.hostLocation(host) : { host, socketName };
  }

  /**
   * From now on, calls reach only the servers a listing of every server covers: this machine's
   * configured one and each host's. The live view shows only those, so a pane the agent acts on
   * elsewhere (python's socket_name) would be out of the person's sight: such a call is refused.
   */
  confineToListed(why: string): void {
    this.#confinedBy = why;
  }

  /** Whether a call may use `location` now (see confineToListed). */
  reaches(location: ServerLocation | undefined): boolean {
    if (this.#confinedBy === undefined || location === undefined) return true;
    const resolved = this.#onHost(location);
    return resolved === undefined || this.#listedKeys().has(locationKey(resolved));
  }

  #listedKeys(): Set<string> {
    return new Set([this.#defaultKey, ...this.hostNames.map((host) => locationKey(this.hostLocation(host)!))]);
  }

  #acquire(requested: ServerLocation | undefined): Entry {
    if (this.#closed) throw refused('the server is shutting down');
    const location = this.#onHost(requested);
    if (location?.socketName !== undefined) checkSocketName(location.socketName);
    const key = location === undefined ? this.#defaultKey : locationKey(location);
    if (this.#confinedBy !== undefined && !this.#listedKeys().has(key)) {
      throw refused(
        `socket ${quoted(location?.socketName ?? location?.socketPath ?? '')} is not one the live view shows: ${this.#confinedBy}`,
        'Leave socket_name out (the configured socket) or name a configured host (HOST:); to reach other sockets, the person restarts the server without --view.',
      );
    }
    let entry = this.#entries.get(key);
    if (!entry) {
      if (this.#entries.size >= (this.#options.maxEngines ?? DEFAULT_MAX_ENGINES)) this.#evictIdle();
      if (this.#entries.size >= (this.#options.maxEngines ?? DEFAULT_MAX_ENGINES)) {
        throw refused(
          `too many tmux servers in use at once (${this.#entries.size})`,
          'Let calls on other sockets finish first; idle connections close by themselves.',
        );
      }
      entry = this.#open(location!, key);
      this.#entries.set(key, entry);
    }
    clearTimeout(entry.idle);
    entry.idle = undefined;
    entry.leases++;
    return entry;
  }

  #release(entry: Entry): void {
    entry.leases--;
    if (entry.leases > 0 || this.#pinned.has(entry.key) || this.#entries.get(entry.key) !== entry) return;
    // No live control connection left: the server is gone (or never had a session); nothing to keep.
    if (entry.engine.tmux.connectionEpoch === 0) {
      this.#forget(entry);
      return;
    }
    entry.idle = setTimeout(() => this.#forget(entry), this.#options.idleMs ?? DEFAULT_IDLE_MS);
    entry.idle.unref();
  }

  /** Closes the least recently opened idle engine to make room. */
  #evictIdle(): void {
    for (const entry of this.#entries.values()) {
      if (!this.#pinned.has(entry.key) && entry.leases === 0) {
        this.#forget(entry);
        return;
      }
    }
  }

  #forget(entry: Entry): void {
    if (entry.leases > 0 || this.#entries.get(entry.key) !== entry) return;
    this.#entries.delete(entry.key);
    void this.#dispose(entry);
  }

  async #dispose(entry: Entry): Promise<void> {
    clearTimeout(entry.idle);
    await closePaneStreams(entry.engine);
    await entry.engine.tmux.close().catch(() => {});
  }

  #open(location: ServerLocation, key: string): Entry {
    const host = location.host === undefined ? undefined : this.#hosts.get(location.host);
    if (location.host !== undefined && !host) this.hostLocation(location.host); // throws: not configured
    const tmux =
      this.#options.connect?.(location) ??
      new TmuxServer({
        bin: this.#options.bin,
        socketName: location.socketName,
        socketPath: location.socketPath,
        commandTimeoutMs: this.#options.commandTimeoutMs,
        ...(host
          ? {
              ssh: {
                host: host.name,
                destination: host.destination,
                sshConfig: host.sshConfig,
                sshBin: host.sshBin,
                remoteTmux: host.remoteTmux,
                silenceMs: host.silenceMs,
              },
            }
          : {}),
      });
    // The caller guard is about the pane this process runs in, and /proc describes this machine's
    // processes: both apply only to a local tmux, never to a host's.
    const engineOptions = host ? { ...this.#options.engine, caller: undefined } : this.#options.engine;
    return { key, location, engine: new Engine(tmux, engineOptions), leases: 0, idle: undefined };
  }
}
