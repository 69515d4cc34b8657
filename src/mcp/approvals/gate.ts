/**
 * The approval gate: the one rule in the dispatcher (server.ts) that makes a call wait for a person.
 * A call that meets an --approve rule, or that would change something while the view is paused,
 * is asked about before its handler runs; a batch's items are asked about each on its own, when
 * its turn comes. The first channel that answers wins and the question is withdrawn everywhere
 * else: the client (MCP elicitation), the live view, the terminal of `tmux-mcp call`. Denied,
 * unanswered in time or with no one to ask, the call is refused with nothing sent to tmux.
 * A call no rule meets costs one synchronous look at the rules.
 */
import { ProtocolError, ProtocolErrorCode, type InputRequiredResult, type ServerOptions } from '@modelcontextprotocol/server';
import { Failure, onShutdown, readTyped, type Typed, type TypedText } from '../../core/index.js';
import type { AuditClient, AuditTrail } from '../tools/audit.js';
import { auditTargets } from '../tools/audit-targets.js';
import { READ_GROUP } from '../tools/selection.js';
import { withProgress, type ToolCall, type ToolDeclaration } from '../tools/tool.js';
import { ApprovalBoard, type Answer, type PendingQuestion } from './board.js';
import {
  answerIn,
  askByInputRequired,
  askDuringCall,
  callDigest,
  elicitationEra,
  QuestionSeal,
  type ClientRequest,
  type SealedQuestion,
} from './elicit.js';
import { paneKey, UnfinishedLines, unfinishedOf } from './lines.js';
import type { Locate, Place } from './place.js';
import { placeHolds, RuleSet, type ApprovalRule, type Unit } from './rules.js';
import { noOneToAsk, questionText, refusalOf, type Settled } from './wording.js';

export interface ApprovalOptions {
  readonly rules: readonly ApprovalRule[];
  /** How long a question waits for an answer (--approve-timeout). */
  readonly timeoutMs: number;
  /** --start-paused: calls that change anything wait until Resume in the view. */
  readonly startPaused?: boolean;
  /** Where a call acts, for questions and for rules limited to a host or sessions. */
  readonly locate?: Locate;
  /** In-process `tmux-mcp call` on a terminal: asks there. */
  readonly terminal?: (message: string, signal: AbortSignal) => Promise<Answer>;
  /** How a person can be asked, for the refusal when no one can be (the default speaks of a server's clients and view). */
  readonly howToAsk?: string;
}

/** What the gate needs to know of a tool, whatever its profile's context. */
export type GatedTool = Pick<ToolDeclaration<any>, 'name' | 'annotations' | 'group' | 'typed' | 'items' | 'nestedAuthority' | 'targets'>;

/** One direct call about to run, as the dispatcher knows it. */
export interface ScreenCall {
  readonly tool: GatedTool;
  readonly args: unknown;
  readonly ctx: unknown;
  /** The tools a batch's items name. */
  readonly lookup: (name: string) => GatedTool | undefined;
  /** The SDK request the call came in on (how the client can be asked). */
  readonly request?: ClientRequest;
  readonly signal: AbortSignal;
  readonly progress: ToolCall<unknown>['progress'];
  readonly client?: AuditClient;
  /** The call's audit entry, when calls are audited. */
  readonly callId?: number;
}

/** Asks about batch item `index` when its turn comes; throws the refusal when it may not run. */
export type ItemGate = (index: number) => Promise<void>;

export type Screened =
  | { readonly kind: 'run'; readonly item?: ItemGate }
  | { readonly kind: 'refuse'; readonly failure: Failure }
  | { readonly kind: 'ask'; readonly result: InputRequiredResult };

interface Item {
  readonly tool: string;
  readonly arguments: unknown;
}

/** What a unit comes to for the rules: those it meets, what it types, and the line it leaves unfinished in its pane. */
interface Reading {
  readonly rules: readonly ApprovalRule[];
  /** What it types, read as the pane receives it (with the pane's unfinished line before it); undefined when not read. */
  readonly text?: string;
  readonly pane?: { readonly key: string; readonly line: string };
}

/** One question's subject: the whole call, or one item of its batch. */
interface Subject {
  readonly tool: GatedTool;
  readonly args: unknown;
  readonly reading: Reading;
  readonly item?: number;
}

/** Longest text a question shows of what a call types. */
const MAX_SHOWN_TEXT = 2000;

const QUIET: Reading = { rules: [] };

