/**
 * The rules that make a call wait for a person (--approve RULE, TMUX_MCP_APPROVE): which tools
 * (`tool:GLOB`), every tool that may destroy something (`destructive`), or what is typed or run
 * (`text:REGEX`, over what tmux would receive), each optionally only on a host or in sessions
 * (`HOST:`, `SESSION:`, `HOST:SESSION:`, as --allow-session names them). Deciding whether a call
 * matches is synchronous: for a tool no rule names, one map lookup and, with text rules, one
 * reading of what it types.
 */
import {
  boundedRegex,
  HOST_NAME,
  LOCAL_HOST,
  MatchTimeoutError,
  parseSessionPatterns,
  ScopeError,
  type BoundedRegex,
  type SessionPattern,
  type TypedText,
} from '../../core/index.js';

export class RuleError extends Error {}

export type RuleKind = 'tool' | 'destructive' | 'text';

export interface ApprovalRule {
  /** As the user wrote it, for questions, refusals and the audit. */
  readonly text: string;
  readonly kind: RuleKind;
  /** Only calls on this host (`local`: this machine); undefined: every host. */
  readonly host?: string;
  /** Only calls in sessions this pattern allows; undefined: every session. */
  readonly session?: SessionPattern;
  /** `tool:` rules: the tool names it covers. */
  readonly tools?: RegExp;
  /** `text:` rules: what it looks for in what a call types or runs. */
  readonly pattern?: BoundedRegex;
}

/** One unit a person may be asked about (a call, or one item of a batch), as its name and annotations tell. */
export interface Unit {
  readonly tool: string;
  /** The tool's published annotations say destructiveHint and it does not only read. */
  readonly destructive: boolean;
}

const KINDS = /^(?:destructive$|tool:|text:)/;

/** Parses the rules as given (one per --approve or TMUX_MCP_APPROVE entry); a bad one throws RuleError. */
export function parseRules(values: readonly string[], hosts: readonly string[]): ApprovalRule[] {
  return values.map((value) => parseRule(value.trim(), hosts));
}

function parseRule(text: string, hosts: readonly string[]): ApprovalRule {
  if (text === '') throw new RuleError('an approval rule is empty; give tool:GLOB, destructive or text:REGEX');
  const segments = text.split(':');
  // The kind starts after zero, one or two place segments.
  for (let places = 0; places <= 2 && places < segments.length; places++) {
    const rest = segments.slice(places).join(':');
    if (!KINDS.test(rest)) continue;
    return { text, ...placeOf(segments.slice(0, places), text, hosts), ...kindOf(rest, text) };
  }
  throw new RuleError(
    `approval rule ${JSON.stringify(text)} is not tool:GLOB, destructive or text:REGEX (optionally after HOST:, SESSION: or HOST:SESSION:)`,
  );
}

function placeOf(parts: readonly string[], text: string, hosts: readonly string[]): { host?: string; session?: SessionPattern } {
  if (parts.length === 0) return {};
  const isHost = (name: string) => name === LOCAL_HOST || hosts.includes(name);
  if (parts.some((part) => part.includes(',')))
    throw new RuleError(`approval rule ${JSON.stringify(text)}: one place per rule (no comma); give one rule per place`);
  if (parts.length === 1 && isHost(parts[0]!)) return { host: parts[0]! };
  if (parts.length === 2 && !isHost(parts[0]!)) {
    throw new RuleError(
      `approval rule ${JSON.stringify(text)} names host "${parts[0]}", which is not configured (--host ${HOST_NAME.test(parts[0]!) ? parts[0] : 'NAME'}=...)`,
    );
  }
  let pattern: SessionPattern;
  try {
    [pattern] = parseSessionPatterns([parts.join(':')]) as [SessionPattern];
  } catch (error) {
    if (error instanceof ScopeError)
      throw new RuleError(`approval rule ${JSON.stringify(text)}: ${error.message.replace(/^allowed session/, 'its session')}`);
    throw error;
  }
  return {
    ...(pattern.host !== undefined ? { host: pattern.host } : {}),
    session: { name: pattern.name, prefix: pattern.prefix, text: pattern.text },
  };
}

