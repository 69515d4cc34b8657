/**
 * The scope rule: which sessions and panes a call may see and touch, decided here once for every
 * profile and host. Three cases of one rule: the allowed sessions (`--allow-session`), the pane
 * this server runs in (the caller guard), and the julia profile's allowed panes (`--allow-pane`).
 * This module only decides; core/scope-gate.ts applies it to each tmux command before it is sent,
 * and the engine's listings filter by it.
 */
import { HOST_NAME, LOCAL_HOST } from '../servers/host-config.js';

/** One `--allow-session` entry: an exact name, or a prefix (written with a trailing `*`), on one host or any. */
export interface SessionPattern {
  /** Undefined: every host; `local`: this machine only; else the configured host of that name. */
  readonly host?: string;
  readonly name: string;
  readonly prefix: boolean;
  /** As the user wrote it, for messages. */
  readonly text: string;
}

/** The pane this server runs in, and which tmux server that pane belongs to (from TMUX). */
export interface CallerPane {
  readonly paneId: string;
  readonly serverPid?: number;
  readonly socketPath?: string;
}

/**
 * Panes admitted by id (julia's --allow-pane, and the sessions it created): whether a pane on a
 * host, in the sessions (ids) its window is linked into, may be seen and targeted.
 */
export type PaneRule = (host: string | undefined, paneId: string, sessionIds: readonly string[]) => boolean;

export class ScopeError extends Error {}

/** Session names tmux keeps: no `:` or `.` (target separators), nothing empty. */
const SESSION_NAME = /^[^:.\s*][^:.\s*]*$/;

/** Parses `--allow-session` values (each maybe a comma list) into patterns; a bad one throws ScopeError. */
export function parseSessionPatterns(values: readonly string[]): SessionPattern[] {
  const patterns: SessionPattern[] = [];
  for (const text of values.flatMap((value) => value.split(',')).map((item) => item.trim())) {
    if (text === '') throw new ScopeError('an allowed session is empty; give a name, a prefix ending in *, or HOST:NAME');
    const colon = text.indexOf(':');
    const host = colon === -1 ? undefined : text.slice(0, colon);
    const rest = colon === -1 ? text : text.slice(colon + 1);
    if (host !== undefined && host !== LOCAL_HOST && !HOST_NAME.test(host)) {
      throw new ScopeError(`allowed session ${JSON.stringify(text)}: "${host}" is not a host name (local, or a --host NAME)`);
    }
    const prefix = rest.endsWith('*');
    const name = prefix ? rest.slice(0, -1) : rest;
    if ((!prefix && name === '') || (name !== '' && !SESSION_NAME.test(name))) {
      throw new ScopeError(
        `allowed session ${JSON.stringify(text)} must be a session name or a prefix ending in * (no ":", "." or spaces in the name; * only at the end)`,
      );
    }
    patterns.push({ ...(host !== undefined ? { host } : {}), name, prefix, text });
  }
  return patterns;
}

export class Scope {
  readonly patterns: readonly SessionPattern[];
  readonly caller: CallerPane | undefined;
  #paneRule: PaneRule | undefined;

  constructor(options: { patterns?: readonly SessionPattern[]; caller?: CallerPane; paneRule?: PaneRule } = {}) {
    this.patterns = options.patterns ?? [];
    this.caller = options.caller;
    this.#paneRule = options.paneRule;
  }

  /** True when sessions are limited: listings filter and every target is checked. */
  get limitsSessions(): boolean {
    return this.patterns.length > 0;
  }

  /** True when panes are limited by id (julia's --allow-pane). */
  get limitsPanes(): boolean {
    return this.#paneRule !== undefined;
  }

  /** True when anything but the caller guard applies: what a call may see is narrowed. */
  get active(): boolean {
    return this.limitsSessions || this.limitsPanes;
  }

  /** Installs julia's pane allow-list (resolved at start-up, grown by the sessions it creates). */
  setPaneRule(rule: PaneRule | undefined): void {
    this.#paneRule = rule;
  }

  /** Whether the session called `name` on `host` (undefined: this machine) is in scope. */
  allowsSession(host: string | undefined, name: string): boolean {
    if (!this.limitsSessions) return true;
    const where = host ?? LOCAL_HOST;
    return this.patterns.some((p) => (p.host === undefined || p.host === where) && (p.prefix ? name.startsWith(p.name) : name === p.name));
  }

  /**
   * Whether a pane is in scope: every session its window is linked into is allowed (acting on it
   * shows there), and the pane rule admits it when there is one.
   */
  allowsPane(host: string | undefined, paneId: string, sessionNames: readonly string[], sessionIds: readonly string[]): boolean {
    return this.allowsWindow(host, sessionNames) && (this.#paneRule?.(host, paneId, sessionIds) ?? true);
  }

  /** Whether a window linked into `sessionNames` is in scope: all of them are allowed. */
  allowsWindow(host: string | undefined, sessionNames: readonly string[]): boolean {
    return sessionNames.every((name) => this.allowsSession(host, name));
  }

  /** True when `paneId` is the caller's pane, on the tmux server at `host` whose pid is `serverPid`. */
  isCaller(host: string | undefined, paneId: string, serverPid: number | undefined): boolean {
    const caller = this.caller;
    if (!caller || host !== undefined || caller.paneId !== paneId) return false;
    // Unsure which server the caller's pane is on: err on the safe side.
    return caller.serverPid === undefined || serverPid === undefined || caller.serverPid === serverPid;
  }

  /** The rule in words, for refusals: `--allow-session agent-*,gpu:build`. */
  describe(): string {
    const parts: string[] = [];
    if (this.limitsSessions) parts.push(`--allow-session ${this.patterns.map((p) => p.text).join(',')}`);
    if (this.limitsPanes) parts.push('--allow-pane');
    return parts.join(' and ') || 'no scope';
  }
}

/** Sessions in scope of a listing (host: undefined for this machine). */
export function sessionsInScope<T extends { readonly name: string }>(scope: Scope, host: string | undefined, sessions: readonly T[]): T[] {
  return scope.limitsSessions ? sessions.filter((s) => scope.allowsSession(host, s.name)) : [...sessions];
}
