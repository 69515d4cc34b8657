/**
 * The inspect tools: what the servers, sessions, windows and panes are (listings, one object at a
 * time, a format evaluated) and what panes show (captures, search). Read-only.
 */
import {
  captureLines,
  CORNERS,
  displayMessage,
  invalidArgument,
  isCallerPane,
  listPaneDetails,
  listSessions,
  listSockets,
  listWindows,
  notFound,
  onPane,
  outside,
  paneAtCorner,
  paneDetail,
  readVariables,
  SEARCH_LIMITS,
  searchPanes,
  tailBudget,
} from '../../../core/index.js';
import { listResult, modelResult, pythonTool, textResult } from '../declare.js';
import { textOnlyResult } from '../errors.js';
import { compileFilters, FILTERS_HELP } from '../filters.js';
import { paneSchema, paneWire, paneWires, serverSchema, sessionSchema, sessionWire, windowSchema, windowWire } from '../records.js';
import {
  choice,
  defaulted,
  field,
  optional,
  PANE_TARGET,
  params,
  SESSION_ID,
  SESSION_NAME,
  SESSION_TARGET,
  SOCKET_NAME,
  stringList,
  stringMap,
  TARGETING_NOTE,
  WINDOW_ID,
  WINDOW_INDEX,
  WINDOW_TARGET,
  wrapped,
  WRAPPED_TEXT,
} from '../schema.js';
import { serverInfo } from '../servers.js';
import { checkTarget, targetedPane, targetedPaneId, targetedSession, targetedWindow } from '../targets.js';

const FILTERS = stringMap(FILTERS_HELP);

export const listSessionsTool = pythonTool({
  name: 'list_sessions',
  title: 'List tmux Sessions',
  description:
    'List the sessions of a tmux server: id, name, window count, how many people are attached, creation time and the ' +
    'focused pane. Start here to find what exists; then list_windows / list_panes narrow down, and list_panes is the ' +
    'way to get pane ids for reading and typing. An empty list means the server has no sessions (or is not running): ' +
    'create one with create_session. `filters` narrows the rows by field (see its description).',
  toolset: 'inspect',
  input: params({ filters: FILTERS, socket_name: SOCKET_NAME }),
  output: wrapped({ items: sessionSchema, type: 'array' }),
  async handler(args, { engine }) {
    const keep = compileFilters(args.filters);
    const sessions = await listSessions(engine);
    return listResult(keep(sessions.map((s) => sessionWire(s))));
  },
});

export const listWindowsTool = pythonTool({
  name: 'list_windows',
  targets: ['session_id', 'session_name'],
  title: 'List tmux Windows',
  description:
    'List windows: of one session (session_id, else session_name), or of every session when neither is given. Each row ' +
    "has the window id, name, index, size, layout, pane count, whether it is the session's current window and its " +
    'focused pane. Use list_panes for the panes themselves. `filters` narrows the rows by field (e.g. {"window_name": "logs"}).',
  toolset: 'inspect',
  alwaysLoad: true,
  input: params({ session_name: SESSION_NAME, session_id: SESSION_ID, socket_name: SOCKET_NAME, filters: FILTERS }),
  output: wrapped({ items: windowSchema, type: 'array' }),
  async handler(args, { engine }) {
    const keep = compileFilters(args.filters);
    checkTarget(args);
    const scoped = args.session_id != null || args.session_name != null;
    const windows = scoped ? await listWindows(engine, (await targetedSession(engine, args)).id) : await listWindows(engine);
    return listResult(keep(windows.map(windowWire)));
  },
});