export class Approvals {
  readonly board: ApprovalBoard;
  readonly rules: RuleSet;
  readonly timeoutMs: number;
  readonly #options: ApprovalOptions;
  readonly #seal: QuestionSeal;
  readonly #lines = new UnfinishedLines();
  #view = false;
  #trail: AuditTrail | undefined;

  constructor(options: ApprovalOptions) {
    this.#options = options;
    this.rules = new RuleSet(options.rules);
    this.timeoutMs = options.timeoutMs;
    this.board = new ApprovalBoard(options.startPaused);
    this.#seal = new QuestionSeal(options.timeoutMs);
  }

  /** The live view shows the board: a channel that can answer, and the only way to pause. */
  attachView(): void {
    this.#view = true;
  }

  /** Where question lines go (the audit log and the view's trail). */
  attachTrail(trail: AuditTrail): void {
    this.#trail = trail;
  }

  /** The SDK options every server needs: the verify hook for sealed 2026 questions. */
  get serverOptions(): Pick<ServerOptions, 'requestState'> {
    return this.#seal.serverOptions;
  }

  /**
   * Whether a direct call may run now. Undefined (synchronously) when no rule meets it and nothing
   * is paused: it runs as if there were no gate. Otherwise what to do once a person has been asked.
   * A batch's items are read in order, each continuing the lines the ones before it left.
   */
  screen(call: ScreenCall): Promise<Screened> | undefined {
    const items = itemsOf(call.tool, call.args);
    const overlay = new Map<string, string>();
    const whole = this.#read(call.tool, call.args, call.ctx, overlay, items !== undefined);
    const reads: Array<Reading | Promise<Reading>> = [];
    let previous: Reading | Promise<Reading> = whole;
    for (const item of items ?? []) {
      const tool = call.lookup(item.tool);
      const read = () => this.#read(tool, item.arguments, call.ctx, overlay, false);
      previous = previous instanceof Promise ? previous.then(read) : read();
      reads.push(previous);
    }
    if (!this.#heldByPause(call.tool) && quiet(whole) && reads.every(quiet)) {
      for (const reading of [whole, ...reads] as Reading[]) this.#commit(reading);
      return undefined;
    }
    return this.#decide(call, items ?? [], whole, reads);
  }

