/**
 * What the julia profile keeps between calls: its settings, the caller pane and the allow-list
 * (resolved at start-up into generation-bound targets), the sessions this process created (the
 * only ones it may tear down), the count of calls running, and each call's deadline.
 */
import { checkGeneration, type Engine, type EngineRegistry, Failure, generationHost, wrongServer } from '../../core/index.js';

export interface PaneTarget {
  readonly paneId: string;
  readonly generation: string;
}

/** Refusals that are this contract's policy rather than tmux's or core's: they carry their code. */
export type PolicyCode =
  | 'target_required'
  | 'target_denied'
  | 'tool_denied'
  | 'creation_denied'
  | 'owned_limit'
  | 'ownership_required'
  | 'closed';

export class PolicyRefusal extends Error {
  constructor(
    readonly code: PolicyCode,
    message: string,
    /** Whether anything may have happened before the refusal (an owned_limit found after creating). */
    readonly touched = false,
  ) {
    super(message);
    this.name = 'PolicyRefusal';
  }
}

export interface JuliaSettings {
  readonly caller?: PaneTarget;
  /** Empty: no allow-list, every pane may be targeted. */
  readonly allowPanes: readonly PaneTarget[];
  readonly allowCreate: boolean;
  readonly timeoutMs: number;
  /** Largest capture (capture_pane maxBytes, the wait baseline). */
  readonly maxCaptureBytes: number;
  readonly maxResultBytes: number;
}

/** Calls running in the application at once; one more is `busy` (a cancelled call counts until it has really ended). */
export const MAX_ACTIVE_CALLS = 16;
export const MAX_OWNED_SESSIONS = 8;
export const MAX_OWNED_PANES = 256;

export interface OwnedSession {
  readonly generation: string;
  readonly panes: readonly PaneTarget[];
}

export class JuliaApp {
  readonly owned = new Map<string, OwnedSession>();
  creating = 0;
  #active = 0;
  /** Aborted when the application closes: every call running is cancelled. */
  readonly #closing = new AbortController();

  constructor(
    /** This machine's tmux and the configured hosts'; a target's generation says which. */
    readonly registry: EngineRegistry,
    readonly settings: JuliaSettings,
  ) {}

  /** This machine's configured tmux: where sessions are created and start-up panes resolved. */
  get engine(): Engine {
    return this.registry.defaultEngine;
  }

  /**
   * The tmux server a generation belongs to: the host it names, or this machine's. A host that is
   * not configured here is another server (`wrong_server`), refused before any tmux is asked.
   */
  engineFor(subject: string, generation: string): Engine {
    const host = generationHost(generation);
    if (host !== undefined && !this.registry.hostNames.includes(host)) {
      throw wrongServer(
        subject,
        `Its host ${JSON.stringify(host)} is not configured here; use a target listed by this server (list_panes).`,
      );
    }
    return this.registry.engineOn(host);
  }

  get allowListActive(): boolean {
    return this.settings.allowPanes.length > 0;
  }

  /** With an allow-list, only its panes and the panes of sessions this process created. */
  isAllowed(target: PaneTarget): boolean {
    if (!this.allowListActive) return true;
    const same = (p: PaneTarget) => p.paneId === target.paneId && p.generation === target.generation;
    return this.settings.allowPanes.some(same) || [...this.owned.values()].some((s) => s.panes.some(same));
  }

  /** The allow-list by pane id and host, as core's scope rule asks it (generations are checked by isAllowed). */
  allowsPaneId(host: string | undefined, paneId: string, sessionIds: readonly string[]): boolean {
    if (!this.allowListActive) return true;
    const same = (p: PaneTarget) => p.paneId === paneId && generationHost(p.generation) === host;
    // Sessions are created on this machine only; a pane of one is admitted while it is adopted.
    const ownedHere = host === undefined && sessionIds.some((id) => this.owned.has(id));
    return ownedHere || this.settings.allowPanes.some(same) || [...this.owned.values()].some((s) => s.panes.some(same));
  }

  isCaller(target: PaneTarget): boolean {
    const caller = this.settings.caller;
    return caller !== undefined && caller.paneId === target.paneId && caller.generation === target.generation;
  }