export const listPanesTool = pythonTool({
  name: 'list_panes',
  targets: ['session_id', 'session_name', 'window_id'],
  title: 'List tmux Panes',
  description:
    'List panes with what each runs (pane_current_command), its working directory, size and position, and is_caller ' +
    '(true for the pane this server runs in: leave it alone). Scope: one window (window_id, or window_index within the ' +
    'session), else one session (session_id, else session_name), else every pane of the server. The pane_id of a row ' +
    '("%3") is what capture_pane, send_keys, run_command and wait_for_text take. To find a pane by what it shows, use ' +
    'search_panes. `filters` narrows the rows by field (e.g. {"pane_current_command": "python3"}).',
  toolset: 'inspect',
  alwaysLoad: true,
  input: params({
    session_name: SESSION_NAME,
    session_id: SESSION_ID,
    window_id: WINDOW_ID,
    window_index: WINDOW_INDEX,
    socket_name: SOCKET_NAME,
    filters: FILTERS,
  }),
  output: wrapped({ items: paneSchema, type: 'array' }),
  async handler(args, { engine }) {
    const keep = compileFilters(args.filters);
    checkTarget(args);
    const where =
      args.window_id != null || args.window_index != null
        ? { windowId: (await targetedWindow(engine, args)).id }
        : args.session_id != null || args.session_name != null
          ? { sessionId: (await targetedSession(engine, args)).id }
          : {};
    const panes = await listPaneDetails(engine, where);
    const rows = await paneWires(engine, panes);
    return listResult(keep(rows));
  },
});

export const getServerInfoTool = pythonTool({
  name: 'get_server_info',
  title: 'Get tmux Server Info',
  description:
    'Whether a tmux server runs on the socket, its socket path, tmux version and session count. A quick health check ' +
    'before other calls, and the way to see which server socket_name reaches. To find every server of this user, use list_servers.',
  toolset: 'inspect',
  input: params({ socket_name: SOCKET_NAME }),
  output: serverSchema,
  async handler(args, { engine }) {
    return modelResult(await serverInfo(engine, args.socket_name ?? null));
  },
});

export const getSessionInfoTool = pythonTool({
  name: 'get_session_info',
  targets: ['session_id', 'session_name'],
  title: 'Get tmux Session Info',
  description:
    "One session's id, name, window count, attached clients, creation time and focused pane. Target: session_id, else " +
    'session_name, else the first session. For its windows use list_windows.',
  toolset: 'inspect',
  input: params({ ...SESSION_TARGET, socket_name: SOCKET_NAME }),
  output: sessionSchema,
  async handler(args, { engine }) {
    checkTarget(args);
    const session = await targetedSession(engine, args);
    return modelResult(sessionWire(session));
  },
});

export const getWindowInfoTool = pythonTool({
  name: 'get_window_info',
  targets: ['session_id', 'session_name', 'window_id'],
  title: 'Get tmux Window Info',
  description:
    "One window's id, name, index, size, layout, pane count and focused pane. Target: window_id, else window_index in " +
    "the session (session_id, else session_name, else the first session), else that session's first window.",
  toolset: 'inspect',
  input: params({ ...WINDOW_TARGET, socket_name: SOCKET_NAME }),
  output: windowSchema,
  async handler(args, { engine }) {
    checkTarget(args);
    return modelResult(windowWire(await targetedWindow(engine, args)));
  },
});

export const getPaneInfoTool = pythonTool({
  name: 'get_pane_info',
  targets: ['pane_id', 'session_id', 'session_name', 'window_id'],
  title: 'Get Pane Info',
  description:
    "One pane's details: what runs in it (pane_current_command), working directory, size, position in the window, " +
    `tty, pid, title, and is_caller. ${TARGETING_NOTE} For the pane's text use capture_pane; for text and cursor ` +
    'state together, snapshot_pane.',
  toolset: 'inspect',
  input: params({ ...PANE_TARGET, socket_name: SOCKET_NAME }),
  output: paneSchema,
  async handler(args, { engine }) {
    checkTarget(args);
    return modelResult(await paneWire(engine, await targetedPane(engine, args)));
  },
});

