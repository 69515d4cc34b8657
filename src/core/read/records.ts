/**
 * Profile-neutral records of tmux objects, read with nonce-delimited row formats. Every record also
 * carries the incarnation (socket path, pid, start time) of the server that listed it, so a reference
 * built from it can later be told apart from an object that merely reuses the id on a restarted server.
 */
import { rowFormat, toBool, toInt, type RowFormat } from '../../tmux/formats.js';

export interface Incarnation {
  /** The configured host the server runs on; undefined for this machine. */
  readonly host?: string;
  readonly socketPath: string;
  readonly pid: number;
  readonly startTime: number;
}

export interface SessionRecord {
  readonly incarnation: Incarnation;
  readonly id: string;
  readonly name: string;
  readonly windowCount: number;
  /** Clients attached that are people (or other programs), not this server's own control clients. */
  readonly foreignClients: number;
  /** Seconds since the epoch. */
  readonly created: number;
  readonly activePaneId: string;
  readonly activeWindowId: string;
}

export const SESSION_FORMAT = rowFormat({
  id: 'session_id',
  name: 'session_name',
  windows: 'session_windows',
  // tmux names a client by its terminal, or `client-PID` without one (control clients: this server's own).
  clients: 'session_attached_list',
  created: 'session_created',
  activePane: 'pane_id',
  activeWindow: 'window_id',
});

/** `own`: the names tmux gives this server's own clients (listings.ts ownClientNames). */
export function toSession(row: Record<string, string>, incarnation: Incarnation, own: ReadonlySet<string>): SessionRecord {
  return {
    incarnation,
    id: row.id!,
    name: row.name!,
    windowCount: toInt(row.windows!),
    foreignClients: row.clients ? row.clients.split(',').filter((name) => !own.has(name)).length : 0,
    created: toInt(row.created!),
    activePaneId: row.activePane!,
    activeWindowId: row.activeWindow!,
  };
}

/** A window as linked into one session at one index (a window linked twice has two). */
export interface WindowRecord {
  readonly incarnation: Incarnation;
  readonly id: string;
  readonly index: number;
  readonly name: string;
  readonly sessionId: string;
  readonly sessionName: string;
  readonly isActive: boolean;
  readonly paneCount: number;
  readonly width: number;
  readonly height: number;
  readonly layout: string;
  readonly zoomed: boolean;
  readonly activePaneId: string;
  readonly synchronized: boolean;
}

export const WINDOW_FORMAT = rowFormat({
  id: 'window_id',
  index: 'window_index',
  name: 'window_name',
  sessionId: 'session_id',
  sessionName: 'session_name',
  active: 'window_active',
  panes: 'window_panes',
  width: 'window_width',
  height: 'window_height',
  layout: 'window_layout',
  zoomed: 'window_zoomed_flag',
  activePane: 'pane_id',
  synchronized: '#{?synchronize-panes,1,0}',
});

export function toWindow(row: Record<string, string>, incarnation: Incarnation): WindowRecord {
  return {
    incarnation,
    id: row.id!,
    index: toInt(row.index!),
    name: row.name!,
    sessionId: row.sessionId!,
    sessionName: row.sessionName!,
    isActive: toBool(row.active!),
    paneCount: toInt(row.panes!),
    width: toInt(row.width!),
    height: toInt(row.height!),
    layout: row.layout!,
    zoomed: toBool(row.zoomed!),
    activePaneId: row.activePane!,
    synchronized: toBool(row.synchronized!),
  };
}

export interface PaneRecord {
  readonly incarnation: Incarnation;
  readonly id: string;
  readonly index: number;
  readonly sessionId: string;
  readonly windowId: string;
  readonly isActive: boolean;
  readonly width: number;
  readonly height: number;
  readonly isAtTop: boolean;
  readonly isAtBottom: boolean;
  readonly isAtLeft: boolean;
  readonly isAtRight: boolean;
  readonly currentCommand: string;
  readonly currentPath: string;
  /** The pane's process id, 0 when tmux does not know it. */
  readonly pid: number;
  readonly title: string;
  readonly isDead: boolean;
  readonly deadStatus: number | null;
  /** How many modes (copy mode and the like) are stacked on the pane; 0 when it shows its program. */
  readonly modeCount: number;
  readonly isSynchronized: boolean;
}

/**
 * A pane without the state an input check reads (exit status, stacked modes, synchronize): where it
 * is, what it runs, and whether it is dead. What layout-minded answers (pane-details.ts) carry.
 */
export type PaneLayout = Omit<PaneRecord, 'deadStatus' | 'modeCount' | 'isSynchronized'>;

