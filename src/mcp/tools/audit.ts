/**
 * The audit trail: one entry per tool call (batch items too), written where every call passes
 * (server.ts's invoker), appended to a JSON-lines file when one is given (`--audit`) and kept in
 * memory for whoever subscribes (the live view). Secrets the user names (`--audit-redact`) are
 * replaced in every string of the arguments and in the error before anything is written or shown.
 */
import { closeSync, constants, fstatSync, openSync, writeSync } from 'node:fs';
import { auditTargets, TargetSet } from './audit-targets.js';
import { describeError } from './results.js';

export interface AuditClient {
  /** The client's name from its initialize (2025) or its per-request envelope (2026). */
  readonly name?: string;
  /** The HTTP session (Mcp-Session-Id) the call came in on, when there is one. */
  readonly session?: string;
}

export interface AuditEntry {
  /** Numbered in the order calls began; a batch item names its batch's number. */
  readonly id: number;
  /** When the call began, ISO 8601 (UTC). */
  readonly time: string;
  readonly client: AuditClient;
  readonly tool: string;
  readonly arguments: unknown;
  /** The panes, windows and sessions the call resolved, `host:id` (`local:%3`, `gpu:@1`). */
  readonly targets: readonly string[];
  /** Targets resolved beyond those listed (a wide search). */
  readonly targetsOmitted?: number;
  /** `asked`: the call was answered with a question for the client (2026 elicitation) and runs when it is retried. */
  readonly outcome: 'ok' | 'error' | 'asked';
  /** The error's message, when the outcome is an error. */
  readonly error?: string;
  /** Wall time of the call, milliseconds (of a question: how long it waited for its answer). */
  readonly ms: number;
  /** For a call made by a batch: the batch's entry id, its tool, and the item's place in it (from 0). */
  readonly batch?: { readonly id: number; readonly tool: string; readonly index: number };
  /** On a question's line (--approve, pause): what was asked and how it was answered. */
  readonly approval?: ApprovalRecord;
}

/** A question put to a person about a call, and its answer (mcp/approvals/gate.ts). */
export interface ApprovalRecord {
  /** The entry of the call asked about, when it has one. */
  readonly call?: number;
  /** The --approve rule that asked; absent when the pause held the call. */
  readonly rule?: string;
  readonly paused?: true;
  /** Where the call acts, as the question named it. */
  readonly where?: readonly string[];
  /** What the call types or runs, as the question showed it. */
  readonly text?: string;
  /** `refused`: no one could be asked. */
  readonly answer: 'approved' | 'denied' | 'timeout' | 'cancelled' | 'refused';
  readonly channel?: 'elicitation' | 'view' | 'terminal';
  readonly reason?: string;
}

export type AuditListener = (entry: AuditEntry) => void;

/** One call about to run, as the dispatcher knows it. */
export interface TrackedCall {
  readonly tool: string;
  readonly arguments: unknown;
  /** The arguments its tool declares as targets (ToolFacts.targets). */
  readonly targets?: readonly string[];
  readonly client?: AuditClient;
  readonly batch?: AuditEntry['batch'];
}

export interface AuditOptions {
  /** The JSON-lines file to append to (created 0600); none keeps the trail in memory only (for the view). */
  readonly file?: string;
  /** Replaced by `[redacted]` wherever they match in argument strings and error messages. */
  readonly redact?: readonly RegExp[];
}

/** Entries kept in memory for a view that opens later. */
const RECENT = 200;
/** A longer argument string is cut (the line says how much was left out). */
const MAX_STRING = 4096;
/** Deeper argument structure is summarised (arguments were validated, so this is a bound, not a case). */
const MAX_DEPTH = 16;

export const REDACTED = '[redacted]';

export class AuditFileError extends Error {}

/** Why an opened audit file is not one to write a trail to: not a regular file, another user's, or open to others. */
function fileProblem(fd: number): string | undefined {
  const stat = fstatSync(fd);
  if (!stat.isFile()) return 'not a regular file';
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) return `the file belongs to another user (uid ${stat.uid}); use a file of your own`;
  const mode = stat.mode & 0o777;
  if (mode !== 0o600)
    return `the file's mode is ${mode.toString(8).padStart(4, '0')}, not 0600; run chmod 600 on it (a trail may hold secrets)`;
  return undefined;
}

/**
 * JSON.stringify leaves U+2028, U+2029 and the C1 controls (U+0085 among them) raw, and some readers
 * take them for line ends; escaped, each line is one line for every reader. They occur only inside strings.
 */