export const findPaneByPositionTool = pythonTool({
  name: 'find_pane_by_position',
  targets: ['session_id', 'session_name', 'window_id'],
  title: 'Find Pane By Position',
  description:
    'The pane in a corner of a window ("top-left", "top-right", "bottom-left", "bottom-right"), for layouts you know by ' +
    'shape rather than by id ("the bottom-right pane runs the server"). In a zoomed window, where the zoomed pane touches ' +
    'every corner too, the first pane in index order is chosen. Window: window_id, else window_index in the session (session_id, else session_name, else the ' +
    'first session), else its first window.',
  toolset: 'inspect',
  input: params({ corner: choice(CORNERS, 'Which corner of the window.'), ...WINDOW_TARGET, socket_name: SOCKET_NAME }, ['corner']),
  output: paneSchema,
  async handler(args, { engine }) {
    checkTarget(args);
    const window = await targetedWindow(engine, args);
    const best = paneAtCorner(await listPaneDetails(engine, { windowId: window.id }), args.corner);
    if (!best)
      throw notFound(
        `No pane found at corner '${args.corner}' in window ${window.id}`,
        'Call list_panes with window_id to see the panes and their positions.',
      );
    return modelResult(await paneWire(engine, best));
  },
});

export const DEFAULT_MAX_LINES = 500;

export function checkMaxLines(value: number | null, field = 'max_lines'): number | null {
  if (value !== null && value < 1)
    throw invalidArgument(
      `${field} must be positive or null (received ${value})`,
      `Pass a number of lines of at least 1, or null for no limit.`,
    );
  return value;
}

export const capturePaneTool = pythonTool({
  name: 'capture_pane',
  targets: ['pane_id', 'session_id', 'session_name', 'window_id'],
  title: 'Capture Pane',
  description:
    "Read the text a pane shows (a terminal's screen and scrollback, no colours), e.g. a build log or what a server " +
    'printed. Not for files: read those directly. Default: the visible screen. `start`/`end` pick rows: 0 is the top ' +
    'of the screen, negative rows reach back into scrollback (start -100 = the last 100 rows of history). ' +
    `The newest rows are kept: past max_lines (default ${DEFAULT_MAX_LINES}) the oldest are dropped and the text starts ` +
    'with exactly one line "[... truncated K lines ...]"; ask again with a narrower start/end, a larger max_lines, or ' +
    `max_lines null for everything. ${TARGETING_NOTE} To read only what is new since last time use capture_since; to ` +
    'wait for something to appear use wait_for_text; to search many panes use search_panes.',
  toolset: 'inspect',
  textOnly: true,
  input: params({
    ...PANE_TARGET,
    start: optional(
      'integer',
      'First row: 0 is the top of the visible screen, negative rows are scrollback (-100 = 100 rows back). Default: the top of the screen.',
    ),
    end: optional('integer', 'Last row, same numbering. Default: the bottom of the screen.'),
    max_lines: optional(
      'integer',
      `Most rows returned; older rows beyond it are dropped and counted in a "[... truncated K lines ...]" first line. Default ${DEFAULT_MAX_LINES}; null returns everything.`,
      DEFAULT_MAX_LINES,
    ),
    socket_name: SOCKET_NAME,
  }),
  async handler(args, { engine }) {
    checkTarget(args);
    const maxLines = checkMaxLines(args.max_lines === undefined ? DEFAULT_MAX_LINES : args.max_lines);
    const paneId = await targetedPaneId(engine, args);
    const lines = await onPane(engine, paneId, () =>
      captureLines(engine, paneId, { start: args.start ?? undefined, end: args.end ?? undefined }),
    );
    // By lines only, as the contract truncates; null keeps every line.
    const { lines: kept, droppedLines: dropped } = tailBudget(lines, maxLines ?? lines.length, Infinity);
    return textOnlyResult((dropped ? `[... truncated ${dropped} lines ...]\n` : '') + kept.join('\n'));
  },
});

const SNAPSHOT_VARIABLES = [
  'cursor_x',
  'cursor_y',
  'pane_in_mode',
  'pane_mode',
  'scroll_position',
  'history_size',
  'alternate_on',
] as const;

