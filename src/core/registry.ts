/**
 * The engines of one process, one per tmux server it talks to, keyed by where that server lives.
 * A location is a socket name (`tmux -L`, always inside tmux's socket directory), a socket path
 * (`tmux -S`), and later a remote host; its key is a stable string, so the same server always
 * gets the same engine and one control-mode connection. Engines open on first use and close once
 * idle; the default engine (the configured server) stays for the life of the process.
 */
import { TmuxServer } from '../tmux/server.js';
import { Engine, type EngineOptions } from './engine.js';
import { invalidArgument, refused } from './failure.js';
import { closePaneStreams } from './pane-stream.js';

/** Where a tmux server lives. `host` is reserved for remote hosts (absent: this machine). */
export interface ServerLocation {
  readonly host?: string;
  /** `tmux -L NAME`: a socket inside tmux's socket directory. */
  readonly socketName?: string;
  /** `tmux -S PATH`. */
  readonly socketPath?: string;
}

/** The stable string key of a location: equal locations, equal keys; the parts never run together. */
export function locationKey(location: ServerLocation): string {
  const where = location.socketPath !== undefined ? `S:${location.socketPath}` : location.socketName !== undefined ? `L:${location.socketName}` : 'default';
  return location.host === undefined ? `local/${where}` : `host:${JSON.stringify(location.host)}/${where}`;
}

/** The longest socket name accepted: a socket path must fit a sockaddr_un (108 bytes) with its directory. */
export const MAX_SOCKET_NAME_LENGTH = 64;

/**
 * Refuses a socket name that would leave tmux's socket directory (`/`, `..`) or that tmux cannot
 * use, before any tmux runs: `-L NAME` is joined onto that directory as a path.
 */
export function checkSocketName(name: string, field = 'socket_name'): void {
  if (name === '') throw invalidArgument(`${field} must not be empty`, 'Omit it to use the configured tmux server.');
  if (name.includes('/') || name.includes('..') || name.includes('\0')) {
    throw invalidArgument(
      `${field} ${JSON.stringify(name.slice(0, MAX_SOCKET_NAME_LENGTH))} is not a socket name: names may not hold "/", ".." or NUL, since tmux joins them onto its socket directory`,
      'Pass the bare name tmux -L takes (like "work"); a socket elsewhere is configured with LIBTMUX_SOCKET_PATH.',
    );
  }
  if (name.length > MAX_SOCKET_NAME_LENGTH) throw invalidArgument(`${field} is longer than ${MAX_SOCKET_NAME_LENGTH} characters`);
}

/** tmux's socket directory for this user: `$TMUX_TMPDIR` (or /tmp) + `/tmux-<uid>`. */
export function socketDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const base = (env.TMUX_TMPDIR || '/tmp').replace(/\/+$/, '') || '/';
  return `${base === '/' ? '' : base}/tmux-${process.getuid?.() ?? 0}`;
}

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
  /** Builds the tmux server for a location (remote hosts plug in here). */
  readonly connect?: (location: ServerLocation) => TmuxServer;
}

const DEFAULT_IDLE_MS = 60_000;
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
  #closed = false;

  constructor(options: RegistryOptions) {
    this.#options = options;
    this.#defaultKey = locationKey(options.defaultLocation);
    this.#entries.set(this.#defaultKey, this.#open(options.defaultLocation, this.#defaultKey));
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
  async use<T>(location: ServerLocation | undefined, work: (engine: Engine) => Promise<T>): Promise<T> {
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

  #acquire(location: ServerLocation | undefined): Entry {
    if (this.#closed) throw refused('the server is shutting down');
    if (location?.socketName !== undefined) checkSocketName(location.socketName);
    const key = location === undefined ? this.#defaultKey : locationKey(location);
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
    if (entry.leases > 0 || entry.key === this.#defaultKey || this.#entries.get(entry.key) !== entry) return;
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
      if (entry.key !== this.#defaultKey && entry.leases === 0) {
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
    closePaneStreams(entry.engine);
    await entry.engine.tmux.close().catch(() => {});
  }

  #open(location: ServerLocation, key: string): Entry {
    const tmux =
      this.#options.connect?.(location) ??
      new TmuxServer({
        bin: this.#options.bin,
        socketName: location.socketName,
        socketPath: location.socketPath,
        commandTimeoutMs: this.#options.commandTimeoutMs,
      });
    return { key, location, engine: new Engine(tmux, this.#options.engine), leases: 0, idle: undefined };
  }
}
