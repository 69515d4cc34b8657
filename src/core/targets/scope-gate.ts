/**
 * The scope rule applied to each tmux command before it is sent: every session, window and pane a
 * command names (read through the running tmux's own argument table, src/tmux/command-syntax.ts) is looked up
 * in tmux's current state and must be in scope; server-wide commands are refused while sessions
 * are limited; and no move, swap, join, break or link may take the caller's pane or window.
 * One check under every profile and tool, so no tool can forget it and no sequence of calls walks
 * around it: pane ids are stable across moves, and each check reads where things are now.
 */
import { commandTable, type CommandTable, type ParsedCommand, type TargetKind } from '../../tmux/command-syntax.js';
import type { TmuxServer } from '../../tmux/server.js';
import { failedAs, Failure, refused } from '../failure.js';
import { LOCAL_HOST } from '../servers/host-config.js';
import { quoted } from '../quote.js';
import type { Scope } from './scope.js';

/** Commands that move a pane or window somewhere else, or swap two: never with the caller's. */
const MOVES = new Set(['swap-pane', 'swap-window', 'move-window', 'link-window', 'unlink-window', 'join-pane', 'move-pane', 'break-pane']);

/**
 * Where a window is put (`-t` of move-window, link-window, break-pane): a session and maybe an
 * index, often a new one. Only its session counts, unless -k replaces a window there.
 */
const DESTINATIONS = new Set(['move-window', 'link-window', 'break-pane']);

/**
 * Commands whose target may be left out while sessions are limited: listings (the engine filters
 * them), this server's own buffers, channels and option reads. Not display-message: without -t it
 * expands in the context of whatever session tmux calls current.
 */
const TARGETLESS = new Set([
  'list-sessions',
  'list-windows',
  'list-panes',
  'list-clients',
  'list-buffers',
  'show-buffer',
  'set-buffer',
  'load-buffer',
  'save-buffer',
  'delete-buffer',
  'wait-for',
  'list-commands',
  'refresh-client',
  'show-options',
  'show-environment',
  'show-hooks',
]);

/**
 * Target flags whose absence names no "current" object: tmux falls back to another argument of the
 * same command (copy-mode's source is its target pane; new-session -t groups with an existing one).
 */
const ANOTHER_ARGUMENT: Readonly<Record<string, string>> = { 'copy-mode': 's', 'new-session': 't' };

/** Commands that write server-wide state; with -g (global) or -s (server) they reach every session. */
const GLOBAL_WRITES = new Set(['set-option', 'set-window-option', 'set-environment', 'set-hook']);

/** Never while sessions are limited: they reach every session or run arbitrary commands on the server. */
const SERVER_WIDE = new Set(['kill-server', 'source-file', 'run-shell', 'if-shell', 'lock-server', 'start-server']);

const WHERE_FORMAT = '#{session_id}\t#{window_id}\t#{pane_id}\t#{window_linked_sessions_list}\t#{session_name}';

interface Place {
  readonly session: string;
  readonly sessionId: string;
  readonly windowId: string;
  readonly paneId: string;
  /** Every session the window is linked into. */
  readonly sessions: readonly string[];
}

/** What the gate needs of its engine: its tmux and the pid of the server answering now. */
export interface GateHost {
  readonly tmux: TmuxServer;
  serverPid(): Promise<number | undefined>;
}

/**
 * The check for one command, or undefined when nothing about it can be out of scope (no promise,
 * so a command costs nothing more when no scope and no caller are set).
 */
export function checkCommand(scope: Scope, host: GateHost, command: readonly string[]): Promise<void> | undefined {
  const name = command[0] ?? '';
  const limited = scope.active;
  const callerMove = scope.caller !== undefined && host.tmux.host === undefined && MOVES.has(name);
  if (!limited && !callerMove) return undefined;
  return commandTable(host.tmux).then((table) => check(scope, host, table, table.parse(command), limited, callerMove));
}

