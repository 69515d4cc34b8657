/** One object at a time: the server, a session, a window, a pane, or the pane in a corner of a window. */
import { listPaneDetails } from '../../../core/read/pane-details.js';
import { notFound } from '../../../core/failure.js';
import { CORNERS, paneAtCorner } from '../../../core/read/corners.js';
import { modelResult, pythonTool } from '../declare.js';
import { paneSchema, paneWire, serverSchema, sessionOut, sessionSchema, windowSchema, windowWire } from '../records.js';
import { choice, params, PANE_TARGET, SESSION_TARGET, SOCKET_NAME, TARGETING_NOTE, WINDOW_TARGET } from '../schema.js';
import { checkTarget, resolvePane, resolveSession, resolveWindow } from '../targets.js';
import { serverInfo } from '../servers.js';


export const getServerInfo = pythonTool({
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

export const getSessionInfo = pythonTool({
  name: 'get_session_info',
  title: 'Get tmux Session Info',
  description:
    'One session\'s id, name, window count, attached clients, creation time and focused pane. Target: session_id, else ' +
    'session_name, else the first session. For its windows use list_windows.',
  toolset: 'inspect',
  input: params({ ...SESSION_TARGET, socket_name: SOCKET_NAME }),
  output: sessionSchema,
  async handler(args, { engine }) {
    checkTarget(args);
    const session = await resolveSession(engine, args);
    return modelResult(await sessionOut(engine, session));
  },
});

export const getWindowInfo = pythonTool({
  name: 'get_window_info',
  title: 'Get tmux Window Info',
  description:
    'One window\'s id, name, index, size, layout, pane count and focused pane. Target: window_id, else window_index in ' +
    'the session (session_id, else session_name, else the first session), else that session\'s first window.',
  toolset: 'inspect',
  input: params({ ...WINDOW_TARGET, socket_name: SOCKET_NAME }),
  output: windowSchema,
  async handler(args, { engine }) {
    checkTarget(args);
    return modelResult(windowWire(await resolveWindow(engine, args)));
  },
});

export const getPaneInfo = pythonTool({
  name: 'get_pane_info',
  title: 'Get Pane Info',
  description:
    'One pane\'s details: what runs in it (pane_current_command), working directory, size, position in the window, ' +
    `tty, pid, title, and is_caller. ${TARGETING_NOTE} For the pane's text use capture_pane; for text and cursor ` +
    'state together, snapshot_pane.',
  toolset: 'inspect',
  input: params({ ...PANE_TARGET, socket_name: SOCKET_NAME }),
  output: paneSchema,
  async handler(args, { engine }) {
    checkTarget(args);
    return modelResult(await paneWire(engine, await resolvePane(engine, args)));
  },
});

export const findPaneByPosition = pythonTool({
  name: 'find_pane_by_position',
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
    const window = await resolveWindow(engine, args);
    const best = paneAtCorner(await listPaneDetails(engine, { windowId: window.id }), args.corner);
    if (!best) throw notFound(`No pane found at corner '${args.corner}' in window ${window.id}`, 'Call list_panes with window_id to see the panes and their positions.');
    return modelResult(await paneWire(engine, best));
  },
});
