/**
 * The inspect tools: what the server, its sessions, windows and panes are and show (captures,
 * listings, info, search). Read-only: none changes tmux.
 */
import {
  captureLines,
  compileMatcher,
  CORNERS,
  encodeRef,
  invalidArgument,
  listPanes,
  listSessions,
  listWindows,
  notFound,
  onPane,
  paneAtCorner,
  paneIdFrom,
  quoted,
  resolvePane,
  resolveSession,
  resolveWindow,
  SEARCH_LIMITS,
  searchPanes,
  tailBudget,
} from '../../../core/index.js';
import { array, boolean, enumOf, integer, object, string } from '../../../mcp/tools/schema.js';
import { READS_CONTENT, READS_METADATA, libtmuxTool } from '../declare.js';
import {
  captureSchema,
  paneSchema,
  paneWire,
  sessionSchema,
  sessionWire,
  windowLinkSchema,
  windowLinkWire,
  windowOccurrenceSchema,
  windowOccurrenceWire,
  windowSchema,
  windowWire,
} from '../records.js';

const LINE = { minimum: -2147483648, maximum: 32767 };

export const capturePaneTool = libtmuxTool({
  name: 'capture_pane',
  targets: ['paneId'],
  title: 'Capture pane',
  description:
    'Read the text a pane shows, as rows (no colours or escape sequences). By default the visible screen; use ' +
    '`start` (negative reaches into scrollback, e.g. -500) and `end` to read history. Long captures keep the newest ' +
    '`maxLines` rows (default 200, at most 2000) and about 128 KB, and `droppedLines` says how many older rows were ' +
    'left out. To follow new output use capture_since; to wait for something to appear use wait_for_text.',
  ...READS_CONTENT,
  input: object(
    {
      paneId: string({ description: 'Pane id (%3) or pane ref.' }),
      start: integer({
        ...LINE,
        description:
          'First row: 0 is the top of the screen, negative rows are scrollback (-100 = 100 rows back). Default: top of the screen.',
      }),
      end: integer({ ...LINE, description: 'Last row, same numbering. Default: bottom of the screen.' }),
      joinWrapped: boolean({ description: 'Join rows the terminal wrapped, so each long line reads as one. Default false.' }),
      maxLines: integer({ minimum: 1, maximum: 2000, description: 'Most rows returned, newest kept. Default 200.' }),
    },
    ['paneId'],
  ),
  output: captureSchema,
  async handler(args, { ctx }) {
    // capture-pane itself refuses a pane that does not exist: one tmux command, no separate lookup.
    const paneId = await paneIdFrom(ctx.engine, args.paneId);
    const lines = await onPane(ctx.engine, paneId, () => captureLines(ctx.engine, paneId, args));
    const kept = tailBudget(lines, args.maxLines ?? 200, undefined, { clipRow: true });
    return {
      structured: { paneId, lines: kept.lines, droppedLines: kept.droppedLines },
      text:
        (kept.droppedLines ? `[${kept.droppedLines} older rows left out]\n` : '') +
        (kept.clippedRow ? '[the oldest row shown is cut to its end, marked "…"]\n' : '') +
        kept.lines.join('\n'),
    };
  },
});

export const listPanesTool = libtmuxTool({
  name: 'list_panes',
  targets: ['session', 'window'],
  title: 'List panes',
  description:
    'List panes with their ids, refs, size, position flags, foreground command, working directory and state ' +
    '(dead, in a mode, synchronized). Without arguments it lists every pane on the server; give `window` to list one ' +
    "window, or `session` for all panes of one session (given both, the window must be one of that session's). Use a pane `id` or `ref` " +
    'with capture_pane, send_keys, run_shell_command and wait_for_text.',
  ...READS_METADATA,
  input: object({
    session: string({ description: 'Session id ($0), exact session name, or session ref. Optional.' }),
    window: string({ description: 'Window id (@1) or window ref. Optional.' }),
  }),
  output: object({ panes: array(paneSchema, { description: 'Panes, by session, window and pane index.' }) }, ['panes']),
  async handler(args, { ctx }) {
    const { engine } = ctx;
    // Every target given is checked: a window outside the given session is an error, not a silent pick.
    const session = args.session !== undefined ? await resolveSession(engine, args.session) : undefined;
    const window = args.window !== undefined ? await resolveWindow(engine, args.window, 'window') : undefined;
    if (session && window && !(await listWindows(engine, session.id)).some((w) => w.id === window.id)) {
      throw invalidArgument(
        `window ${window.id} is not in session ${session.id} (${quoted(session.name)})`,
        'Give one of them, or a window of that session (list_windows).',
      );
    }
    const scope = window ? { windowId: window.id } : session ? { sessionId: session.id } : {};
    const panes = await listPanes(engine, scope);
    return { structured: { panes: panes.map((p) => paneWire(engine, p)) } };
  },
});

