/** The lifecycle tools: create, respawn and close sessions, windows and panes, clear a pane, end a server. */
import { randomBytes } from 'node:crypto';
import {
  checkNewSession,
  checkWindowName,
  clearPane as resetPane,
  createSession,
  createWindow,
  getWindow,
  invalidArgument,
  killPane as removePane,
  killServer,
  killSession as removeSession,
  killWindow as removeWindow,
  onPane,
  PANE_ID,
  paneDetail,
  respawnPane,
  splitPane,
  typedCommand,
  WINDOW_ID,
} from '../../../core/index.js';
import { modelResult, pythonTool, textResult } from '../declare.js';
import { paneSchema, paneWire, sessionSchema, sessionWire, windowSchema, windowWire } from '../records.js';
import {
  choice,
  defaulted,
  field,
  optional,
  PANE_TARGET,
  params,
  SESSION_TARGET,
  SOCKET_NAME,
  TARGETING_NOTE,
  WINDOW_TARGET,
  WRAPPED_TEXT,
} from '../schema.js';
import { SPAWN_FIELDS, spawnSettings } from '../spawn.js';
import { checkId, checkTarget, targetedPaneId, targetedSession } from '../targets.js';

export const createSessionTool = pythonTool({
  name: 'create_session',
  title: 'Create tmux Session',
  description:
    'Start a new detached session (and the tmux server, if none runs on the socket) with one window running the default ' +
    'shell; returns the session, whose active_pane_id is the pane to type into. session_name must be unique (default: a ' +
    'generated name); window_name names its first window; x/y set its size in cells (default 80x24 as tmux chooses). ' +
    'To add a window to an existing session use create_window; to divide a window, split_window.',
  toolset: 'execute',
  input: params({
    session_name: optional('string', 'Name of the new session; must not exist yet. Default: a generated unique name.'),
    window_name: optional('string', 'Name of its first window. Default: tmux names it after the running program.'),
    start_directory: SPAWN_FIELDS.start_directory!,
    x: optional('integer', "Width in cells (1 to 10000). Default: tmux's default-size."),
    y: optional('integer', "Height in cells (1 to 10000). Default: tmux's default-size."),
    environment: {
      ...SPAWN_FIELDS.environment!,
      description:
        'Environment variables for the session (kept in its environment, so later panes inherit them), as {"NAME": "value"} or that object as a JSON string.',
    },
    socket_name: SOCKET_NAME,
    suppress_persistent_history: SPAWN_FIELDS.suppress_persistent_history!,
  }),
  output: sessionSchema,
  async handler(args, { engine }) {
    const spawn = await spawnSettings(args);
    const input = await checkNewSession({
      name: args.session_name ?? `mcp-${randomBytes(3).toString('hex')}`,
      ...(args.window_name != null ? { windowName: args.window_name } : {}),
      ...(args.x != null ? { width: args.x } : {}),
      ...(args.y != null ? { height: args.y } : {}),
      ...spawn,
    });
    const session = await createSession(engine, input);
    return modelResult(sessionWire(session));
  },
});

export const createWindowTool = pythonTool({
  name: 'create_window',
  targets: ['session_id', 'session_name'],
  title: 'Create tmux Window',
  description:
    'Add a window to a session (session_id, else session_name, else the first session), running the default shell; ' +
    'returns it, with active_pane_id the pane to type into. By default it goes at the next free index and does not take ' +
    'focus; direction "before"/"after" places it next to the current window, attach true makes it current. For a pane ' +
    'beside an existing one use split_window.',
  toolset: 'execute',
  input: params({
    ...SESSION_TARGET,
    window_name: optional('string', 'Name of the window. Default: tmux names it after the running program.'),
    start_directory: SPAWN_FIELDS.start_directory!,
    attach: defaulted('boolean', false, "Make the new window the session's current window. Default false."),
    direction: choice(['before', 'after'], "Insert right before or after the session's current window. Default: the next free index.", {
      nullable: true,
    }),
    socket_name: SOCKET_NAME,
    environment: SPAWN_FIELDS.environment!,
    suppress_persistent_history: SPAWN_FIELDS.suppress_persistent_history!,
  }),
  output: windowSchema,
  async handler(args, { engine }) {
    checkTarget(args);
    // Before anything is made: a name no answer could carry (or tmux would store otherwise) is refused.
    if (args.window_name != null) checkWindowName(args.window_name, 'window_name');
    const spawn = await spawnSettings(args);
    const session = await targetedSession(engine, args);
    const window = await createWindow(engine, session.id, {
      ...(args.window_name != null ? { name: args.window_name } : {}),
      ...spawn,
      ...(args.direction ? { placement: args.direction } : {}),
      select: args.attach ?? false,
    });
    return modelResult(windowWire(window));
  },
});