function kindOf(rest: string, text: string): Pick<ApprovalRule, 'kind' | 'tools' | 'pattern'> {
  if (rest === 'destructive') return { kind: 'destructive' };
  const body = rest.slice(5);
  if (body === '') throw new RuleError(`approval rule ${JSON.stringify(text)} needs something after "${rest.slice(0, 5)}"`);
  if (rest.startsWith('tool:')) {
    if (!/^[A-Za-z0-9_*?-]+$/.test(body))
      throw new RuleError(`approval rule ${JSON.stringify(text)}: a tool glob holds letters, digits, "_", "-", "*" and "?" only`);
    return { kind: 'tool', tools: new RegExp(`^${body.replaceAll('*', '.*').replaceAll('?', '.')}$`) };
  }
  let pattern: BoundedRegex;
  try {
    // Multiline: ^ and $ hold at each typed line, as a command is one line.
    pattern = boundedRegex(body, 'm');
  } catch (error) {
    throw new RuleError(`approval rule ${JSON.stringify(text)}: not a valid regular expression (${(error as Error).message})`);
  }
  if (pattern.exec('') !== null)
    throw new RuleError(
      `approval rule ${JSON.stringify(text)} matches the empty string, so it would hold every call; make it match what to stop`,
    );
  return { kind: 'text', pattern };
}

/**
 * The rules, sorted for speed: per tool name, the rules its name or annotations meet (computed once
 * per name), and the text rules every typing call is read against.
 */
export class RuleSet {
  readonly rules: readonly ApprovalRule[];
  readonly #byName: readonly ApprovalRule[];
  readonly #text: readonly ApprovalRule[];
  readonly #named = new Map<string, readonly ApprovalRule[]>();

  constructor(rules: readonly ApprovalRule[]) {
    this.rules = rules;
    this.#byName = rules.filter((rule) => rule.kind !== 'text');
    this.#text = rules.filter((rule) => rule.kind === 'text');
  }

  /** Whether any rule reads what calls type (only then is it read). */
  get readsText(): boolean {
    return this.#text.length > 0;
  }

  /** The rules a unit meets by its name and annotations, in the order given; usually none. */
  named(unit: Unit): readonly ApprovalRule[] {
    const key = unit.destructive ? `!${unit.tool}` : unit.tool;
    let found = this.#named.get(key);
    if (!found) {
      found = this.#byName.filter((rule) => (rule.kind === 'destructive' ? unit.destructive : rule.tools!.test(unit.tool)));
      this.#named.set(key, found);
    }
    return found;
  }

  /** The text rules that find what they look for in either reading of `texts`. */
  matching(texts: readonly TypedText[]): ApprovalRule[] {
    return this.#text.filter((rule) =>
      texts.some((text) => finds(rule.pattern!, text.sent) || (text.edited !== text.sent && finds(rule.pattern!, text.edited))),
    );
  }
}

/** A pattern that cannot finish in time counts as found: a call is asked about rather than let through. */
function finds(pattern: BoundedRegex, text: string): boolean {
  if (text === '') return false;
  try {
    return pattern.exec(text) !== null;
  } catch (error) {
    if (error instanceof MatchTimeoutError) return true;
    throw error;
  }
}

/** Whether a rule's place (host, sessions) holds for a call on `host` in the session called `session`. */
export function placeHolds(rule: ApprovalRule, host: string, session: string | undefined): boolean {
  if (rule.host !== undefined && rule.host !== host) return false;
  if (!rule.session) return true;
  // A call whose session cannot be told is asked about: a place rule must not be walked around by an unnamed target.
  if (session === undefined) return true;
  return rule.session.prefix ? session.startsWith(rule.session.name) : session === rule.session.name;
}