async function check(
  scope: Scope,
  host: GateHost,
  table: CommandTable,
  command: ParsedCommand,
  limited: boolean,
  callerMove: boolean,
): Promise<void> {
  const where = host.tmux.host;
  const name = command.name;
  const sessionsLimited = scope.limitsSessions;
  if (sessionsLimited) {
    if (!command.known) throw outside(scope, `tmux command ${quoted(name)} is not one the scope check can read`);
    if (SERVER_WIDE.has(name)) throw outside(scope, `${name} reaches beyond the allowed sessions`);
    if (GLOBAL_WRITES.has(name) && (command.switches.has('g') || (name === 'set-option' && command.switches.has('s')))) {
      throw outside(scope, `${name} -${command.switches.has('g') ? 'g' : 's'} changes every session's settings, not only the allowed ones`);
    }
    if (name === 'new-session') {
      const session = command.values.get('s');
      if (session === undefined || !scope.allowsSession(where, session)) {
        throw outside(
          scope,
          session === undefined
            ? 'a new session needs a name in scope'
            : `session ${quoted(session)} would be outside the allowed sessions`,
        );
      }
    }
    if (name === 'rename-session') {
      const next = command.positionals[0] ?? '';
      if (!scope.allowsSession(where, next))
        throw outside(scope, `renaming a session to ${quoted(next)} would take it outside the allowed sessions`);
    }
  }
  const caller = callerMove ? await callerPlace(scope, host) : undefined;
  const places = new Map<string, Place>();
  for (const flag of table.targetFlags(name)) {
    const value = command.values.get(flag);
    if (value === undefined) {
      if (sessionsLimited && !TARGETLESS.has(name) && ANOTHER_ARGUMENT[name] !== flag) {
        throw outside(scope, `${name} without -${flag} would act on whatever tmux calls current; name a target in scope`);
      }
      continue;
    }
    const destination = flag === 't' && DESTINATIONS.has(name) && !command.switches.has('k');
    const kind = destination ? 'session' : name === 'display-message' ? readKind(value) : table.targetKind(name, flag)!;
    const place = await placeOf(host.tmux, value);
    if (!place) continue; // tmux finds nothing there either: the command fails on its own (or makes a new index)
    places.set(flag, place);
    if (limited) {
      const inScope =
        kind === 'session'
          ? scope.allowsSession(where, place.session)
          : kind === 'window'
            ? scope.allowsWindow(where, place.sessions)
            : scope.allowsPane(where, place.paneId, place.sessions, [place.sessionId]);
      if (!inScope) throw outside(scope, `${describe(kind, value, place)} is outside this server's scope`);
    }
  }
  if (caller) checkCallerMove(command, places, caller);
}

/**
 * What each move carries away: the flags naming the pane or window that leaves its place (-t of
 * move-window and link-window only with -k, which replaces the window there).
 */
const MOVED: Readonly<Record<string, { readonly flags: readonly string[]; readonly unit: 'pane' | 'window' }>> = {
  'swap-pane': { flags: ['s', 't'], unit: 'pane' },
  'join-pane': { flags: ['s'], unit: 'pane' },
  'move-pane': { flags: ['s'], unit: 'pane' },
  'break-pane': { flags: ['s'], unit: 'pane' },
  'swap-window': { flags: ['s', 't'], unit: 'window' },
  'move-window': { flags: ['s'], unit: 'window' },
  'link-window': { flags: ['s'], unit: 'window' },
  'unlink-window': { flags: ['t'], unit: 'window' },
};

/**
 * Refuses a move that would take the caller's pane out of its window, or its window anywhere. A
 * swap or join within the caller's window only rearranges it, and is let through; a move whose
 * source is left to tmux ("the current pane") cannot be judged, and is refused.
 */