export const snapshotPaneTool = pythonTool({
  name: 'snapshot_pane',
  targets: ['pane_id', 'session_id', 'session_name', 'window_id'],
  title: 'Snapshot Pane',
  description:
    'Everything about a pane in one call: its visible text plus the cursor position, size, geometry, whether it is in ' +
    'copy mode (pane_in_mode, pane_mode, scroll_position), on the alternate screen (a full-screen program such as vim ' +
    'or less), dead, its history size, title, command and directory. Use it to understand a pane before acting on it; ' +
    `for text alone capture_pane is lighter. content keeps the newest max_lines rows (default ${DEFAULT_MAX_LINES}; null: ` +
    `all) and says what it dropped in content_truncated / content_truncated_lines. ${TARGETING_NOTE}`,
  toolset: 'inspect',
  alwaysLoad: true,
  input: params({
    ...PANE_TARGET,
    max_lines: optional(
      'integer',
      `Most rows of content returned, newest kept. Default ${DEFAULT_MAX_LINES}; null returns the whole screen.`,
      DEFAULT_MAX_LINES,
    ),
    socket_name: SOCKET_NAME,
  }),
  async handler(args, { engine }) {
    checkTarget(args);
    const maxLines = checkMaxLines(args.max_lines === undefined ? DEFAULT_MAX_LINES : args.max_lines);
    const paneId = await targetedPaneId(engine, args);
    const [pane, vars, lines] = await Promise.all([
      paneDetail(engine, paneId),
      readVariables(engine, [...SNAPSHOT_VARIABLES], paneId),
      onPane(engine, paneId, () => captureLines(engine, paneId)),
    ]);
    // By lines only, as the contract truncates; null keeps every line.
    const { lines: kept, droppedLines: dropped } = tailBudget(lines, maxLines ?? lines.length, Infinity);
    const int = (name: (typeof SNAPSHOT_VARIABLES)[number]) => (vars[name] ? Number.parseInt(vars[name]!, 10) : null);
    return modelResult({
      pane_id: pane.id,
      content: kept.join('\n'),
      cursor_x: int('cursor_x') ?? 0,
      cursor_y: int('cursor_y') ?? 0,
      pane_width: pane.width,
      pane_height: pane.height,
      // Written out, not spread from a helper: see paneRow (records.ts).
      pane_left: pane.left,
      pane_top: pane.top,
      pane_right: pane.right,
      pane_bottom: pane.bottom,
      pane_at_left: pane.isAtLeft,
      pane_at_right: pane.isAtRight,
      pane_at_top: pane.isAtTop,
      pane_at_bottom: pane.isAtBottom,
      pane_tty: pane.tty,
      pane_pid: String(pane.pid),
      pane_dead: pane.isDead,
      alternate_on: vars.alternate_on === '1',
      pane_in_mode: vars.pane_in_mode === '1',
      pane_mode: vars.pane_mode || null,
      scroll_position: int('scroll_position'),
      history_size: int('history_size') ?? 0,
      title: pane.title,
      pane_current_command: pane.currentCommand,
      pane_current_path: pane.currentPath,
      is_caller: engine.options.caller ? await isCallerPane(engine, pane.id) : null,
      content_truncated: dropped > 0,
      content_truncated_lines: dropped,
    });
  },
});