  /** The rules a unit meets: by name and annotations, and (text rules set) by what it types after its pane's unfinished line. */
  #read(
    tool: GatedTool | undefined,
    args: unknown,
    ctx: unknown,
    overlay: Map<string, string>,
    batch: boolean,
  ): Reading | Promise<Reading> {
    if (!tool) return QUIET;
    const named = this.rules.named(unitOf(tool, batch));
    if (batch || !tool.typed || !this.rules.readsText) return named.length ? { rules: named } : QUIET;
    const finish = (typed: readonly Typed[]): Reading => {
      // A command of its own (a new pane's) is read alone, and leaves the pane's line as it was.
      const own = typed.every((each) => each.own);
      const key = own ? undefined : paneKey(args, tool.targets);
      const pending = key === undefined ? '' : overlay.has(key) ? overlay.get(key)! : this.#lines.get(key);
      const texts: TypedText[] = [];
      for (const each of typed) texts.push(readTyped(each, texts.length ? texts[texts.length - 1]!.unfinished : pending));
      const matched = this.rules.matching(texts);
      const rules = matched.length ? [...named, ...matched] : named;
      const text = texts.map((each) => each.sent).join('\n');
      if (key === undefined) return { rules, text };
      const line = unfinishedOf(texts, pending);
      overlay.set(key, line);
      return { rules, text, pane: { key, line } };
    };
    let typed: readonly Typed[] | Promise<readonly Typed[]>;
    try {
      typed = tool.typed(args, ctx);
    } catch {
      // Arguments that cannot be typed fail in the handler before anything is sent.
      typed = [];
    }
    return typed instanceof Promise ? typed.then(finish, () => finish([])) : finish(typed);
  }

  /** A unit was let run: the line it leaves is its pane's unfinished line from now on. */
  #commit(reading: Reading): void {
    if (reading.pane) this.#lines.set(reading.pane.key, reading.pane.line);
  }

  async #decide(
    call: ScreenCall,
    items: readonly Item[],
    wholeRead: Reading | Promise<Reading>,
    reads: ReadonlyArray<Reading | Promise<Reading>>,
  ): Promise<Screened> {
    const whole: Subject = { tool: call.tool, args: call.args, reading: await wholeRead };
    const readings = await Promise.all(reads);
    let wholeRule: ApprovalRule | undefined;
    const subjects = new Map<number, { subject: Subject; rule: ApprovalRule }>();
    try {
      wholeRule = await this.#applicable(whole.reading.rules, call.tool, call.args);
      for (const [index, reading] of readings.entries()) {
        const tool = call.lookup(items[index]!.tool);
        const rule = tool && (await this.#applicable(reading.rules, tool, items[index]!.arguments));
        if (rule && tool) subjects.set(index, { subject: { tool, args: items[index]!.arguments, reading, item: index }, rule });
      }
    } catch (error) {
      // A target outside the scope: refused as the call itself would be, without asking anyone.
      if (error instanceof Failure) return { kind: 'refuse', failure: error };
      throw error;
    }

    // A retried 2026 call brings the answers to what its first round asked; what it did not ask (a
    // pane's line changed meanwhile, so another item now meets a rule) is asked again, never let through.
    const sealed = call.request?.ctx.mcpReq.requestState<SealedQuestion>();
    let answered = sealed !== undefined ? this.#readSealed(call, sealed, whole, subjects) : undefined;
    if (
      answered &&
      [...(wholeRule ? ['call'] : []), ...[...subjects.keys()].map((index) => `item-${index}`)].some((key) => !answered!.has(key))
    )
      answered = undefined;
    // Paused, a call that changes anything waits for Resume, unless a person is asked about it anyway.
    if (!wholeRule && this.#heldByPause(call.tool)) {
      const paused = await this.#ask(call, whole, undefined);
      if (paused) return { kind: 'refuse', failure: paused };
    }
    if (!answered && (wholeRule || subjects.size > 0) && call.request && elicitationEra(call.request) === 'modern') {
      return { kind: 'ask', result: await this.#askModern(call, whole, wholeRule, subjects) };
    }
    if (wholeRule) {
      const refusal = answered ? answered.get('call') : await this.#ask(call, whole, wholeRule);
      if (refusal) return { kind: 'refuse', failure: refusal };
    }
    this.#commit(whole.reading);
    if (subjects.size === 0) {
      for (const reading of readings) this.#commit(reading);
      return { kind: 'run' };
    }
    return {
      kind: 'run',
      item: async (index) => {
        const asked = subjects.get(index);
        const refusal = !asked ? undefined : answered ? answered.get(`item-${index}`) : await this.#ask(call, asked.subject, asked.rule);
        if (refusal) throw refusal;
        const reading = readings[index];
        if (reading) this.#commit(reading);
      },
    };
  }

  /** Paused (only the view can pause, and resume), a call that changes anything waits. */
  #heldByPause(tool: GatedTool): boolean {
    return this.#view && this.board.paused && changes(tool);
  }

  /** The first candidate whose place holds for the call (its places asked of tmux only when a rule has one). */
  async #applicable(candidates: readonly ApprovalRule[], tool: GatedTool, args: unknown): Promise<ApprovalRule | undefined> {
    if (candidates.length === 0) return undefined;
    const placed = candidates.some((rule) => rule.host !== undefined || rule.session !== undefined);
    const places = placed ? await this.#places(tool, args) : [];
    const where = places.length > 0 ? places : [{ host: 'local', label: '' } as Place];
    return candidates.find((rule) => where.some((place) => placeHolds(rule, place.host, place.session)));
  }

  async #places(tool: GatedTool, args: unknown): Promise<Place[]> {
    return this.#options.locate ? this.#options.locate(args, tool.targets ?? []) : [];
  }

  /**
   * Asks a person about `subject` (or holds it for the pause when `rule` is undefined) through every
   * channel this call has, and waits for the first answer; undefined when it may run.
   */
  async #ask(call: ScreenCall, subject: Subject, rule: ApprovalRule | undefined): Promise<Failure | undefined> {
    const started = performance.now();
    const question = await this.#question(call, subject, rule);
    const message = questionText(question);
    const era = !rule || !call.request ? undefined : elicitationEra(call.request);
    const terminal = rule ? this.#options.terminal : undefined;
    if (!this.#view && era !== 'legacy' && !terminal) {
      const failure = noOneToAsk(describe(subject), rule!, this.#options.howToAsk);
      this.#record(call, subject, question, rule, { failed: 'no channel' }, failure, performance.now() - started);
      return failure;
    }
    const withdraw = new AbortController();
    const settled = await withProgress(
      call.progress,
      this.timeoutMs,
      (s) => `waiting ${s}s for a person to approve ${subject.tool.name}`,
      () =>
        new Promise<Settled>((resolve) => {
          const timer = setTimeout(() => resolve({ timedOut: true }), Math.max(0, question.deadline - Date.now()));
          const onAbort = () => resolve({ cancelled: 'client' });
          call.signal.addEventListener('abort', onAbort, { once: true });
          if (call.signal.aborted) onAbort();
          const unshut = onShutdown(() => resolve({ cancelled: 'stopping' }));
          const unpost = this.#view ? this.board.post(question, (answer) => resolve({ answer })) : () => {};
          const channels = [
            ...(era === 'legacy' ? [askDuringCall(call.request!, message, withdraw.signal, this.timeoutMs)] : []),
            ...(terminal ? [terminal(message, withdraw.signal)] : []),
          ];
          for (const channel of channels) {
            channel.then(
              (answer) => resolve({ answer }),
              // A client that fails to ask leaves the view to answer; with no view, the call is refused.
              (error: unknown) =>
                !withdraw.signal.aborted && !this.#view && resolve({ failed: error instanceof Error ? error.message : String(error) }),
            );
          }
          withdraw.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            call.signal.removeEventListener('abort', onAbort);
            unshut();
            unpost();
          });
        }).finally(() => withdraw.abort()),
    );
    const failure = refusalOf(settled, describe(subject), rule, this.timeoutMs);
    this.#record(call, subject, question, rule, settled, failure, performance.now() - started);
    return failure;
  }

  /** 2026-07-28 with a client that can be asked: every question of the call at once, in one sealed input_required. */
  async #askModern(
    call: ScreenCall,
    whole: Subject,
    wholeRule: ApprovalRule | undefined,
    subjects: ReadonlyMap<number, { subject: Subject; rule: ApprovalRule }>,
  ): Promise<InputRequiredResult> {
    const asked: Array<[key: string, subject: Subject, rule: ApprovalRule]> = [
      ...(wholeRule ? [['call', whole, wholeRule] as [string, Subject, ApprovalRule]] : []),
      ...[...subjects].map(([index, { subject, rule }]) => [`item-${index}`, subject, rule] as [string, Subject, ApprovalRule]),
    ];
    const questions = await Promise.all(
      asked.map(async ([key, subject, rule]) => [key, questionText(await this.#question(call, subject, rule))] as const),
    );
    const now = Date.now();
    const state = await this.#seal.seal(
      {
        id: ApprovalBoard.newId(),
        call: callDigest(call.tool.name, call.args),
        askedAt: now,
        deadline: now + this.timeoutMs,
        keys: asked.map(([key, , rule]) => [key, rule.text] as const),
      },
      call.request!.ctx,
    );
    return askByInputRequired(questions, state);
  }

  /** The answers a retried 2026 call brings, each a refusal or undefined (approved), by key. */
  #readSealed(
    call: ScreenCall,
    sealed: SealedQuestion,
    whole: Subject,
    subjects: ReadonlyMap<number, { subject: Subject; rule: ApprovalRule }>,
  ): Map<string, Failure | undefined> {
    // The seal and its one use were checked by the SDK's verify hook; it must also be this very call.
    if (sealed.call !== callDigest(call.tool.name, call.args))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState', { reason: 'invalid_request_state' });
    const answers = new Map<string, Failure | undefined>();
    const late = Date.now() > sealed.deadline;
    for (const [key, ruleText] of sealed.keys) {
      const subject = key === 'call' ? whole : subjects.get(Number(key.slice(5)))?.subject;
      if (!subject) continue;
      const rule = this.rules.rules.find((each) => each.text === ruleText);
      const answer = late ? undefined : answerIn(call.request!.ctx, key);
      const settled: Settled = late
        ? { timedOut: true }
        : answer
          ? { answer }
          : { answer: { decision: 'deny', channel: 'elicitation', reason: 'the client sent no answer' } };
      const failure = refusalOf(settled, describe(subject), rule, this.timeoutMs);
      this.#record(call, subject, { where: [] }, rule, settled, failure, Date.now() - sealed.askedAt);
      answers.set(key, failure);
    }
    return answers;
  }

  async #question(call: ScreenCall, subject: Subject, rule: ApprovalRule | undefined): Promise<PendingQuestion> {
    const places = await this.#places(subject.tool, subject.args).catch(() => []);
    const text = subject.reading.text ?? (await typedTextOf(subject.tool, subject.args, call.ctx));
    const clean = this.#trail ? this.#trail.clean(subject.args) : subject.args;
    return {
      id: ApprovalBoard.newId(),
      tool: subject.tool.name,
      ...(subject.item !== undefined ? { batch: { tool: call.tool.name, index: subject.item } } : {}),
      where: places.map((place) => place.label),
      ...(text
        ? {
            text:
              text.length > MAX_SHOWN_TEXT ? `${text.slice(0, MAX_SHOWN_TEXT)}...[${text.length - MAX_SHOWN_TEXT} more characters]` : text,
          }
        : {}),
      arguments: clean,
      ...(rule ? { rule: rule.text } : {}),
      paused: rule === undefined,
      client: call.client ?? {},
      askedAt: new Date().toISOString(),
      deadline: Date.now() + this.timeoutMs,
    };
  }

  /** The question's line in the audit, beside the call's own: its answer, channel, reason and wait. */
  #record(
    call: ScreenCall,
    subject: Subject,
    question: Pick<PendingQuestion, 'text' | 'where'>,
    rule: ApprovalRule | undefined,
    settled: Settled,
    failure: Failure | undefined,
    waitedMs: number,
  ): void {
    const trail = this.#trail;
    if (!trail?.active) return;
    const answer = 'answer' in settled ? settled.answer : undefined;
    trail.record({
      id: trail.nextId(),
      time: new Date().toISOString(),
      client: call.client ?? {},
      tool: subject.tool.name,
      arguments: subject.args,
      targets: auditTargets(subject.args, undefined, subject.tool.targets).ids,
      outcome: failure ? 'error' : 'ok',
      ...(failure ? { error: failure.message } : {}),
      ms: Math.round(waitedMs * 1000) / 1000,
      ...(subject.item !== undefined && call.callId !== undefined
        ? { batch: { id: call.callId, tool: call.tool.name, index: subject.item } }
        : {}),
      approval: {
        ...(call.callId !== undefined ? { call: call.callId } : {}),
        ...(rule ? { rule: rule.text } : { paused: true }),
        ...(question.where.length ? { where: question.where } : {}),
        ...(question.text !== undefined ? { text: question.text } : {}),
        answer: answer
          ? answer.decision === 'approve'
            ? 'approved'
            : 'denied'
          : 'timedOut' in settled
            ? 'timeout'
            : 'cancelled' in settled
              ? 'cancelled'
              : 'refused',
        ...(answer ? { channel: answer.channel } : {}),
        ...(answer?.reason ? { reason: answer.reason } : {}),
      },
    });
  }
}

