/** The lifecycle tools: create and close sessions, windows and panes, restart a pane, synchronize, clear history. */
import {
  checkNewSession,
  checkStartDirectory,
  checkWindowName,
  clearScrollback,
  createSession,
  createWindow,
  encodeRef,
  killPane,
  killSession,
  killWindow,
  onPane,
  paneIdFrom,
  resolveSession,
  resolveWindow,
  respawnPane,
  setSynchronizePanes,
  splitPane,
} from '../../../core/index.js';
import { boolean, enumOf, integer, object, string } from '../../../mcp/tools/schema.js';
import { DELETES, STARTS_PROCESS, libtmuxTool } from '../declare.js';
import { paneSchema, paneWire, sessionSchema, sessionWire, windowOccurrenceSchema, windowOccurrenceWire } from '../records.js';

export const createSessionTool = libtmuxTool({
  name: 'create_session',
  title: 'Create session',
  description:
    'Create a new detached tmux session with one window whose pane runs your default shell (no command is ' +
    'accepted; type one afterwards with send_keys or run_shell_command). Starts the tmux server when none is ' +
    'running. Returns the session record; find its first pane with list_panes (session: the returned id). ' +
    'Fails without changing anything when the name is taken (use create_window to add to an existing session), ' +
    'empty, or contains ":" or "." (tmux reserves them for targets) or "$" or "\\" (tmux would store them escaped). ' +
    'Names and directories are taken literally, "#" included. ' +
    "Size defaults to tmux's default-size (usually 80x24).",
  ...STARTS_PROCESS,
  inputLiteralization: { name: 'double-hash-once', startDirectory: 'double-hash-once', windowName: 'double-hash-once' },
  input: object(
    {
      name: string({
        description: 'Name of the new session; must be unused and non-empty, without ":", ".", "$", "\\" or control characters.',
      }),
      windowName: string({ description: 'Name of its first window. Default: tmux names it after the running program.' }),
      startDirectory: string({
        description:
          "Working directory of the first pane: an existing absolute path (~/ allowed). Default: chosen by tmux (this MCP server's directory when the call starts the tmux server, otherwise usually that of an existing session).",
      }),
      width: integer({ minimum: 1, description: 'Initial width in cells (at most 10000). Default: tmux default-size.' }),
      height: integer({ minimum: 1, description: 'Initial height in cells (at most 10000). Default: tmux default-size.' }),
    },
    ['name'],
  ),
  output: sessionSchema,
  async handler(args, { ctx }) {
    const { engine } = ctx;
    const input = await checkNewSession(args);
    const session = await createSession(engine, input);
    return { structured: sessionWire(engine, session) };
  },
});

export const createWindowTool = libtmuxTool({
  name: 'create_window',
  targets: ['session'],
  title: 'Create window',
  description:
    'Add a window to an existing session, at its next free index, with one pane running your default shell (no ' +
    "command is accepted). The window is created in the background: the session's current window does not " +
    'change. Returns the window as placed in that session (id, refs, index, size); get its pane with list_panes ' +
    '(window: the returned id). To add a pane beside an existing one instead, use split_window; for a new ' +
    'session, create_session.',
  ...STARTS_PROCESS,
  inputLiteralization: { name: 'double-hash-once', startDirectory: 'double-hash-once' },
  input: object(
    {
      session: string({ description: 'Session to add the window to: id ($0), exact name, or session ref.' }),
      name: string({ description: 'Window name, taken literally. Default: tmux names it after the running program.' }),
      startDirectory: string({
        description: "Working directory of the pane: an existing absolute path (~/ allowed). Default: tmux's default for the session.",
      }),
    },
    ['session'],
  ),
  output: windowOccurrenceSchema,
  async handler(args, { ctx }) {
    const { engine } = ctx;
    if (args.name !== undefined) checkWindowName(args.name);
    const startDirectory = args.startDirectory === undefined ? undefined : await checkStartDirectory(args.startDirectory);
    const session = await resolveSession(engine, args.session);
    const window = await createWindow(engine, session.id, { name: args.name, startDirectory });
    return { structured: windowOccurrenceWire(engine, window) };
  },
});