export const searchPanesTool = pythonTool({
  name: 'search_panes',
  targets: ['session_id', 'session_name'],
  title: 'Search Panes',
  description:
    'Find the panes whose text (screen and recent scrollback) contains a pattern, with the matching lines: "which pane ' +
    'shows the error?", "where is the server running?". Searches every pane of the server, or of one session. pattern is ' +
    'literal text unless regex true, and ignores case unless match_case true. Results are one row per pane (its command, ' +
    'directory, window and session, and matched_lines, the last max_matched_lines_per_pane of them), ordered by pane id ' +
    'and paged: limit panes per call (default 500, null for all) from offset (default 0); when truncated is true call ' +
    'again with offset + the number of rows. content_start and content_end bound the rows searched in each pane (0 = the ' +
    'top row of the screen, negative = scrollback, e.g. content_start -1000 to reach further back). To read one pane use capture_pane; list_panes matches metadata, not text.',
  toolset: 'inspect',
  input: params(
    {
      pattern: field('string', 'Text (or, with regex true, a JavaScript regular expression) to look for, within one line.'),
      regex: defaulted('boolean', false, 'Treat pattern as a regular expression. Default false: literal text.'),
      ...SESSION_TARGET,
      match_case: defaulted('boolean', false, 'Match case exactly. Default false: case is ignored.'),
      content_start: optional(
        'integer',
        `First row searched, as capture_pane's start counts rows: 0 is the top row of the screen, negative rows are scrollback above it (-1000 = from 1000 rows back). Default: ${SEARCH_LIMITS.scrollbackLines} rows back.`,
      ),
      content_end: optional(
        'integer',
        'Last row searched, counted the same way (0 = the top row of the screen, -1 = the newest row of scrollback). Default: the bottom of the screen.',
      ),
      max_matched_lines_per_pane: defaulted('integer', 50, 'Most matching lines returned per pane, newest kept. Default 50.'),
      limit: optional('integer', 'Most panes returned in this page. Default 500; null: all.', 500),
      offset: defaulted('integer', 0, 'Panes to skip (in pane id order) before this page. Default 0.'),
      socket_name: SOCKET_NAME,
    },
    ['pattern'],
  ),
  async handler(args, { engine, signal }) {
    checkTarget(args);
    const perPane = args.max_matched_lines_per_pane ?? 50;
    const limit = args.limit === undefined ? 500 : args.limit;
    const offset = args.offset ?? 0;
    if (perPane < 1) throw invalidArgument(`max_matched_lines_per_pane must be positive (received ${perPane})`);
    if (limit !== null && limit < 1) throw invalidArgument(`limit must be positive or null (received ${limit})`);
    if (offset < 0) throw invalidArgument(`offset must not be negative (received ${offset})`);
    const sessionId = args.session_id != null || args.session_name != null ? (await targetedSession(engine, args)).id : undefined;
    // Rows above the screen asked for, plus room for the screen itself.
    const scrollback = args.content_start != null && args.content_start < 0 ? Math.min(-args.content_start + 1000, 100_000) : undefined;
    const found = await searchPanes(engine, {
      pattern: args.pattern,
      regex: args.regex ?? false,
      ignoreCase: !(args.match_case ?? false),
      maxMatchesPerPane: 10_000,
      ...(scrollback !== undefined ? { scrollbackLines: scrollback } : {}),
      ...(args.content_start != null ? { start: args.content_start } : {}),
      ...(args.content_end != null ? { end: args.content_end } : {}),
      ...(sessionId !== undefined ? { sessionId } : {}),
      signal,
    });
    const byPane = new Map<string, string[]>();
    for (const match of found.matches) byPane.set(match.paneId, [...(byPane.get(match.paneId) ?? []), match.text]);
    const ids = [...byPane.keys()].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
    const page = limit === null ? ids.slice(offset) : ids.slice(offset, offset + limit);
    const [panes, windows, caller] = await Promise.all([
      listPaneDetails(engine, sessionId !== undefined ? { sessionId } : {}),
      listWindows(engine),
      Promise.resolve(engine.options.caller),
    ]);
    const paneById = new Map(panes.map((p) => [p.id, p]));
    const windowById = new Map(windows.map((w) => [w.id, w]));
    let clipped = false;
    const matches = await Promise.all(
      page.map(async (paneId) => {
        const pane = paneById.get(paneId);
        const window = pane ? windowById.get(pane.windowId) : undefined;
        const lines = byPane.get(paneId)!;
        if (lines.length > perPane) clipped = true;
        return {
          pane_id: paneId,
          pane_current_command: pane?.currentCommand ?? null,
          pane_current_path: pane?.currentPath ?? null,
          window_id: pane?.windowId ?? null,
          window_name: window?.name ?? null,
          session_id: pane?.sessionId ?? null,
          session_name: window?.sessionName ?? null,
          matched_lines: lines.slice(-perPane),
          is_caller: caller ? await isCallerPane(engine, paneId) : null,
        };
      }),
    );
    const skipped = limit === null ? [] : ids.slice(offset + limit);
    return modelResult({
      matches,
      truncated: clipped || skipped.length > 0 || found.truncatedBy.length > 0,
      truncated_panes: skipped,
      total_panes_matched: ids.length,
      offset,
      limit,
    });
  },
});

