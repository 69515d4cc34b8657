/**
 * What a call names, as what exists now on this engine's tmux server: ids and refs checked for
 * form and for belonging to this server (a stale or foreign ref is refused), single objects read
 * by id, tmux's "can't find" reported as a missing object, session names checked against the scope.
 */
import { TmuxNoServerError } from '../../tmux/errors.js';
import type { RowFormat } from '../../tmux/formats.js';
import { PANE_ID, SESSION_ID, WINDOW_ID } from '../../tmux/ids.js';
import type { Engine } from '../engine.js';
import { asFailure, invalidArgument, notFound, refused, tmuxSaid, type Failure } from '../failure.js';
import { quoted } from '../quote.js';
import { listSessions, listWindows, ownClientNames, readWithIncarnation } from '../read/listings.js';
import {
  INPUT_PANE_FORMAT,
  PANE_ROW_FORMAT,
  SESSION_FORMAT,
  WINDOW_FORMAT,
  toInputPane,
  toPane,
  toSession,
  toWindow,
  type Incarnation,
  type InputPaneRecord,
  type PaneRecord,
  type SessionRecord,
  type WindowRecord,
} from '../read/records.js';
import { decodeRef, fingerprint, isRef, type RefKind } from './refs.js';
import { outside } from './scope-gate.js';

/** How tmux words an unknown target. */
const NOT_FOUND = /can't find|no such|not found/i;

/** Refuses a session name outside the scope, naming the rule (whether or not such a session exists). */
export function checkSessionInScope(engine: Engine, name: string): void {
  if (!engine.scope.allowsSession(engine.tmux.host, name))
    throw outside(engine.scope, `session ${quoted(name)} is outside this server's scope`);
}

export async function getPane(engine: Engine, paneId: string): Promise<PaneRecord> {
  return paneRow(engine, paneId, PANE_ROW_FORMAT, toPane);
}

/** What input checks read of a pane (a third of the row, tmux reading nothing from /proc). */
export async function getInputPane(engine: Engine, paneId: string): Promise<InputPaneRecord> {
  return paneRow(engine, paneId, INPUT_PANE_FORMAT, toInputPane);
}

async function paneRow<T>(
  engine: Engine,
  paneId: string,
  format: RowFormat<string>,
  convert: (row: Record<string, string>, incarnation: Incarnation) => T,
): Promise<T> {
  const read = await display(engine, paneId, format.format, 'pane');
  const row = format.parse(read.lines)[0];
  return convert(row?.id === paneId ? row : missing('pane', paneId), read.incarnation);
}

export async function getWindow(engine: Engine, windowId: string): Promise<WindowRecord> {
  const read = await display(engine, windowId, WINDOW_FORMAT.format, 'window');
  const row = WINDOW_FORMAT.parse(read.lines)[0];
  return toWindow(row?.id === windowId ? row : missing('window', windowId), read.incarnation);
}

export async function getSession(engine: Engine, sessionId: string): Promise<SessionRecord> {
  const read = await display(engine, sessionId, SESSION_FORMAT.format, 'session');
  const row = SESSION_FORMAT.parse(read.lines)[0];
  return toSession(row?.id === sessionId ? row : missing('session', sessionId), read.incarnation, ownClientNames(engine));
}

/** One row about `target`; tmux answers an unknown target with an error or with empty fields. */
async function display(
  engine: Engine,
  target: string,
  format: string,
  kind: RefKind,
): Promise<{ lines: string[]; incarnation: Incarnation }> {
  return onTarget(engine, kind, target, async () => {
    const read = await readWithIncarnation(engine, ['display-message', '-p', '-t', target, format]);
    if (!read) throw asFailure(new TmuxNoServerError(engine.tmux.socketLabel));
    return read;
  });
}

/** Runs `work` (tmux commands aimed at `target`), reporting tmux's "can't find" as a missing object. */
async function onTarget<T>(engine: Engine, kind: RefKind, target: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (tmuxSaid(error, NOT_FOUND)) missing(kind, target);
    throw error;
  }
}

/** A pane id (`%3`) or pane ref, as the id of a pane that exists now. */
export async function resolvePane(engine: Engine, input: string, field = 'paneId'): Promise<PaneRecord> {
  return getPane(engine, await paneIdFrom(engine, input, field));
}

/** Like resolvePane, with only what an input check needs (getInputPane). */
export async function resolveInputPane(engine: Engine, input: string, field = 'paneId'): Promise<InputPaneRecord> {
  return getInputPane(engine, await paneIdFrom(engine, input, field));
}

/**
 * Like resolvePane, for callers that need only the id: tmux expands one field, not a whole row.
 * For commands that answer a missing target with empty output (display-message) instead of an error.
 */