function oneLine(json: string): string {
  return json.replace(/[\u0080-\u009f\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export class AuditTrail {
  readonly #fd: number | undefined;
  readonly #file: string | undefined;
  readonly #redact: RegExp | undefined;
  readonly #listeners = new Set<AuditListener>();
  readonly #recent: AuditEntry[] = [];
  /** What the items of each batch still running named, by the batch's entry id. */
  readonly #itemTargets = new Map<number, TargetSet>();
  #nextId = 1;
  #writeFailed = false;

  /** Opens (creating with mode 0600) and checks the file; a file that cannot be written throws AuditFileError. */
  constructor(options: AuditOptions = {}) {
    this.#file = options.file;
    this.#redact = options.redact?.length ? new RegExp(options.redact.map((r) => `(?:${r.source})`).join('|'), 'g') : undefined;
    if (options.file === undefined) return;
    let fd: number;
    try {
      // O_APPEND: each line lands whole at the end even with another writer; no O_TRUNC: a trail only grows.
      // O_NOFOLLOW: a link planted under the name is refused, not written through.
      fd = openSync(options.file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why =
        code === 'ENOENT'
          ? 'its directory does not exist'
          : code === 'EACCES'
            ? 'permission denied'
            : code === 'EISDIR'
              ? 'it is a directory'
              : code === 'ELOOP'
                ? 'it is a symbolic link; name the file itself'
                : (error as Error).message;
      throw new AuditFileError(`--audit ${options.file}: cannot write there (${why})`);
    }
    const problem = fileProblem(fd);
    if (problem) {
      closeSync(fd);
      throw new AuditFileError(`--audit ${options.file}: ${problem}`);
    }
    this.#fd = fd;
  }

  /**
   * Whether calls are recorded now: always with a file; for the view alone, only while a page is
   * subscribed, so a view nobody has open costs calls nothing.
   */
  get active(): boolean {
    return this.#fd !== undefined || this.#listeners.size > 0;
  }

  /** The number the next call gets (in the order calls begin). */
  nextId(): number {
    return this.#nextId++;
  }

  /**
   * Runs one call (`work` gets its entry id), timing it, and records its entry when it ends: its
   * targets from its arguments and answer (audit-targets.ts), an error when `answerOf` finds one
   * in the answer or when it throws.
   */
  async track<T>(
    call: TrackedCall,
    work: (id: number) => Promise<T>,
    answerOf: (value: T) => { error?: string; structured?: unknown; asked?: boolean },
  ): Promise<T> {
    const id = this.nextId();
    const time = new Date().toISOString();
    const started = performance.now();
    let error: string | undefined = 'the call ended without an answer';
    let structured: unknown;
    let asked: boolean | undefined;
    try {
      const value = await work(id);
      ({ error, structured, asked } = answerOf(value));
      return value;
    } catch (thrown) {
      error = describeError(thrown);
      throw thrown;
    } finally {
      // What its items named counts for a batch too (they end before it, so all are in by now).
      const found = new TargetSet();
      found.addAll(auditTargets(call.arguments, structured, call.targets));
      const items = this.#itemTargets.get(id);
      if (items) found.addAll(items.targets);
      this.#itemTargets.delete(id);
      const targets = found.targets;
      this.record({
        id,
        time,
        client: call.client ?? {},
        tool: call.tool,
        arguments: call.arguments,
        targets: targets.ids,
        ...(targets.omitted ? { targetsOmitted: targets.omitted } : {}),
        outcome: error !== undefined ? 'error' : asked ? 'asked' : 'ok',
        ...(error !== undefined ? { error } : {}),
        ms: Math.round((performance.now() - started) * 1000) / 1000,
        ...(call.batch ? { batch: call.batch } : {}),
      });
    }
  }

  /** A copy of a call's arguments as the trail shows them: redacted, long strings cut. */
  clean(value: unknown): unknown {
    return this.#clean(value, 0);
  }

  /**
   * Redacts every string of the entry (tool and client names, argument keys and values, targets, the
   * error), appends the line (one write, so it is in the file when the call answers), and tells subscribers.
   */
  record(entry: AuditEntry): void {
    if (entry.batch) {
      let items = this.#itemTargets.get(entry.batch.id);
      if (!items) this.#itemTargets.set(entry.batch.id, (items = new TargetSet()));
      items.addAll({ ids: entry.targets, omitted: entry.targetsOmitted ?? 0 });
    }
    const text = (value: string) => this.#text(value);
    const clean: AuditEntry = {
      ...entry,
      client: {
        ...(entry.client.name !== undefined ? { name: text(entry.client.name) } : {}),
        ...(entry.client.session !== undefined ? { session: text(entry.client.session) } : {}),
      },
      tool: text(entry.tool),
      arguments: this.#clean(entry.arguments, 0),
      targets: entry.targets.map(text),
      ...(entry.error !== undefined ? { error: text(entry.error) } : {}),
      ...(entry.batch ? { batch: { ...entry.batch, tool: text(entry.batch.tool) } } : {}),
      // What a question showed and the reason given are the call's text too: redacted the same way.
      ...(entry.approval ? { approval: this.#clean(entry.approval, 0) as ApprovalRecord } : {}),
    };
    if (this.#fd !== undefined) {
      try {
        writeSync(this.#fd, oneLine(JSON.stringify(clean)) + '\n');
        this.#writeFailed = false;
      } catch (error) {
        // A full disk must not fail the call; say so once per run of failures, on stderr.
        if (!this.#writeFailed)
          process.stderr.write(`tmux-mcp: cannot append to the audit log ${this.#file}: ${(error as Error).message}\n`);
        this.#writeFailed = true;
      }
    }
    this.#recent.push(clean);
    if (this.#recent.length > RECENT) this.#recent.shift();
    for (const listener of this.#listeners) {
      try {
        listener(clean);
      } catch {
        // A subscriber's fault is its own.
      }
    }
  }

  /** Calls `listener` with every entry from now on; returns the function that stops it. */
  subscribe(listener: AuditListener): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** The latest entries, oldest first (at most RECENT). */
  recent(): readonly AuditEntry[] {
    return [...this.#recent];
  }

  get file(): string | undefined {
    return this.#file;
  }

  close(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#listeners.clear();
  }

  /** Redacted first, then cut: a secret across the cut is caught whole. */
  #text(value: string): string {
    const clean = this.#redact ? value.replace(this.#redact, REDACTED) : value;
    return clean.length > MAX_STRING ? `${clean.slice(0, MAX_STRING)}...[${clean.length - MAX_STRING} more characters]` : clean;
  }

  /** A copy of `value` with every string redacted and bounded. */
  #clean(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return this.#text(value);
    if (value === null || typeof value !== 'object') return value;
    if (depth >= MAX_DEPTH) return '[nested too deep]';
    if (Array.isArray(value)) return value.map((item) => this.#clean(item, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[this.#text(key)] = this.#clean(item, depth + 1);
    return out;
  }
}
