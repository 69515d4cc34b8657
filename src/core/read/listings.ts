/**
 * Listing a tmux server's sessions, windows and panes as records that carry the incarnation of the
 * server that answered, filtered by the scope rule. tmux is asked every time.
 */
import { TmuxConnectionLostError } from '../../tmux/errors.js';
import type { Engine } from '../engine.js';
import { asFailure } from '../failure.js';
import {
  PANE_ROW_FORMAT,
  SESSION_FORMAT,
  type PaneRowFormat,
  WINDOW_FORMAT,
  toPane,
  toSession,
  toWindow,
  type Incarnation,
  type PaneRecord,
  type PaneField,
  type RowCore,
  type SessionRecord,
  type WindowRecord,
} from './records.js';

export async function listSessions(engine: Engine): Promise<SessionRecord[]> {
  const read = await readWithIncarnation(engine, ['list-sessions', '-F', SESSION_FORMAT.format]);
  const own = read && ownClientNames(engine);
  const sessions = read ? SESSION_FORMAT.parse(read.lines).map((row) => toSession(row, read.incarnation, own!)) : [];
  return engine.scope.limitsSessions ? sessions.filter((s) => engine.scope.allowsSession(engine.tmux.host, s.name)) : sessions;
}

/**
 * Runs a read and pairs its output with the incarnation of the tmux server that answered it, or
 * answers undefined when no server runs. Rows do not spell the identity out (three more format
 * fields per row for tmux): the identity cached for the control connection
 * holds when that connection stayed the same across the read; otherwise it is read again after
 * the read and must be unchanged (a server between two equal identities is that same server).
 */
export async function readWithIncarnation(
  engine: Engine,
  command: readonly string[],
): Promise<{ lines: string[]; incarnation: Incarnation } | undefined> {
  for (let attempt = 0; ; attempt++) {
    const before = await engine.identity();
    if (!before) return undefined;
    const epoch = engine.tmux.connectionEpoch;
    const lines = await engine.runIfServer(command);
    if (!lines) return undefined;
    const incarnation = {
      ...(before.host !== undefined ? { host: before.host } : {}),
      socketPath: before.socketPath,
      pid: before.pid,
      startTime: before.startTime,
    };
    if (epoch !== 0 && epoch === engine.tmux.connectionEpoch) return { lines, incarnation };
    const after = await engine.identity();
    if (after && after.pid === before.pid && after.startTime === before.startTime) return { lines, incarnation };
    if (attempt > 0) throw asFailure(new TmuxConnectionLostError('the tmux server restarted while it was being read; try again'));
  }
}

/** The names tmux gives this server's own clients (`client-PID`: they have no terminal), told apart now, as they come and go. */
export function ownClientNames(engine: Engine): Set<string> {
  return new Set([...engine.tmux.ownClientPids()].map((pid) => `client-${pid}`));
}

/** Window links, in every session or in one (`sessionId` must be resolved first). */
export async function listWindows(engine: Engine, sessionId?: string): Promise<WindowRecord[]> {
  const command = sessionId === undefined ? ['list-windows', '-a'] : ['list-windows', '-t', sessionId];
  const read = await readWithIncarnation(engine, [...command, '-F', WINDOW_FORMAT.format]);
  const windows = read ? WINDOW_FORMAT.parse(read.lines).map((row) => toWindow(row, read.incarnation)) : [];
  if (!engine.scope.limitsSessions) return windows;
  const { windows: outside } = await placesOutside(engine);
  return windows.filter((w) => !outside.has(w.id));
}

/**
 * Panes of the whole server, of one session, or of one window. A pane whose window is linked into
 * several sessions appears once, as seen from the first session tmux lists.
 */
export async function listPanes(engine: Engine, scope: { sessionId?: string; windowId?: string } = {}): Promise<PaneRecord[]> {
  const read = await listPaneRows(engine, scope, PANE_ROW_FORMAT);
  return read ? read.rows.map((row) => toPane(row, read.incarnation)) : [];
}

/**
 * The rows behind listPanes, with the extra fields `format` adds (paneRowFormat), each pane
 * once, or with `everyLink` once per place its window is linked (tmux's order: by session, then
 * window index; session and window fields then differ between a pane's rows); undefined when no
 * server runs.
 */
export async function listPaneRows<K extends string, B extends PaneField = PaneField>(
  engine: Engine,
  scope: { sessionId?: string; windowId?: string },
  format: PaneRowFormat<K, B>,
  options: { readonly everyLink?: boolean } = {},
): Promise<{ rows: Array<Record<B | RowCore | K, string>>; incarnation: Incarnation } | undefined> {
  const read = await readWithIncarnation(engine, [...listPanesCommand(scope), '-F', format.format]);
  if (!read) return undefined;
  const all = format.parse(read.lines);
  const seen = new Set<string>();
  const rows = options.everyLink ? all : all.filter((row) => !seen.has(row.id) && seen.add(row.id));
  return { rows: engine.scope.active ? await inScope(engine, rows) : rows, incarnation: read.incarnation };
}

/**
 * The pane rows (`id`: a pane id) that are in scope: panes of windows linked only into allowed
 * sessions, and admitted by the pane rule when there is one. Every row when no scope is set.
 * Listings and searches filter through here; so can anything else that shows panes.
 */
export async function inScope<T extends { readonly id: string }>(engine: Engine, rows: readonly T[]): Promise<T[]> {
  if (!engine.scope.active) return [...rows];
  const { outside } = await placesOutside(engine);
  return rows.filter((row) => !outside.has(row.id));
}

/** Whether one pane is in scope now (its window linked only into allowed sessions, the pane rule admitting it). */
export async function paneInScope(engine: Engine, paneId: string): Promise<boolean> {
  return (await inScope(engine, [{ id: paneId }])).length === 1;
}

/**
 * Panes out of scope (windows linked into a session not allowed, or not admitted by the pane
 * rule), and the windows linked into a session not allowed.
 */
async function placesOutside(engine: Engine): Promise<{ outside: Set<string>; windows: Set<string> }> {
  const outside = new Set<string>();
  const windows = new Set<string>();
  const lines = await engine.runIfServer(['list-panes', '-a', '-F', '#{pane_id}\t#{window_id}\t#{session_id}\t#{session_name}'], {
    ungated: true,
  });
  const host = engine.tmux.host;
  const sessionsOf = new Map<string, string[]>();
  const rows = (lines ?? []).map((line) => {
    const [pane = '', window = '', sessionId = '', ...name] = line.split('\t');
    sessionsOf.set(window, [...(sessionsOf.get(window) ?? []), sessionId]);
    return { pane, window, name: name.join('\t') };
  });
  for (const row of rows) {
    if (!engine.scope.allowsSession(host, row.name)) {
      windows.add(row.window);
      outside.add(row.pane);
    } else if (engine.scope.limitsPanes && !engine.scope.allowsPane(host, row.pane, [], sessionsOf.get(row.window) ?? []))
      outside.add(row.pane);
  }
  return { outside, windows };
}

/** `list-panes` for the whole server, one session, or one window (give a format after it). */
export function listPanesCommand(scope: { sessionId?: string; windowId?: string }): string[] {
  if (scope.windowId !== undefined) return ['list-panes', '-t', scope.windowId];
  if (scope.sessionId !== undefined) return ['list-panes', '-s', '-t', scope.sessionId];
  return ['list-panes', '-a'];
}