export async function resolvePaneId(engine: Engine, input: string, field = 'paneId'): Promise<string> {
  const paneId = await paneIdFrom(engine, input, field);
  const read = await display(engine, paneId, '#{pane_id}', 'pane');
  if (read.lines[0] !== paneId) missing('pane', paneId);
  return paneId;
}

/**
 * A pane id (`%3`) or pane ref as a pane id, checked for form and, for a ref, for belonging to
 * this tmux server; not for the pane still existing. For a command aimed at the pane itself,
 * which tmux refuses for a missing pane anyway: run it through `onPane` for the usual error.
 */
export async function paneIdFrom(engine: Engine, input: string, field = 'paneId'): Promise<string> {
  return resolveId(engine, input, 'pane', PANE_ID, field, 'a pane id like %3');
}

/** Runs `work` (tmux commands aimed at `paneId`), reporting tmux's "can't find pane" as a missing pane. */
export async function onPane<T>(engine: Engine, paneId: string, work: () => Promise<T>): Promise<T> {
  return onTarget(engine, 'pane', paneId, work);
}

/** A window id (`@1`), window ref or window-link ref, as the window record. */
export async function resolveWindow(engine: Engine, input: string, field = 'windowId'): Promise<WindowRecord> {
  if (isRef(input)) {
    const ref = await checkRef(engine, input, field);
    if (ref.kind === 'link') {
      const [sessionId, windowId] = ref.subject.split(':');
      const windows = await listWindows(engine, sessionId);
      const link = windows.find((w) => w.id === windowId);
      if (!link) missing('window', ref.subject);
      return link!;
    }
    if (ref.kind !== 'window') throw wrongRef(field, ref.kind, 'window');
    return getWindow(engine, ref.subject);
  }
  if (!WINDOW_ID.test(input)) throw invalidArgument(`${field} must be a window id like @1 or a window ref, got ${quoted(input)}`);
  return getWindow(engine, input);
}

/** A session id (`$0`), session ref, or exact session name. */
export async function resolveSession(engine: Engine, input: string, field = 'session'): Promise<SessionRecord> {
  if (isRef(input)) {
    const ref = await checkRef(engine, input, field);
    if (ref.kind !== 'session') throw wrongRef(field, ref.kind, 'session');
    return getSession(engine, ref.subject);
  }
  if (SESSION_ID.test(input)) return getSession(engine, input);
  if (input === '') throw invalidArgument(`${field} must not be empty`);
  checkSessionInScope(engine, input);
  const sessions = await listSessions(engine);
  const byName = sessions.find((s) => s.name === input);
  if (!byName) {
    throw notFound(
      `no session named ${quoted(input)}`,
      sessions.length
        ? `Sessions: ${sessions
            .slice(0, 12)
            .map((s) => `${s.id} ${quoted(s.name)}`)
            .join(', ')}.`
        : 'There are no sessions; create one with create_session.',
    );
  }
  return byName;
}

async function resolveId(engine: Engine, input: string, kind: RefKind, idPattern: RegExp, field: string, example: string): Promise<string> {
  if (isRef(input)) {
    const ref = await checkRef(engine, input, field);
    if (ref.kind !== kind) throw wrongRef(field, ref.kind, kind);
    return ref.subject;
  }
  if (!idPattern.test(input)) throw invalidArgument(`${field} must be ${example} or a ${kind} ref, got ${quoted(input)}`);
  return input;
}

async function checkRef(engine: Engine, input: string, field: string) {
  const ref = decodeRef(input);
  if (!ref) throw invalidArgument(`${field} is not a ref this server issued: ${quoted(input)}`);
  if (ref.host !== engine.tmux.host) {
    // Routing sends a ref to its own host; one that still lands elsewhere must not act there.
    throw refused(
      `the ${ref.kind} reference belongs to ${ref.host === undefined ? 'the local tmux' : `host ${ref.host}`}, not to ${engine.tmux.host === undefined ? 'the local tmux' : `host ${engine.tmux.host}`}`,
      'Pass refs back unchanged to the tool that takes them; each one goes to its own host.',
    );
  }
  const identity = await engine.requireIdentity();
  if (ref.fingerprint !== fingerprint(identity)) {
    throw refused(
      `the ${ref.kind} reference is stale: it belongs to an earlier tmux server on this socket`,
      `Call ${ref.kind === 'session' ? 'list_sessions' : ref.kind === 'pane' ? 'list_panes' : 'list_windows'} again for current refs.`,
    );
  }
  return ref;
}

function missing(kind: RefKind, target: string): never {
  const list = kind === 'session' ? 'list_sessions' : kind === 'pane' ? 'list_panes' : 'list_windows';
  throw notFound(`no ${kind === 'link' ? 'window' : kind} ${target} on this tmux server`, `Call ${list} to see what exists now.`);
}

function wrongRef(field: string, got: RefKind, want: RefKind): Failure {
  return invalidArgument(`${field} needs a ${want} ref, but this is a ${got} ref`);
}