export const listSessionsTool = libtmuxTool({
  name: 'list_sessions',
  title: 'List sessions',
  description:
    'List every tmux session on this server with its id, name, window count, creation time and whether a person ' +
    '(a terminal client other than this server) is attached. Start here to find where to work; then list_windows or ' +
    'list_panes for a session. An empty list means no tmux server is running yet: create_session starts one.',
  ...READS_METADATA,
  input: object({}),
  output: object({ sessions: array(sessionSchema, { description: 'Sessions, in tmux order.' }) }, ['sessions']),
  async handler(_args, { ctx }) {
    const sessions = await listSessions(ctx.engine);
    return { structured: { sessions: sessions.map((s) => sessionWire(ctx.engine, s)) } };
  },
});

export const getServerInfoTool = libtmuxTool({
  name: 'get_server_info',
  title: 'Get server info',
  description:
    'Say whether a tmux server is running on the socket this MCP server is bound to and, if so, its tmux version ' +
    'and socket path. Never fails for a missing server: `running: false` means nothing is there yet (create_session ' +
    'starts one). Use it to check the connection or the tmux version before relying on a newer tmux feature.',
  ...READS_METADATA,
  input: object({}),
  output: object(
    {
      running: boolean({ description: 'True when a tmux server answers on the socket.' }),
      version: string({ description: 'tmux version, e.g. "3.4" (only when running).' }),
      socketPath: string({ description: 'Absolute path of the server socket (only when running).' }),
    },
    ['running'],
  ),
  async handler(_args, { ctx }) {
    const identity = await ctx.engine.identity();
    if (!identity) return { structured: { running: false }, text: `No tmux server is running on ${ctx.engine.socketLabel}.` };
    return { structured: { running: true, version: identity.version, socketPath: identity.socketPath } };
  },
});

export const getSessionInfoTool = libtmuxTool({
  name: 'get_session_info',
  targets: ['session'],
  title: 'Get session info',
  description:
    'Describe one session: id, ref, name, window count, creation time and whether a person (a terminal client ' +
    'other than this server) is attached. Accepts a session id ($0), an exact name or a session ref. To see all ' +
    'sessions use list_sessions; for its windows use list_windows.',
  ...READS_METADATA,
  input: object({ session: string({ description: 'Session id ($0), exact session name, or session ref.' }) }, ['session']),
  output: object({ session: sessionSchema }, ['session']),
  async handler(args, { ctx }) {
    return { structured: { session: sessionWire(ctx.engine, await resolveSession(ctx.engine, args.session)) } };
  },
});

export const getWindowInfoTool = libtmuxTool({
  name: 'get_window_info',
  targets: ['windowId'],
  title: 'Get window info',
  description:
    'Describe one window: id, ref, name, pane count and size in cells, plus every placement of it, since one window ' +
    "can be linked into several sessions (each placement gives the session, index, whether it is that session's " +
    'current window, and a session:index target). Accepts a window id (@1), window ref or window-link ref. To list ' +
    'windows use list_windows; for the panes inside use list_panes with `window`.',
  ...READS_METADATA,
  input: object({ windowId: string({ description: 'Window id (@1), window ref, or window-link ref.' }) }, ['windowId']),
  output: object(
    {
      window: windowSchema,
      placements: array(windowLinkSchema, { description: 'Every session link of the window, in tmux order.' }),
    },
    ['placements', 'window'],
  ),
  async handler(args, { ctx }) {
    const { engine } = ctx;
    const window = await resolveWindow(engine, args.windowId);
    const links = (await listWindows(engine)).filter((w) => w.id === window.id);
    return { structured: { window: windowWire(engine, window), placements: links.map((link) => windowLinkWire(engine, link)) } };
  },
});

