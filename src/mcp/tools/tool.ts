/**
 * What a profile declares for each tool, in one place: wire name, title, our description, the
 * contract's schemas, annotations and `_meta`, the selection group, and the handler.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Typed } from '../../core/index.js';
import type { JsonSchema, Static } from './schema.js';

export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** A successful tool answer: the structured value and, optionally, the text shown beside it. */
export interface ToolOutcome {
  readonly structured: Record<string, unknown>;
  /** Defaults to the JSON of `structured`. */
  readonly text?: string;
  /** UTF-8 bytes of the JSON of `structured`, when the tool already counted them (spares encoding it to measure). */
  readonly structuredBytes?: number;
}

/** What a handler gets besides its validated arguments. */
export interface ToolCall<Ctx> {
  readonly ctx: Ctx;
  /** Aborted when the client cancels the request or the server shuts down. */
  readonly signal: AbortSignal;
  /** Sends `notifications/progress` when the client asked for progress; otherwise does nothing. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Present when the tool declares `nestedAuthority`: calls one of those tools through exactly
   * the path a direct `tools/call` takes (argument validation, handler, output validation,
   * rendering, response cap) and returns the result that call would have answered.
   */
  readonly nested?: NestedCaller;
  /**
   * Present when calls are audited: a batch that runs its items itself rather than through
   * `nested` (julia's run_operations) runs each through here, so every item is an audit entry.
   */
  readonly auditItem?: AuditItem;
  /**
   * Present when items of this batch need a person's approval (--approve): a batch that runs its
   * items itself awaits it before item `index` runs; it throws the refusal when the item may not.
   */
  readonly approveItem?: (index: number) => Promise<void>;
}

/** What a call types or runs in a pane, as tmux would receive it: what --approve text: rules read. */
export type TypedBy<Args, Ctx> = (args: Args, ctx: Ctx) => readonly Typed[] | Promise<readonly Typed[]>;

/** The calls a batch makes, one per item, each approved on its own (--approve). */
export type ItemsOf<Args> = (args: Args) => ReadonlyArray<{ readonly tool: string; readonly arguments: unknown }>;

/** Runs one batch item's `work`, recording it as a call of `tool` with `args` (its outcome, targets and time). */
export type AuditItem = <T>(tool: string, args: unknown, work: () => Promise<T>) => Promise<T>;

export interface NestedCaller {
  /** The tools this call may invoke, already narrowed to those that exist and are not excluded. */
  readonly names: readonly string[];
  /** `index`: the operation's place in the batch, for the audit (rows that call nothing leave a gap). */
  call(name: string, args: unknown, index?: number): Promise<CallToolResult>;
}

/** What every profile states of a tool, in the same words, whatever its shape of acting. */
export interface ToolFacts {
  readonly name: string;
  /** Omitted from tools/list when the contract gives the tool none. */
  readonly title?: string;
  readonly description: string;
  /** Absent when the contract advertises no output schema. */
  readonly output?: JsonSchema;
  /**
   * The arguments that name tmux objects (panes, windows, sessions), for the audit: a property of
   * the input (`paneId`), of an object argument (`target.paneId`), or of each item of an array
   * argument (`operations[].paneId`). The audit records the ids and refs found there (audit-targets.ts).
   */
  readonly targets?: readonly string[];
}

/**
 * A tool as the libtmux and python profiles declare it: its facts, its input schema, and a handler.
 * `input` is built with the schema builders, so the handler's arguments are typed from it
 * (`Static`), never written a second time. Each profile's declare.ts adds its own facts and turns a
 * spec into a `ToolDeclaration`; julia's keeps the facts and splits acting into plan and run.
 */
export interface ToolSpec<In extends JsonSchema, Call> extends ToolFacts {
  readonly input: In;
  readonly handler: Handler<In, Call>;
  readonly typed?: TypedBy<Static<In>, Call extends { readonly ctx: infer Ctx } ? Ctx : never>;
  readonly items?: ItemsOf<Static<In>>;
}

/** How a tool acts: the arguments its input schema accepts, checked against it, in; an outcome out. */
export type Handler<In extends JsonSchema, Call> = (args: Static<In>, call: Call) => Promise<ToolOutcome>;

export interface ToolDeclaration<Ctx, Args = any> {
  readonly name: string;
  /** Omitted from tools/list when the contract gives the tool none. */
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema?: JsonSchema;
  readonly annotations?: ToolAnnotations;
  readonly _meta?: Record<string, unknown>;
  /** The selection group the profile sorts it into (libtmux: inspect, manage, execute, teardown). */
  readonly group: string;
  readonly handler: (args: Args, call: ToolCall<Ctx>) => Promise<ToolOutcome>;
  /** The arguments that name tmux objects (ToolFacts.targets), checked against `inputSchema`. */
  readonly targets?: readonly string[];
  /** Tools this one may call through `call.nested` (a batch); others are refused. */
  readonly nestedAuthority?: readonly string[];
  /**
   * The schema arguments are checked against before the handler, when it must differ from the
   * advertised `inputSchema`: a batch checks its envelope here and lets each nested call check
   * its own arguments, so one bad operation is a failed row rather than a rejected batch.
   */
  readonly argumentSchema?: JsonSchema;
  /**
   * A smaller answer for the wire cap: called while a rendered result is over the response limit,
   * it drops one more piece (and says so in the outcome); undefined when nothing more can go.
   */
  readonly shrinkOutcome?: (outcome: ToolOutcome) => ToolOutcome | undefined;
  /** For --approve text: rules, when the tool types or runs text in a pane. */
  readonly typed?: TypedBy<Args, Ctx>;
  /** For a batch that runs its items itself (not through `nested`): its items, each approved on its own. */
  readonly items?: ItemsOf<Args>;
}

/** The facts' target arguments, each checked to name a property of `input`: a slip in a declaration fails at start-up, not in the audit. */
export function declaredTargets(facts: ToolFacts, input: JsonSchema): { readonly targets?: readonly string[] } {
  if (!facts.targets?.length) return {};
  for (const path of facts.targets) {
    let schema: JsonSchema | undefined = input;
    for (const step of path.split('.')) {
      const name = step.endsWith('[]') ? step.slice(0, -2) : step;
      schema = (schema?.properties as Record<string, JsonSchema> | undefined)?.[name];
      if (schema && step.endsWith('[]')) schema = schema.items as JsonSchema | undefined;
    }
    if (!schema) throw new Error(`${facts.name}: the target ${path} names no argument of its input schema`);
  }
  return { targets: facts.targets };
}

/**
 * How often a long call reports progress (when the client asked for it), so any call that runs past a
 * second is seen to be alive, and clients that reset their request timeout on progress keep waiting.
 */
const PROGRESS_EVERY_MS = 1000;

/** Runs `work`, reporting the seconds elapsed out of `totalMs` every second until it settles. */
export async function withProgress<T>(
  progress: ToolCall<unknown>['progress'],
  totalMs: number,
  message: (elapsedSeconds: number) => string,
  work: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  const ticker = setInterval(() => {
    const elapsed = Math.round(performance.now() - started) / 1000;
    void progress(elapsed, totalMs / 1000, message(elapsed));
  }, PROGRESS_EVERY_MS);
  try {
    return await work();
  } finally {
    clearInterval(ticker);
  }
}