export const splitWindowTool = libtmuxTool({
  name: 'split_window',
  targets: ['paneId'],
  title: 'Split window',
  description:
    'Split a pane in two and start your default shell in the new half (no command is accepted). `direction` says ' +
    'where the new pane goes relative to the one split: below (default), above, right or left; the space is ' +
    'shared evenly. Focus stays where it was. Returns the new pane record: use its id with send_keys, ' +
    'run_shell_command or capture_pane. Fails without changing anything when the pane is too small to split. ' +
    'For a separate full-size pane, create_window.',
  ...STARTS_PROCESS,
  inputLiteralization: { startDirectory: 'double-hash-once' },
  input: object(
    {
      paneId: string({ description: 'Pane to split: id (%3) or pane ref.' }),
      direction: enumOf(['right', 'left', 'above', 'below'], {
        description: 'Side of the split pane where the new pane appears. Default below.',
      }),
      startDirectory: string({
        description: "Working directory of the new pane: an existing absolute path (~/ allowed). Default: tmux's default for the session.",
      }),
    },
    ['paneId'],
  ),
  output: paneSchema,
  async handler(args, { ctx }) {
    const { engine } = ctx;
    const startDirectory = args.startDirectory === undefined ? undefined : await checkStartDirectory(args.startDirectory);
    // split-window itself refuses a pane that does not exist: no separate lookup.
    const paneId = await paneIdFrom(engine, args.paneId);
    const created = await onPane(engine, paneId, () => splitPane(engine, paneId, args.direction ?? 'below', startDirectory));
    return { structured: paneWire(engine, created) };
  },
});

export const respawnPaneTool = libtmuxTool({
  name: 'respawn_pane',
  targets: ['paneId'],
  title: 'Respawn pane',
  description:
    "Start the pane's program again in the same pane, keeping its id and place: the usual way to revive a dead " +
    'pane (isDead true) or to reset a stuck one. No command is accepted; the pane runs the program it was ' +
    'created with (for panes made by these tools, your default shell). A pane whose program is still running is ' +
    'refused unless killFirst is true, which ends that program (and everything it runs) first. Refuses the pane ' +
    'this MCP server runs in unless force is true; force also implies killFirst. Returns the pane id and a fresh ' +
    'ref.',
  toolset: 'execute',
  processReach: 'configured-process',
  tmuxEffects: ['change', 'delete', 'observe'],
  outputClasses: ['tmux-metadata'],
  inputLiteralization: { startDirectory: 'double-hash-once' },
  input: object(
    {
      paneId: string({ description: 'Pane to respawn: id (%3) or pane ref.' }),
      killFirst: boolean({
        description: 'End the program still running in the pane before starting again. Default false: a live pane is refused.',
      }),
      startDirectory: string({
        description:
          "Working directory for the new program: an existing absolute path (~/ allowed). Default: the pane's original start directory.",
      }),
      force: boolean({ description: 'Allow respawning the pane this MCP server runs in (and kill its program). Default false.' }),
    },
    ['paneId'],
  ),
  output: object(
    {
      pane: string({ description: 'The pane id, unchanged by the respawn.' }),
      paneRef: string({ description: 'Opaque pane reference, accepted wherever a pane id is.' }),
    },
    ['pane', 'paneRef'],
  ),
  async handler(args, { ctx }) {
    const { engine } = ctx;
    const startDirectory = args.startDirectory === undefined ? undefined : await checkStartDirectory(args.startDirectory);
    // respawn-pane itself refuses a pane that does not exist: no separate lookup.
    const target = await paneIdFrom(engine, args.paneId);
    const pane = await onPane(engine, target, () =>
      respawnPane(engine, target, { killFirst: args.killFirst, force: args.force, startDirectory }),
    );
    return { structured: { pane: pane.id, paneRef: encodeRef('pane', pane.id, pane.incarnation) } };
  },
});

export const setSynchronizePanesTool = libtmuxTool({
  name: 'set_synchronize_panes',
  targets: ['windowId'],
  title: 'Set synchronize panes',
  description:
    "Turn tmux's synchronize-panes on or off for one window. While on, keys sent to any pane of the window " +
    '(by send_keys, paste_text, run_shell_command or a person typing) go to every pane of that window, so one ' +
    'command runs in all of them; list_panes shows isSynchronized. Turn it off again when done, or later input ' +
    'meant for one pane will reach all.',
  toolset: 'execute',
  tmuxEffects: ['change'],
  outputClasses: ['tmux-metadata'],
  amplifiesFutureInput: true,
  input: object(
    {
      windowId: string({ description: 'Window id (@1) or window ref.' }),
      enabled: boolean({ description: 'true to broadcast input to all panes of the window, false to stop.' }),
    },
    ['enabled', 'windowId'],
  ),
  output: object(
    {
      windowId: string({ description: 'The window changed.' }),
      enabled: boolean({ description: 'The setting now in force.' }),
    },
    ['enabled', 'windowId'],
  ),
  async handler(args, { ctx }) {
    const window = await resolveWindow(ctx.engine, args.windowId);
    await setSynchronizePanes(ctx.engine, window.id, args.enabled);
    return { structured: { windowId: window.id, enabled: args.enabled } };
  },
});

