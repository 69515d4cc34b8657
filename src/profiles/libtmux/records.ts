/**
 * The wire records of the libtmux contract (session, window, window link, pane, capture): their
 * schemas and the functions that build them from core records. Field names are the contract's.
 */
import { array, boolean, integer, object, string } from '../../mcp/tools/schema.js';
import { encodeRef, type Engine, type PaneRecord, type SessionRecord, type WindowRecord } from '../../core/index.js';

const ref = (what: string) =>
  string({ description: `Opaque ${what} reference, valid until the tmux server restarts; accepted wherever an id is.` });

export const sessionSchema = object(
  {
    ref: ref('session'),
    id: string({ description: 'tmux session id, like $0.' }),
    name: string({ description: 'Session name.' }),
    windowCount: integer({ description: 'Number of windows in the session.' }),
    isAttached: boolean({ description: 'True when a terminal client (not this server) is attached, i.e. a person may be watching.' }),
    createdAt: integer({ description: 'Creation time, seconds since the Unix epoch.' }),
  },
  ['createdAt', 'id', 'isAttached', 'name', 'ref', 'windowCount'],
);

export const windowSchema = object(
  {
    ref: ref('window'),
    id: string({ description: 'tmux window id, like @1.' }),
    name: string({ description: 'Window name.' }),
    paneCount: integer({ description: 'Number of panes in the window.' }),
    width: integer({ description: 'Width in cells.' }),
    height: integer({ description: 'Height in cells.' }),
  },
  ['height', 'id', 'name', 'paneCount', 'ref', 'width'],
);

export const windowLinkSchema = object(
  {
    ref: ref('window link'),
    sessionID: string({ description: 'Session the window is linked into.' }),
    windowID: string({ description: 'The window id.' }),
    index: integer({ description: 'Window index in that session.' }),
    isActive: boolean({ description: 'True when it is the current window of that session.' }),
    target: string({ description: 'tmux target for this placement, session:index.' }),
  },
  ['index', 'isActive', 'ref', 'sessionID', 'target', 'windowID'],
);

export const windowOccurrenceSchema = object(
  {
    windowRef: ref('window'),
    linkRef: ref('window link'),
    id: string({ description: 'tmux window id, like @1.' }),
    name: string({ description: 'Window name.' }),
    paneCount: integer({ description: 'Number of panes.' }),
    width: integer({ description: 'Width in cells.' }),
    height: integer({ description: 'Height in cells.' }),
    sessionID: string({ description: 'Session this placement belongs to.' }),
    index: integer({ description: 'Window index in that session.' }),
    isActive: boolean({ description: 'True when it is the current window of that session.' }),
    target: string({ description: 'tmux target for this placement, session:index.' }),
  },
  ['height', 'id', 'index', 'isActive', 'linkRef', 'name', 'paneCount', 'sessionID', 'target', 'width', 'windowRef'],
);

export const paneSchema = object(
  {
    ref: ref('pane'),
    id: string({ description: 'tmux pane id, like %3: the handle for capture, send and wait tools.' }),
    index: integer({ description: 'Pane index within its window.' }),
    width: integer({ description: 'Width in cells.' }),
    height: integer({ description: 'Height in cells.' }),
    isActive: boolean({ description: 'True for the active pane of its window.' }),
    currentCommand: string({ description: 'Program in the foreground of the pane, e.g. bash, vim, python3.' }),
    isDead: boolean({ description: 'True when the pane program has exited and the pane stays (remain-on-exit).' }),
    modeCount: integer({ description: 'Modes stacked on the pane (copy mode etc.); 0 means it shows its program.' }),
    isSynchronized: boolean({ description: 'True when input typed here is also sent to the other panes of the window.' }),
    currentPath: string({ description: 'Working directory of the foreground program.' }),
    isAtTop: boolean({ description: 'Touches the top edge of the window.' }),
    isAtBottom: boolean({ description: 'Touches the bottom edge of the window.' }),
    isAtLeft: boolean({ description: 'Touches the left edge of the window.' }),
    isAtRight: boolean({ description: 'Touches the right edge of the window.' }),
    windowID: string({ description: 'Window holding the pane.' }),
  },
  [
    'currentCommand',
    'currentPath',
    'height',
    'id',
    'index',
    'isActive',
    'isAtBottom',
    'isAtLeft',
    'isAtRight',
    'isAtTop',
    'isDead',
    'isSynchronized',
    'modeCount',
    'ref',
    'width',
    'windowID',
  ],
);

export const captureSchema = object(
  {
    paneId: string({ description: 'The pane captured.' }),
    lines: array(string(), { description: 'Captured rows, oldest first, trailing blank rows removed.' }),
    droppedLines: integer({ description: 'Older rows left out to stay within maxLines and the byte budget.' }),
  },
  ['droppedLines', 'lines', 'paneId'],
);

export function sessionWire(engine: Engine, session: SessionRecord) {
  return {
    ref: encodeRef('session', session.id, session.incarnation),
    id: session.id,
    name: session.name,
    windowCount: session.windowCount,
    isAttached: session.foreignClients > 0,
    createdAt: session.created,
  };
}

export function windowWire(engine: Engine, window: WindowRecord) {
  return {
    ref: encodeRef('window', window.id, window.incarnation),
    id: window.id,
    name: window.name,
    paneCount: window.paneCount,
    width: window.width,
    height: window.height,
  };
}

export function windowLinkWire(engine: Engine, window: WindowRecord) {
  return {
    ref: encodeRef('link', `${window.sessionId}:${window.id}`, window.incarnation),
    sessionID: window.sessionId,
    windowID: window.id,
    index: window.index,
    isActive: window.isActive,
    target: `${window.sessionId}:${window.index}`,
  };
}

export function windowOccurrenceWire(engine: Engine, window: WindowRecord) {
  const link = windowLinkWire(engine, window);
  const { ref: windowRef, ...rest } = windowWire(engine, window);
  return {
    windowRef,
    linkRef: link.ref,
    ...rest,
    sessionID: link.sessionID,
    index: link.index,
    isActive: link.isActive,
    target: link.target,
  };
}

export function paneWire(engine: Engine, pane: PaneRecord) {
  return {
    ref: encodeRef('pane', pane.id, pane.incarnation),
    id: pane.id,
    index: pane.index,
    width: pane.width,
    height: pane.height,
    isActive: pane.isActive,
    currentCommand: pane.currentCommand,
    isDead: pane.isDead,
    modeCount: pane.modeCount,
    isSynchronized: pane.isSynchronized,
    currentPath: pane.currentPath,
    isAtTop: pane.isAtTop,
    isAtBottom: pane.isAtBottom,
    isAtLeft: pane.isAtLeft,
    isAtRight: pane.isAtRight,
    windowID: pane.windowId,
  };
}