export const listServersTool = pythonTool({
  name: 'list_servers',
  title: 'List tmux Servers',
  description:
    "Find the tmux servers running for this user: every live socket in tmux's socket directory ($TMUX_TMPDIR or /tmp, " +
    'then tmux-<uid>), plus extra_socket_paths for servers started with -S elsewhere. Stale sockets are skipped, and no ' +
    'server is started to look. Then each configured host (--host) whose tmux answers, as socket_name "HOST:". ' +
    "Each row's socket_name is what the other tools take as socket_name.",
  toolset: 'inspect',
  input: params({
    extra_socket_paths: stringList(
      'Absolute paths of more sockets to check (servers started with tmux -S). Missing or dead ones are skipped.',
    ),
  }),
  output: wrapped({ items: serverSchema, type: 'array' }),
  async handler(args, { ctx }) {
    const scope = ctx.registry.defaultEngine.scope;
    if (scope.limitsSessions) throw outside(scope, 'list_servers looks at every tmux server of this user');
    const sockets = (await listSockets({ extraSocketPaths: args.extra_socket_paths ?? [] })).filter(
      (s) => s.alive && ctx.registry.reaches(s.socketName !== null ? { socketName: s.socketName } : { socketPath: s.socketPath }),
    );
    const rows = await Promise.all(
      sockets.map((socket) =>
        ctx.registry.use(
          socket.socketName !== null ? { socketName: socket.socketName } : { socketPath: socket.socketPath },
          async (engine) => ({
            ...(await serverInfo(engine, socket.socketName)),
            socket_path: socket.socketPath,
          }),
        ),
      ),
    );
    // Hosts after this machine's sockets: a host that is down or has no server is skipped like a stale socket.
    const hosts = await ctx.registry.everyServer(async (engine, host) => (host === undefined ? undefined : serverInfo(engine, `${host}:`)));
    return listResult([...rows, ...hosts.flatMap((answer) => (answer.ok && answer.value?.is_alive ? [answer.value] : []))]);
  },
});

export const displayMessageTool = pythonTool({
  name: 'display_message',
  targets: ['pane_id', 'session_id', 'session_name', 'window_id'],
  title: 'Evaluate tmux Format String',
  description:
    "Evaluate a tmux format string in a pane's context and return the text: the escape hatch for any tmux variable no " +
    'other tool reports, e.g. "#{pane_pid} #{pane_tty}", "#{window_zoomed_flag}", "#{client_termname}", or conditionals ' +
    'like "#{?pane_dead,dead,alive}". Shell jobs #(...) are refused, so it never runs a command. ' +
    TARGETING_NOTE,
  toolset: 'inspect',
  input: params(
    {
      format_string: field('string', 'The tmux format, e.g. "#{session_name}:#{window_index}.#{pane_index}".'),
      ...PANE_TARGET,
      socket_name: SOCKET_NAME,
    },
    ['format_string'],
  ),
  output: WRAPPED_TEXT,
  async handler(args, { engine }) {
    checkTarget(args);
    const paneId = await targetedPaneId(engine, args);
    const shown = await displayMessage(engine, args.format_string, paneId);
    return textResult(shown.text);
  },
});