/** The tmux format of each pane field, for formats that read more than a PaneRecord (see pane-details.ts). */
export const PANE_FIELDS = {
  id: 'pane_id',
  index: 'pane_index',
  sessionId: 'session_id',
  windowId: 'window_id',
  active: 'pane_active',
  width: 'pane_width',
  height: 'pane_height',
  atTop: 'pane_at_top',
  atBottom: 'pane_at_bottom',
  atLeft: 'pane_at_left',
  atRight: 'pane_at_right',
  command: 'pane_current_command',
  path: 'pane_current_path',
  pid: 'pane_pid',
  title: 'pane_title',
  dead: 'pane_dead',
  deadStatus: 'pane_dead_status',
  inMode: 'pane_in_mode',
  synchronized: 'pane_synchronized',
} as const;

/** The fields of a PaneLayout: three fewer for tmux to expand on every pane. */
const { deadStatus: _deadStatus, inMode: _inMode, synchronized: _synchronized, ...LAYOUT_FIELDS } = PANE_FIELDS;
export const PANE_LAYOUT_FIELDS = LAYOUT_FIELDS;

/** What an input check needs to know of a pane (core/input.ts); a PaneRecord is one too. */
export type InputPaneRecord = Pick<
  PaneRecord,
  'incarnation' | 'id' | 'sessionId' | 'windowId' | 'isDead' | 'deadStatus' | 'modeCount' | 'isSynchronized'
>;

/**
 * The fields of an InputPaneRecord alone: a check before typing reads 7 fields instead of 19, none
 * of them the two that tmux reads from /proc.
 */
export const INPUT_PANE_FORMAT = rowFormat({
  id: PANE_FIELDS.id,
  sessionId: PANE_FIELDS.sessionId,
  windowId: PANE_FIELDS.windowId,
  dead: PANE_FIELDS.dead,
  deadStatus: PANE_FIELDS.deadStatus,
  inMode: PANE_FIELDS.inMode,
  synchronized: PANE_FIELDS.synchronized,
});

export function toInputPane(row: Record<string, string>, incarnation: Incarnation): InputPaneRecord {
  return {
    incarnation,
    id: row.id!,
    sessionId: row.sessionId!,
    windowId: row.windowId!,
    isDead: toBool(row.dead!),
    deadStatus: deadStatus(row.deadStatus!),
    modeCount: toInt(row.inMode!),
    isSynchronized: toBool(row.synchronized!),
  };
}

const deadStatus = (value: string): number | null => (value === '' ? null : toInt(value));

export type PaneField = keyof typeof PANE_FIELDS;
/** What every pane row carries, whatever its base: the engine's listing tells panes apart by it. */
export type RowCore = 'id';

/**
 * A pane row's format, with extra fields beside the base's: every PaneRecord field (the default) or a
 * PaneLayout's (PANE_LAYOUT_FIELDS).
 */
export type PaneRowFormat<K extends string = never, B extends PaneField = PaneField> = RowFormat<B | RowCore | K>;

export function paneRowFormat<K extends string, B extends PaneField = PaneField>(
  extra: Readonly<Record<K, string>>,
  base: Readonly<Record<B | RowCore, string>> = PANE_FIELDS,
): PaneRowFormat<K, B> {
  return rowFormat({ ...base, ...extra } as Record<B | RowCore | K, string>);
}

/** A PaneRecord's own fields and nothing else (listPanes). */
export const PANE_ROW_FORMAT: PaneRowFormat = paneRowFormat<never>({});

// Hot path: written out rather than spread from toInputPane, which V8 builds far more slowly.
export function toPaneLayout(row: Record<string, string>, incarnation: Incarnation): PaneLayout {
  return {
    incarnation,
    id: row.id!,
    index: toInt(row.index!),
    sessionId: row.sessionId!,
    windowId: row.windowId!,
    isActive: toBool(row.active!),
    width: toInt(row.width!),
    height: toInt(row.height!),
    isAtTop: toBool(row.atTop!),
    isAtBottom: toBool(row.atBottom!),
    isAtLeft: toBool(row.atLeft!),
    isAtRight: toBool(row.atRight!),
    currentCommand: row.command!,
    currentPath: row.path!,
    pid: toInt(row.pid!),
    title: row.title!,
    isDead: toBool(row.dead!),
  };
}

export function toPane(row: Record<string, string>, incarnation: Incarnation): PaneRecord {
  // Completed in place, not spread (see above).
  const pane = toPaneLayout(row, incarnation) as Writable<PaneRecord>;
  pane.deadStatus = deadStatus(row.deadStatus!);
  pane.modeCount = toInt(row.inMode!);
  pane.isSynchronized = toBool(row.synchronized!);
  return pane;
}

/** A record being completed field by field before it is handed out read-only. */
export type Writable<T> = { -readonly [K in keyof T]: T[K] };