function checkCallerMove(command: ParsedCommand, places: ReadonlyMap<string, Place>, caller: { paneId: string; windowId: string }): void {
  const moved = MOVED[command.name];
  if (!moved) return;
  const stepping = command.name === 'swap-pane' && (command.switches.has('D') || command.switches.has('U'));
  const flags = [
    ...moved.flags,
    ...(command.switches.has('k') && (command.name === 'move-window' || command.name === 'link-window') ? ['t'] : []),
  ];
  for (const flag of flags) {
    const value = command.values.get(flag);
    if (value === undefined) {
      if (stepping) continue; // -D/-U: swapped with a neighbour, within the target's window
      throw callerRefusal(command.name, `without -${flag} tmux would pick the pane or window itself`, caller);
    }
    const place = places.get(flag);
    if (!place) continue;
    const hit = moved.unit === 'pane' ? place.paneId === caller.paneId : place.windowId === caller.windowId;
    if (!hit) continue;
    // The pane it trades places with, or joins: in the caller's own window, nothing leaves it.
    const other = places.get(flag === 's' ? 't' : 's');
    if (moved.unit === 'pane' && command.name !== 'break-pane' && other?.windowId === caller.windowId) continue;
    throw callerRefusal(command.name, `${quoted(value)} is or holds the pane this MCP server runs in`, caller);
  }
}

function callerRefusal(name: string, why: string, caller: { paneId: string; windowId: string }): Failure {
  return refused(
    `refusing to ${name}: ${why} (${caller.paneId}, window ${caller.windowId})`,
    "Moving, swapping, joining, breaking or linking the caller's pane or its window would put it where other tools could close it. Arrange other panes instead.",
  );
}

/**
 * What a read (display-message) is about, by the target's shape: it takes a pane target but is used
 * to read sessions (`$1`) and windows (`@2`) too, whose current pane is no more than context.
 */
function readKind(value: string): TargetKind {
  if (value.startsWith('$')) return 'session';
  if (value.startsWith('@')) return 'window';
  return 'pane';
}

/** Where the caller's pane is now, on this server; undefined when it is not on this server. */
async function callerPlace(scope: Scope, host: GateHost): Promise<{ paneId: string; windowId: string } | undefined> {
  const caller = scope.caller!;
  if (!scope.isCaller(host.tmux.host, caller.paneId, await host.serverPid())) return undefined;
  const place = await placeOf(host.tmux, caller.paneId);
  return place ? { paneId: caller.paneId, windowId: place.windowId } : undefined;
}

/** Where a target is now, as tmux resolves it; undefined when tmux finds nothing there. */
async function placeOf(tmux: TmuxServer, target: string): Promise<Place | undefined> {
  let lines: string[] | undefined;
  try {
    lines = await tmux.runIfServer(['display-message', '-p', '-t', target, WHERE_FORMAT], { ungated: true });
  } catch (error) {
    if (failedAs(error, 'tmux_failed')) return undefined;
    throw error;
  }
  const [sessionId = '', windowId = '', paneId = '', linked = '', ...name] = (lines?.[0] ?? '').split('\t');
  if (windowId === '') return undefined;
  const session = name.join('\t');
  return { session, sessionId, windowId, paneId, sessions: linked === '' ? [session] : linked.split(',') };
}

/** The target as the caller named it; nothing of what lies outside (its session's name) is told. */
function describe(kind: string, value: string, place: Place): string {
  if (kind === 'session') return `session ${quoted(value)}`;
  return kind === 'window' ? `window ${place.windowId}` : `pane ${place.paneId}`;
}

/** A refusal that names the rule, so the person reading it knows which flag to change. */
export function outside(scope: Scope, what: string): Failure {
  return new Failure(
    'out_of_scope',
    `${what}: this server is limited to ${scope.describe()}`,
    'Only what is in scope can be seen or acted on (list_sessions shows those sessions); the person running the server sets the scope.',
    { touched: false },
  );
}

/** The host part of a message: `local` for this machine. */
export function hostLabel(host: string | undefined): string {
  return host ?? LOCAL_HOST;
}