  /** The target a call names, or the caller pane when it names none; checked without tmux. */
  planTarget(target: PaneTarget | undefined): PaneTarget {
    const chosen = target ?? this.settings.caller;
    if (!chosen) throw new PolicyRefusal('target_required', 'supply a target or configure a caller pane');
    if (!this.isAllowed(chosen)) throw new PolicyRefusal('target_denied', 'pane is not allowed by this application');
    return { paneId: chosen.paneId, generation: chosen.generation };
  }

  /** Right before acting: still allowed, and its generation is the running server's; answers that server's engine. */
  async checkTarget(target: PaneTarget): Promise<Engine> {
    if (!this.isAllowed(target)) throw new PolicyRefusal('target_denied', 'pane is no longer allowed');
    const engine = this.engineFor(target.paneId, target.generation);
    await checkGeneration(engine, target.paneId, target.generation);
    return engine;
  }

  /** Aborts when the application closes. */
  get closing(): AbortSignal {
    return this.#closing.signal;
  }

  /**
   * Closes the application as the server stops: the calls running end as `cancelled` and any call
   * after this one is refused as `closed`; both are still answered.
   */
  close(): void {
    this.#closing.abort();
  }

  /** Runs one call, counted against MAX_ACTIVE_CALLS until `work` settles, even after its answer was given up. */
  async counted<T>(work: () => Promise<T>): Promise<T> {
    if (this.#closing.signal.aborted) throw new PolicyRefusal('closed', 'application is closed');
    if (this.#active >= MAX_ACTIVE_CALLS)
      throw new Failure('busy', 'application request capacity exhausted', undefined, { touched: false });
    this.#active++;
    const running = work();
    void running.then(
      () => this.#active--,
      () => this.#active--,
    );
    return running;
  }
}

/**
 * One call's deadline: `signal` aborts when it passes, the client cancels or the application
 * closes, and `race` ends a piece of work with a `timeout` failure when the deadline comes first,
 * or a `cancelled` one when the application closes first (the work is told through `signal` and
 * winds down on its own). A client's own cancellation does not end the race: its answer is
 * dropped anyway, and the call keeps its place until the work has really ended.
 */
export class Deadline {
  readonly signal: AbortSignal;
  readonly #controller = new AbortController();
  #ends: number;
  readonly #stopped: Promise<never>;
  #timer!: NodeJS.Timeout;
  #stop!: (failure: Failure) => void;
  readonly #outer: AbortSignal;
  readonly #closing: AbortSignal;
  readonly #onOuterAbort = () => this.#controller.abort();
  #onClose!: () => void;

  constructor(
    readonly timeoutMs: number,
    outer: AbortSignal,
    closing: AbortSignal,
  ) {
    this.signal = this.#controller.signal;
    this.#ends = performance.now() + timeoutMs;
    this.#outer = outer;
    this.#closing = closing;
    outer.addEventListener('abort', this.#onOuterAbort, { once: true });
    if (outer.aborted) this.#controller.abort();
    this.#stopped = new Promise<never>((_, reject) => {
      this.#stop = (failure: Failure) => {
        reject(failure);
        this.#controller.abort();
      };
      this.#arm(timeoutMs);
      this.#onClose = () =>
        this.#stop(
          new Failure('cancelled', 'request cancelled after submission: the server is shutting down; remote effects may have occurred'),
        );
      closing.addEventListener('abort', this.#onClose, { once: true });
    });
    this.#stopped.catch(() => {});
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(
      () => this.#stop(new Failure('timeout', `request exceeded ${seconds(this.timeoutMs)} seconds; remote effects may have occurred`)),
      ms,
    );
  }

  /** Waits for `wait` (a person deciding) with the clock stopped: the time it takes is not the call's. */
  async paused<T>(wait: Promise<T>): Promise<T> {
    clearTimeout(this.#timer);
    const left = this.remainingMs();
    const since = performance.now();
    try {
      return await wait;
    } finally {
      this.#ends += performance.now() - since;
      if (!this.signal.aborted) this.#arm(left);
    }
  }

  remainingMs(): number {
    return Math.max(0, this.#ends - performance.now());
  }

  race<T>(work: Promise<T>): Promise<T> {
    return Promise.race([work, this.#stopped]);
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#outer.removeEventListener('abort', this.#onOuterAbort);
    this.#closing.removeEventListener('abort', this.#onClose);
  }
}

/** Seconds as the contract prints them: 5 -> "5.0", 0.5 -> "0.5". */
function seconds(ms: number): string {
  const s = ms / 1000;
  return Number.isInteger(s) ? s.toFixed(1) : String(s);
}