export const splitWindowTool = pythonTool({
  name: 'split_window',
  targets: ['pane_id', 'session_id', 'session_name', 'window_id'],
  title: 'Split tmux Window',
  description:
    'Divide a pane in two and return the new pane (it does not take focus). direction says where the new pane goes: ' +
    '"right"/"left" (side by side) or "below"/"above"; default below. size is the new pane\'s size: cells (20) or a ' +
    'percentage ("30%"). shell runs a command instead of the default shell (the pane closes when it exits). Target: ' +
    'pane_id, else the first pane of the window (window_id, or window_index in the session). For a whole new window use create_window.',
  toolset: 'execute',
  input: params({
    ...PANE_TARGET,
    window_index: WINDOW_TARGET.window_index,
    direction: choice(['above', 'below', 'left', 'right'], 'Side of the target pane the new pane takes. Default "below".', {
      nullable: true,
    }),
    size: {
      anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }],
      default: null,
      description: 'Size of the new pane: a number of cells (e.g. 20) or a percentage string ("30%"). Default: half.',
    },
    start_directory: SPAWN_FIELDS.start_directory!,
    shell: optional('string', 'Command to run in the new pane instead of the default shell, as a shell command line.'),
    socket_name: SOCKET_NAME,
    environment: SPAWN_FIELDS.environment!,
    suppress_persistent_history: SPAWN_FIELDS.suppress_persistent_history!,
  }),
  output: paneSchema,
  typed: (args) => (args.shell != null ? [typedCommand(args.shell)] : []),
  async handler(args, { engine }) {
    checkTarget(args);
    const spawn = await spawnSettings(args);
    const paneId = await targetedPaneId(engine, args);
    const pane = await onPane(engine, paneId, () =>
      splitPane(engine, paneId, args.direction ?? 'below', spawn.startDirectory, {
        ...(spawn.environment ? { environment: spawn.environment } : {}),
        ...(args.shell != null ? { shell: args.shell } : {}),
        ...(args.size != null ? { size: String(args.size) } : {}),
      }),
    );
    return modelResult(await paneWire(engine, await paneDetail(engine, pane.id)));
  },
});

export const respawnPaneTool = pythonTool({
  name: 'respawn_pane',
  targets: ['pane_id'],
  title: 'Respawn Pane',
  description:
    'Restart the program of a pane in place (same pane id): for a pane whose program exited (a dead pane) or one that is ' +
    'stuck. kill (default true) ends a program that still runs first; with kill false a live pane is refused. shell runs ' +
    "another command instead of the pane's original one. pane_id is required on purpose (no fallback to some other pane). " +
    'Refused for the pane this server runs in. Returns the pane with its new pane_pid.',
  toolset: 'execute',
  input: params(
    {
      pane_id: field('string', 'Pane id like "%3". Required: respawning kills whatever runs there.'),
      kill: defaulted('boolean', true, 'End the program still running in the pane first. Default true; false refuses a live pane.'),
      shell: optional('string', "Command to run instead of the pane's original one, as a shell command line."),
      start_directory: SPAWN_FIELDS.start_directory!,
      environment: SPAWN_FIELDS.environment!,
      socket_name: SOCKET_NAME,
      suppress_persistent_history: SPAWN_FIELDS.suppress_persistent_history!,
    },
    ['pane_id'],
  ),
  output: paneSchema,
  typed: (args) => (args.shell != null ? [typedCommand(args.shell)] : []),
  async handler(args, { engine }) {
    const paneId = checkId(args.pane_id, PANE_ID, 'pane_id', '%3');
    const spawn = await spawnSettings(args);
    await onPane(engine, paneId, () =>
      respawnPane(engine, paneId, {
        killFirst: args.kill ?? true,
        ...(spawn.startDirectory ? { startDirectory: spawn.startDirectory } : {}),
        ...(spawn.environment ? { environment: spawn.environment } : {}),
        ...(args.shell != null ? { shell: args.shell } : {}),
      }),
    );
    return modelResult(await paneWire(engine, await paneDetail(engine, paneId)));
  },
});

