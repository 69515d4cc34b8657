/**
 * Targeting as the Python server does it: pane_id first (looked up server-wide); else window_id;
 * else a session (session_id, then session_name, then the first session), in which window_index
 * picks a window (else its first window), whose first pane is the pane. Ids are checked for shape
 * before tmux is asked. Named `targeted*`: core's `resolve*` read one id or ref, these a set of fields.
 */
import {
  checkSessionInScope,
  type Engine,
  getSession,
  getWindow,
  invalidArgument,
  listPaneDetails,
  listSessions,
  listWindows,
  notFound,
  PANE_ID,
  paneDetail,
  type PaneDetail,
  SESSION_ID,
  type SessionRecord,
  WINDOW_ID,
  type WindowRecord,
} from '../../core/index.js';

export interface SessionTarget {
  readonly session_id?: string | null;
  readonly session_name?: string | null;
}
export interface WindowTarget extends SessionTarget {
  readonly window_id?: string | null;
  readonly window_index?: string | null;
}
export interface PaneTarget extends WindowTarget {
  readonly pane_id?: string | null;
}

const DISCOVER = 'Call list_sessions / list_windows / list_panes to discover valid ids.';

export function checkId(value: string, shape: RegExp, field: string, example: string): string {
  if (!shape.test(value))
    throw invalidArgument(`${field} must be an id like ${example}, got ${JSON.stringify(value.slice(0, 64))}`, DISCOVER);
  return value;
}

/** Checks the shapes of every id given, before anything touches tmux. */
export function checkTarget(target: PaneTarget): void {
  if (target.pane_id != null) checkId(target.pane_id, PANE_ID, 'pane_id', '%3');
  if (target.window_id != null) checkId(target.window_id, WINDOW_ID, 'window_id', '@1');
  if (target.session_id != null) checkId(target.session_id, SESSION_ID, 'session_id', '$0');
  if (target.window_index != null && !/^\d{1,6}$/.test(target.window_index)) {
    throw invalidArgument(`window_index must be a window index like "0", got ${JSON.stringify(target.window_index.slice(0, 64))}`);
  }
}

export async function targetedSession(engine: Engine, target: SessionTarget): Promise<SessionRecord> {
  if (target.session_id != null) return getSession(engine, checkId(target.session_id, SESSION_ID, 'session_id', '$0'));
  const sessions = await listSessions(engine);
  if (target.session_name != null) {
    checkSessionInScope(engine, target.session_name);
    const session = sessions.find((s) => s.name === target.session_name);
    if (!session) {
      throw notFound(
        `Session not found: ${JSON.stringify(target.session_name.slice(0, 128))}`,
        sessions.length
          ? `Sessions here: ${sessions
              .slice(0, 12)
              .map((s) => JSON.stringify(s.name))
              .join(', ')}. ${DISCOVER}`
          : 'There are no sessions; create one with create_session.',
      );
    }
    return session;
  }
  const first = sessions[0];
  if (!first)
    throw notFound('No tmux sessions exist on this server', 'Create one with create_session, or pass socket_name for another tmux server.');
  return first;
}

export async function targetedWindow(engine: Engine, target: WindowTarget): Promise<WindowRecord> {
  if (target.window_id != null) return getWindow(engine, checkId(target.window_id, WINDOW_ID, 'window_id', '@1'));
  const session = await targetedSession(engine, target);
  const windows = await listWindows(engine, session.id);
  if (target.window_index != null) {
    const window = windows.find((w) => String(w.index) === target.window_index);
    if (!window)
      throw notFound(
        `Window not found: index ${target.window_index} in session ${JSON.stringify(session.name)}`,
        `Its windows: ${windows.map((w) => w.index).join(', ')}. ${DISCOVER}`,
      );
    return window;
  }
  const first = windows[0];
  if (!first) throw notFound(`Session ${JSON.stringify(session.name)} has no windows`, DISCOVER);
  return first;
}

export async function targetedPane(engine: Engine, target: PaneTarget): Promise<PaneDetail> {
  if (target.pane_id != null) return paneDetail(engine, checkId(target.pane_id, PANE_ID, 'pane_id', '%3'));
  const window = await targetedWindow(engine, target);
  const panes = await listPaneDetails(engine, { windowId: window.id });
  const first = panes[0];
  if (!first) throw notFound(`Window ${window.id} has no panes`, 'Call list_panes to discover valid pane ids.');
  return first;
}

/** Just the pane id: a given pane_id is used as is (the tmux command aimed at it refuses a missing pane). */
export async function targetedPaneId(engine: Engine, target: PaneTarget): Promise<string> {
  if (target.pane_id != null) return checkId(target.pane_id, PANE_ID, 'pane_id', '%3');
  return (await targetedPane(engine, target)).id;
}