function quiet(reading: Reading | Promise<Reading>): boolean {
  return !(reading instanceof Promise) && reading.rules.length === 0;
}

/** Whether a tool changes anything: it neither is marked read-only nor belongs to the reading toolset. */
function changes(tool: GatedTool): boolean {
  return tool.annotations?.readOnlyHint !== true && tool.group !== READ_GROUP;
}

/** The unit a person is asked about for `tool`: a batch as a whole is asked about only by name. */
function unitOf(tool: GatedTool, batch: boolean): Unit {
  return { tool: tool.name, destructive: !batch && tool.annotations?.destructiveHint === true && changes(tool) };
}

/** What a unit types, for a question about it when no text rule read it. */
async function typedTextOf(tool: GatedTool, args: unknown, ctx: unknown): Promise<string> {
  try {
    return tool.typed ? (await tool.typed(args, ctx)).map((typed) => readTyped(typed).sent).join('\n') : '';
  } catch {
    return '';
  }
}

/** A batch's items: its own `items`, or for a batch of nested calls its operations. */
function itemsOf(tool: GatedTool, args: unknown): Item[] | undefined {
  if (tool.items) return [...tool.items(args)];
  if (!tool.nestedAuthority) return undefined;
  const operations = (args as { operations?: unknown }).operations;
  return Array.isArray(operations)
    ? operations.map((op: { tool?: unknown; arguments?: unknown }) => ({ tool: String(op?.tool), arguments: op?.arguments ?? {} }))
    : [];
}

function describe(subject: Subject): string {
  return subject.item !== undefined ? `operations[${subject.item}] (${subject.tool.name})` : subject.tool.name;
}