export const killPaneTool = pythonTool({
  name: 'kill_pane',
  targets: ['pane_id'],
  title: 'Kill Pane',
  description:
    'Close a pane and end its program (its window closes with its last pane). pane_id is required; there is no fallback. ' +
    'Refused for the pane this server runs in. To restart a program in place use respawn_pane; to empty the screen, clear_pane.',
  toolset: 'teardown',
  input: params({ pane_id: field('string', 'Pane id like "%3" (from list_panes).'), socket_name: SOCKET_NAME }, ['pane_id']),
  output: WRAPPED_TEXT,
  async handler(args, { engine }) {
    const paneId = checkId(args.pane_id, PANE_ID, 'pane_id', '%3');
    await onPane(engine, paneId, () => removePane(engine, paneId, false));
    return textResult(`Pane killed: ${paneId}`);
  },
});

export const killWindowTool = pythonTool({
  name: 'kill_window',
  targets: ['window_id'],
  title: 'Kill tmux Window',
  description:
    'Close a window and every pane in it (ending their programs). window_id is required; there is no fallback. Refused ' +
    'for the window this server runs in. The session ends with its last window.',
  toolset: 'teardown',
  input: params({ window_id: field('string', 'Window id like "@1" (from list_windows).'), socket_name: SOCKET_NAME }, ['window_id']),
  output: WRAPPED_TEXT,
  async handler(args, { engine }) {
    const windowId = checkId(args.window_id, WINDOW_ID, 'window_id', '@1');
    await getWindow(engine, windowId);
    await removeWindow(engine, windowId, false);
    return textResult(`Window killed: ${windowId}`);
  },
});

export const killSessionTool = pythonTool({
  name: 'kill_session',
  targets: ['session_id', 'session_name'],
  title: 'Kill tmux Session',
  description:
    'End a session, its windows and panes and their programs. An explicit session_id or session_name is required (no ' +
    'fallback to the first session). Refused for the session this server runs in. With the last session gone the tmux ' +
    'server exits. To end the whole server use kill_server.',
  toolset: 'teardown',
  input: params({ ...SESSION_TARGET, socket_name: SOCKET_NAME }),
  output: WRAPPED_TEXT,
  async handler(args, { engine }) {
    if (args.session_id == null && args.session_name == null) {
      throw invalidArgument('Refusing to kill without an explicit target', 'Provide session_name or session_id.');
    }
    checkTarget(args);
    const session = await targetedSession(engine, args);
    await removeSession(engine, session.id, false);
    return textResult(`Session killed: ${session.name}`);
  },
});

export const clearPaneTool = pythonTool({
  name: 'clear_pane',
  targets: ['pane_id', 'session_id', 'session_name', 'window_id'],
  title: 'Clear Pane',
  description:
    "Reset a pane's terminal and drop its scrollback, so the next capture shows only what comes after: useful before " +
    `re-running a command whose output you want on its own. The program keeps running. ${TARGETING_NOTE}`,
  toolset: 'teardown',
  input: params({ ...PANE_TARGET, socket_name: SOCKET_NAME }),
  output: WRAPPED_TEXT,
  async handler(args, { engine }) {
    checkTarget(args);
    const paneId = await targetedPaneId(engine, args);
    await onPane(engine, paneId, () => resetPane(engine, paneId));
    return textResult(`Pane cleared: ${paneId}`);
  },
});

export const killServerTool = pythonTool({
  name: 'kill_server',
  title: 'Kill tmux Server',
  description:
    'End a tmux server and every session, window and pane in it, with their programs. Refused for the server this MCP ' +
    'server runs inside. Pass socket_name to end another server; list_servers shows them. To end one session use kill_session.',
  toolset: 'teardown',
  input: params({ socket_name: SOCKET_NAME }),
  output: WRAPPED_TEXT,
  async handler(_args, { engine }) {
    await killServer(engine);
    return textResult('Server killed successfully');
  },
});