export const getPaneInfoTool = libtmuxTool({
  name: 'get_pane_info',
  targets: ['paneId'],
  title: 'Get pane info',
  description:
    'Describe one pane: id, ref, index, size, which window edges it touches, foreground command, working ' +
    'directory and state (dead, in copy mode or another mode, synchronized). Accepts a pane id (%3) or pane ref. ' +
    'Use it to check a pane before typing into it; to read its text use capture_pane, or snapshot_pane for both.',
  ...READS_METADATA,
  input: object({ paneId: string({ description: 'Pane id (%3) or pane ref.' }) }, ['paneId']),
  output: object({ pane: paneSchema }, ['pane']),
  async handler(args, { ctx }) {
    const pane = await resolvePane(ctx.engine, args.paneId);
    return { structured: { pane: paneWire(ctx.engine, pane) } };
  },
});

export const listWindowsTool = libtmuxTool({
  name: 'list_windows',
  targets: ['session'],
  title: 'List windows',
  description:
    'List windows with their ids, refs, names, pane counts and sizes, one row per placement: a window linked into ' +
    'two sessions appears twice, with a shared `windowRef` and a distinct `linkRef`, `sessionID`, `index` and ' +
    "`target` (session:index). Without `session` it lists every session's windows. Use `windowRef`/`id` with " +
    'window tools and list_panes; get_window_info describes one window.',
  ...READS_METADATA,
  input: object({
    session: string({ description: 'Session id ($0), exact session name, or session ref. Optional: default is every session.' }),
  }),
  output: object({ windows: array(windowOccurrenceSchema, { description: 'Window placements, by session and index.' }) }, ['windows']),
  async handler(args, { ctx }) {
    const { engine } = ctx;
    const sessionId = args.session === undefined ? undefined : (await resolveSession(engine, args.session)).id;
    const windows = await listWindows(engine, sessionId);
    return { structured: { windows: windows.map((w) => windowOccurrenceWire(engine, w)) } };
  },
});

export const snapshotPaneTool = libtmuxTool({
  name: 'snapshot_pane',
  targets: ['paneId'],
  title: 'Snapshot pane',
  description:
    "Get a pane's description (as get_pane_info) and the text of its visible screen (as capture_pane) in one call: " +
    'the quickest way to see what a pane is running and showing. The two are read one after the other, not ' +
    'atomically. The screen keeps the newest `maxLines` rows (default 200) within about 128 KB. For scrollback use ' +
    'capture_pane with `start`; to follow new output use capture_since.',
  ...READS_CONTENT,
  input: object(
    {
      paneId: string({ description: 'Pane id (%3) or pane ref.' }),
      maxLines: integer({ minimum: 1, maximum: 2000, description: 'Most screen rows returned, newest kept. Default 200.' }),
    },
    ['paneId'],
  ),
  output: object({ pane: paneSchema, capture: captureSchema }, ['capture', 'pane']),
  async handler(args, { ctx }) {
    const pane = await resolvePane(ctx.engine, args.paneId);
    const kept = tailBudget(await captureLines(ctx.engine, pane.id), args.maxLines ?? 200, undefined, { clipRow: true });
    return {
      structured: {
        pane: paneWire(ctx.engine, pane),
        capture: { paneId: pane.id, lines: kept.lines, droppedLines: kept.droppedLines },
      },
    };
  },
});

export const findPaneByPositionTool = libtmuxTool({
  name: 'find_pane_by_position',
  targets: ['windowId'],
  title: 'Find pane by position',
  description:
    'Find the pane in a corner of a window (top-left, top-right, bottom-left or bottom-right), e.g. "the pane on ' +
    'the bottom right" after a split. Returns the first pane, in pane-index order, touching both edges of that ' +
    'corner (in a zoomed window the zoomed pane touches every corner too, and the pane first in index order still ' +
    'wins). To see every pane with its edges use list_panes with `window`.',
  ...READS_METADATA,
  input: object(
    {
      windowId: string({ description: 'Window id (@1), window ref, or window-link ref.' }),
      corner: enumOf(CORNERS, { description: 'Which corner of the window.' }),
    },
    ['corner', 'windowId'],
  ),
  output: object({ pane: paneSchema }, ['pane']),
  async handler(args, { ctx }) {
    const window = await resolveWindow(ctx.engine, args.windowId);
    const panes = await listPanes(ctx.engine, { windowId: window.id });
    const pane = paneAtCorner(panes, args.corner);
    if (!pane) {
      throw notFound(
        `no pane of window ${window.id} occupies its ${args.corner} corner`,
        "Call list_panes with this window to see each pane's edges.",
      );
    }
    return { structured: { pane: paneWire(ctx.engine, pane) } };
  },
});

