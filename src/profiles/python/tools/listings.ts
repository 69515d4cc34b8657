/** The listing tools: sessions, windows and panes of one tmux server, optionally filtered. */
import { listPaneDetails } from '../../../core/read/pane-details.js';
import { listResult, pythonTool } from '../declare.js';
import { compileFilters, FILTERS_HELP } from '../filters.js';
import { paneSchema, paneWires, sessionSchema, sessionWire, windowSchema, windowWire } from '../records.js';
import { params, SESSION_ID, SESSION_NAME, SOCKET_NAME, stringMap, WINDOW_ID, WINDOW_INDEX, wrapped } from '../schema.js';
import { checkTarget, resolveSession, resolveWindow } from '../targets.js';

const FILTERS = stringMap(FILTERS_HELP);

export const listSessions = pythonTool({
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
    const [sessions, clients] = await Promise.all([engine.listSessions(), engine.foreignClientsBySession()]);
    return listResult(keep(sessions.map((s) => sessionWire(s, clients))));
  },
});

export const listWindows = pythonTool({
  name: 'list_windows',
  title: 'List tmux Windows',
  description:
    'List windows: of one session (session_id, else session_name), or of every session when neither is given. Each row ' +
    'has the window id, name, index, size, layout, pane count, whether it is the session\'s current window and its ' +
    'focused pane. Use list_panes for the panes themselves. `filters` narrows the rows by field (e.g. {"window_name": "logs"}).',
  toolset: 'inspect',
  alwaysLoad: true,
  input: params({ session_name: SESSION_NAME, session_id: SESSION_ID, socket_name: SOCKET_NAME, filters: FILTERS }),
  output: wrapped({ items: windowSchema, type: 'array' }),
  async handler(args, { engine }) {
    const keep = compileFilters(args.filters);
    checkTarget(args);
    const scoped = args.session_id != null || args.session_name != null;
    const windows = scoped ? await engine.listWindows((await resolveSession(engine, args)).id) : await engine.listWindows();
    return listResult(keep(windows.map(windowWire)));
  },
});

export const listPanes = pythonTool({
  name: 'list_panes',
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
    let panes;
    if (args.window_id != null || args.window_index != null) panes = await listPaneDetails(engine, { windowId: (await resolveWindow(engine, args)).id });
    else if (args.session_id != null || args.session_name != null) panes = await listPaneDetails(engine, { sessionId: (await resolveSession(engine, args)).id });
    else panes = await listPaneDetails(engine);
    const rows = await paneWires(engine, panes);
    return listResult(keep(rows));
  },
});