/** What a kill tool answers: the object's id, and that it is gone. */
function killed(key: string, noun: string) {
  const properties = {
    [key]: string({ description: `The ${noun} killed.` }),
    deleted: boolean({ description: `Always true: the ${noun} is gone.` }),
  };
  return object(properties, ['deleted', key]);
}

export const killPaneTool = libtmuxTool({
  name: 'kill_pane',
  targets: ['paneId'],
  title: 'Kill pane',
  description:
    'Close a pane and end the program in it (SIGHUP to its process group); what it showed is lost. The other panes ' +
    "of the window take its space; killing a window's last pane closes the window, and a session's last window " +
    'the session. Refuses the pane this MCP server runs in unless force is true. To restart the program but keep ' +
    'the pane, use respawn_pane.',
  ...DELETES,
  input: object(
    {
      paneId: string({ description: 'Pane to kill: id (%3) or pane ref.' }),
      force: boolean({ description: 'Allow killing the pane this MCP server runs in. Default false.' }),
    },
    ['paneId'],
  ),
  output: killed('paneId', 'pane'),
  async handler(args, { ctx }) {
    // kill-pane itself refuses a pane that does not exist: no separate lookup.
    const paneId = await paneIdFrom(ctx.engine, args.paneId);
    await onPane(ctx.engine, paneId, () => killPane(ctx.engine, paneId, args.force));
    return { structured: { paneId, deleted: true } };
  },
});

export const killWindowTool = libtmuxTool({
  name: 'kill_window',
  targets: ['windowId'],
  title: 'Kill window',
  description:
    'Close a window with all its panes, ending their programs; it disappears from every session it is linked ' +
    'into, and a session left without windows closes. Refuses a window holding the pane this MCP server runs in ' +
    'unless force is true. To close one pane, use kill_pane.',
  ...DELETES,
  input: object(
    {
      windowId: string({ description: 'Window to kill: id (@1), window ref, or window-link ref.' }),
      force: boolean({ description: 'Allow killing the window that holds the pane this MCP server runs in. Default false.' }),
    },
    ['windowId'],
  ),
  output: killed('windowId', 'window'),
  async handler(args, { ctx }) {
    const window = await resolveWindow(ctx.engine, args.windowId);
    await killWindow(ctx.engine, window.id, args.force);
    return { structured: { windowId: window.id, deleted: true } };
  },
});

export const killSessionTool = libtmuxTool({
  name: 'kill_session',
  targets: ['session'],
  title: 'Kill session',
  description:
    'Close a session with all its windows and panes, ending their programs; anyone attached to it is detached. ' +
    'Killing the last session also stops the tmux server (list_sessions then returns an empty list, and ' +
    'create_session starts a new server). Refuses the session holding the pane this MCP server runs in unless ' +
    'force is true.',
  ...DELETES,
  input: object(
    {
      session: string({ description: 'Session to kill: id ($0), exact name, or session ref.' }),
      force: boolean({ description: 'Allow killing the session that holds the pane this MCP server runs in. Default false.' }),
    },
    ['session'],
  ),
  output: killed('sessionId', 'session'),
  async handler(args, { ctx }) {
    const session = await resolveSession(ctx.engine, args.session);
    await killSession(ctx.engine, session.id, args.force);
    return { structured: { sessionId: session.id, deleted: true } };
  },
});

export const clearPaneScrollbackTool = libtmuxTool({
  name: 'clear_pane_scrollback',
  targets: ['paneId'],
  title: 'Clear pane scrollback',
  description:
    "Delete a pane's scrollback history: the lines that scrolled off above the screen. The visible screen and " +
    'the running program are untouched. Useful before a command whose output you will search or capture, so old ' +
    'output cannot match; the history cannot be recovered.',
  toolset: 'teardown',
  tmuxEffects: ['delete'],
  outputClasses: ['tmux-metadata'],
  input: object({ paneId: string({ description: 'Pane whose history to clear: id (%3) or pane ref.' }) }, ['paneId']),
  output: object(
    {
      paneId: string({ description: 'The pane cleared.' }),
      deleted: boolean({ description: 'Always true: its scrollback is gone.' }),
    },
    ['deleted', 'paneId'],
  ),
  async handler(args, { ctx }) {
    // clear-history itself refuses a pane that does not exist: no separate lookup.
    const paneId = await paneIdFrom(ctx.engine, args.paneId);
    await onPane(ctx.engine, paneId, () => clearScrollback(ctx.engine, paneId));
    return { structured: { paneId, deleted: true } };
  },
});