export const searchPanesTool = libtmuxTool({
  name: 'search_panes',
  targets: ['session'],
  title: 'Search panes',
  description:
    'Find which panes show some text, and where: searches the newest `scrollbackLines` rows (default 500; screen ' +
    "and scrollback, wrapped rows joined) of every pane, or of one session's panes. The pattern is literal, " +
    'case-sensitive text unless `regex` is true (JavaScript RegExp syntax; an invalid one fails before anything is ' +
    'read). Each match gives the pane, its ref, the 1-based row position (oldest captured row = 1) and the row ' +
    'text. Work is bounded: at most 200 panes, 20,000 rows, 1,000,000 bytes and 5 s per call, `maxMatchesPerPane` ' +
    '(default 50) and 128,000 bytes of matched text; `truncatedBy` names each limit that cut the search short ' +
    '(panes, lines, bytes, time, pane-output, matches, result-bytes). To read around a match use capture_pane; to ' +
    'wait for text to appear use wait_for_text.',
  ...READS_CONTENT,
  input: object(
    {
      pattern: string({
        'x-libtmux-max-utf8-bytes': SEARCH_LIMITS.patternBytes,
        description: 'Text to find (or a regular expression with regex: true); at most 4096 UTF-8 bytes.',
      }),
      regex: boolean({ description: 'Treat pattern as a JavaScript regular expression. Default false (literal text).' }),
      maxMatchesPerPane: integer({
        minimum: 1,
        maximum: 200,
        description: 'Most matches reported per pane, oldest rows first. Default 50.',
      }),
      scrollbackLines: integer({
        minimum: 1,
        maximum: 2000,
        description: "How many of each pane's newest rows to search, screen included. Default 500.",
      }),
      session: string({ description: 'Session id ($0), exact session name, or session ref: search only its panes. Optional.' }),
    },
    ['pattern'],
  ),
  output: object(
    {
      matches: array(
        object(
          {
            pane: string({ description: 'Pane id, like %3.' }),
            paneRef: string({ description: 'Pane ref, valid until the tmux server restarts.' }),
            line: integer({
              description: '1-based position of the row among the rows captured from that pane, oldest first (wrapped rows joined).',
            }),
            text: string({ description: 'The whole matching row.' }),
          },
          ['line', 'pane', 'paneRef', 'text'],
        ),
        { description: 'Matches, by pane (tmux order) and row.' },
      ),
      panesSearched: integer({ description: 'Panes whose text was searched.' }),
      panesAvailable: integer({ description: 'Panes in scope, searched or not.' }),
      truncated: boolean({ description: 'True when a limit cut the search or its result short.' }),
      truncatedBy: array(string(), {
        description: 'Limits that were hit, sorted: bytes, lines, matches, pane-output, panes, result-bytes, time.',
      }),
    },
    ['matches', 'panesAvailable', 'panesSearched', 'truncated', 'truncatedBy'],
  ),
  async handler(args, { ctx, signal, progress }) {
    const { engine } = ctx;
    compileMatcher(args.pattern, args.regex ?? false); // a bad pattern fails before any tmux call
    const sessionId = args.session === undefined ? undefined : (await resolveSession(engine, args.session)).id;
    const result = await searchPanes(engine, {
      ...args,
      sessionId,
      signal,
      onPane: (done, total) => progress(done, total, `searched ${done} of ${total} panes`),
    });
    return {
      structured: {
        matches: result.matches.map((m) => ({
          pane: m.paneId,
          paneRef: encodeRef('pane', m.paneId, result.incarnation!),
          line: m.line,
          text: m.text,
        })),
        panesSearched: result.panesSearched,
        panesAvailable: result.panesAvailable,
        truncated: result.truncatedBy.length > 0,
        truncatedBy: result.truncatedBy,
      },
    };
  },
});
