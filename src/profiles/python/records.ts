/**
 * The Python server's result models (SessionInfo, WindowInfo, PaneInfo, ServerInfo): their
 * schemas and the functions that build them from core records. Numbers tmux prints as text
 * (indexes, sizes, pids, flags) stay strings, as that server sends them.
 */
import { type Engine, isCallerPane, type PaneDetail, type SessionRecord, type WindowRecord } from '../../core/index.js';
import type { JsonSchema } from '../../mcp/tools/schema.js';
import { field, model, optional } from './schema.js';

export const sessionSchema: JsonSchema = model(
  {
    active_pane_id: optional('string', "The pane that has focus in the session's current window."),
    session_attached: optional(
      'string',
      'How many terminal clients are attached ("0" when nobody is watching; this server\'s own connections are not counted).',
    ),
    session_created: optional('string', 'Creation time, seconds since the Unix epoch, as text.'),
    session_id: field('string', 'Session id like "$0": stable while the tmux server runs.'),
    session_name: optional('string', 'Session name.'),
    window_count: field('integer', 'Number of windows in the session.'),
  },
  ['session_id', 'window_count'],
);

export const windowSchema: JsonSchema = model(
  {
    active_pane_id: optional('string', 'The pane that has focus in this window.'),
    pane_count: field('integer', 'Number of panes in the window.'),
    session_id: optional(
      'string',
      'Session the window belongs to (for a window linked into several sessions, the one it was read through).',
    ),
    session_name: optional('string', 'Name of that session.'),
    window_active: optional('string', '"1" when it is the session\'s current window, else "0".'),
    window_height: optional('string', 'Height in cells, as text.'),
    window_id: field('string', 'Window id like "@1".'),
    window_index: optional('string', 'Index of the window in its session, as text.'),
    window_layout: optional('string', 'tmux layout string of the window (can be passed to select_layout to restore it).'),
    window_name: optional('string', 'Window name.'),
    window_width: optional('string', 'Width in cells, as text.'),
  },
  ['window_id', 'pane_count'],
);

export const paneSchema: JsonSchema = model(
  {
    is_caller: optional(
      'boolean',
      'True for the pane this MCP server itself runs in (do not type into it or kill it); null when the server does not run inside tmux.',
    ),
    pane_active: optional('string', '"1" for the active pane of its window, else "0".'),
    pane_at_bottom: optional('boolean', 'Touches the bottom edge of the window.'),
    pane_at_left: optional('boolean', 'Touches the left edge of the window.'),
    pane_at_right: optional('boolean', 'Touches the right edge of the window.'),
    pane_at_top: optional('boolean', 'Touches the top edge of the window.'),
    pane_bottom: optional('integer', "Row of the pane's bottom edge in the window, in cells from 0."),
    pane_current_command: optional('string', 'Program in the foreground of the pane, e.g. bash, vim, python3.'),
    pane_current_path: optional('string', 'Working directory of that program.'),
    pane_height: optional('string', 'Height in cells, as text.'),
    pane_id: field('string', 'Pane id like "%3": the handle for capture, send and wait tools.'),
    pane_index: optional('string', 'Index of the pane in its window, as text.'),
    pane_left: optional('integer', "Column of the pane's left edge in the window, in cells from 0."),
    pane_pid: optional('string', 'Process id of the program the pane started (usually its shell), as text.'),
    pane_right: optional('integer', "Column of the pane's right edge in the window, in cells from 0."),
    pane_title: optional('string', 'Pane title (set_pane_title, or what the program sets).'),
    pane_top: optional('integer', "Row of the pane's top edge in the window, in cells from 0."),
    pane_tty: optional('string', "The pane's terminal device, e.g. /dev/pts/3."),
    pane_width: optional('string', 'Width in cells, as text.'),
    session_id: optional('string', 'Session the pane is in.'),
    window_id: optional('string', 'Window the pane is in.'),
  },
  ['pane_id'],
);

export const serverSchema: JsonSchema = model(
  {
    is_alive: field('boolean', 'True when a tmux server answers on this socket.'),
    session_count: field('integer', 'Number of sessions on it (0 when it is not running).'),
    socket_name: optional('string', 'The socket name (tmux -L), when it was addressed by name.'),
    socket_path: optional('string', 'Full path of the socket.'),
    version: optional('string', 'tmux version of the server, e.g. "3.4"; null when not running.'),
  },
  ['is_alive', 'session_count'],
);

export function sessionWire(session: SessionRecord) {
  return {
    session_id: session.id,
    session_name: session.name,
    window_count: session.windowCount,
    session_attached: String(session.foreignClients),
    session_created: String(session.created),
    active_pane_id: session.activePaneId || null,
  };
}

export function windowWire(window: WindowRecord) {
  return {
    window_id: window.id,
    window_name: window.name,
    window_index: String(window.index),
    session_id: window.sessionId,
    session_name: window.sessionName,
    pane_count: window.paneCount,
    window_layout: window.layout,
    window_active: window.isActive ? '1' : '0',
    window_width: String(window.width),
    window_height: String(window.height),
    active_pane_id: window.activePaneId || null,
  };
}

export async function paneWire(engine: Engine, pane: PaneDetail) {
  // No caller pane (this server does not run in tmux): no check to await, on the path of every pane read.
  return paneRow(pane, engine.options.caller ? (await callerTest(engine))(pane.id) : null);
}

/** Rows of several panes: the caller check is made once for all of them. */
export async function paneWires(engine: Engine, panes: readonly PaneDetail[]) {
  const isCaller = await callerTest(engine);
  return panes.map((pane) => paneRow(pane, isCaller(pane.id)));
}

/** is_caller for a pane id: null when this server does not run in a tmux pane. */
async function callerTest(engine: Engine): Promise<(paneId: string) => boolean | null> {
  const caller = engine.options.caller;
  if (!caller) return () => null;
  const here = await isCallerPane(engine, caller.paneId);
  return (paneId) => here && paneId === caller.paneId;
}

// Every field written out: V8 defines the properties after a spread in a literal through its slow runtime path.
function paneRow(pane: PaneDetail, isCaller: boolean | null) {
  return {
    pane_id: pane.id,
    pane_index: String(pane.index),
    pane_width: String(pane.width),
    pane_height: String(pane.height),
    pane_left: pane.left,
    pane_top: pane.top,
    pane_right: pane.right,
    pane_bottom: pane.bottom,
    pane_at_left: pane.isAtLeft,
    pane_at_right: pane.isAtRight,
    pane_at_top: pane.isAtTop,
    pane_at_bottom: pane.isAtBottom,
    pane_tty: pane.tty,
    pane_current_command: pane.currentCommand,
    pane_current_path: pane.currentPath,
    pane_pid: String(pane.pid),
    pane_title: pane.title,
    pane_active: pane.isActive ? '1' : '0',
    window_id: pane.windowId,
    session_id: pane.sessionId,
    is_caller: isCaller,
  };
}
