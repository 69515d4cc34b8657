/** Arranging what exists: names, focus, layout, sizes, window order, pane order, titles. */
import {
  checkCells,
  checkDisplayText,
  checkSessionName,
  checkWindowName,
  enterCopyMode,
  exitCopyMode,
  getSession,
  invalidArgument,
  movePlacement,
  onPane,
  PANE_ID,
  paneDetail,
  renameSession,
  renameWindow,
  resizePane,
  resizeWindow,
  selectLayout,
  selectPane,
  selectPlacement,
  setPaneTitle,
  stepPane,
  stepWindow,
  swapPanes,
} from '../../../core/index.js';
import { modelResult, pythonTool } from '../declare.js';
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
} from '../schema.js';
import { checkId, checkTarget, targetedPane, targetedPaneId, targetedSession, targetedWindow } from '../targets.js';

const WINDOW_NOTE =
  'Window: window_id, else window_index in the session (session_id, else session_name, else the first session), else its first window.';

export const renameSessionTool = pythonTool({
  name: 'rename_session',
  targets: ['session_id', 'session_name'],
  title: 'Rename tmux Session',
  description:
    'Give a session a new, unique name. Session: session_id, else session_name, else the first session. Returns the session as it is now.',
  toolset: 'manage',
  input: params(
    {
      new_name: field('string', 'The new name; must not be taken by another session, and may not contain ":" or ".".'),
      ...SESSION_TARGET,
      socket_name: SOCKET_NAME,
    },
    ['new_name'],
  ),
  output: sessionSchema,
  async handler(args, { engine }) {
    checkTarget(args);
    checkSessionName(args.new_name, 'new_name');
    return modelResult(sessionWire(await renameSession(engine, await targetedSession(engine, args), args.new_name)));
  },
});

export const renameWindowTool = pythonTool({
  name: 'rename_window',
  targets: ['session_id', 'session_name', 'window_id'],
  title: 'Rename tmux Window',
  description: `Give a window a new name (tmux then stops renaming it after the running program). ${WINDOW_NOTE} Returns the window.`,
  toolset: 'manage',
  input: params({ new_name: field('string', 'The new window name.'), ...WINDOW_TARGET, socket_name: SOCKET_NAME }, ['new_name']),
  output: windowSchema,
  async handler(args, { engine }) {
    checkTarget(args);
    checkWindowName(args.new_name, 'new_name');
    return modelResult(windowWire(await renameWindow(engine, await targetedWindow(engine, args), args.new_name)));
  },
});

export const selectWindowTool = pythonTool({
  name: 'select_window',
  targets: ['session_id', 'session_name', 'window_id'],
  title: 'Select tmux Window',
  description:
    'Make a window the current window of its session (what an attached person sees): by window_id, by window_index in ' +
    'the session, or by direction "next", "previous" or "last" (the one used before). Session: session_id, else ' +
    'session_name, else the first session. Returns the window now current.',
  toolset: 'manage',
  input: params({
    ...WINDOW_TARGET,
    direction: choice(
      ['next', 'previous', 'last'],
      'Step from the current window instead of naming one: next, previous, or last (the previously current window).',
      { nullable: true },
    ),
    socket_name: SOCKET_NAME,
  }),
  output: windowSchema,
  async handler(args, { engine }) {
    checkTarget(args);
    if (args.window_id == null && args.window_index == null && args.direction == null) {
      throw invalidArgument('Provide window_id, window_index, or direction.');
    }
    if (args.window_id == null && args.window_index == null) {
      const session = await targetedSession(engine, args);
      return modelResult(windowWire(await stepWindow(engine, session.id, args.direction!)));
    }
    return modelResult(windowWire(await selectPlacement(engine, await targetedWindow(engine, args))));
  },
});

export const selectPaneTool = pythonTool({
  name: 'select_pane',
  targets: ['pane_id', 'session_id', 'session_name', 'window_id'],
  title: 'Select Pane',
  description:
    'Make a pane the active pane of its window: by pane_id, or by direction from the window\'s active pane ("up", "down", ' +
    '"left", "right", "last" for the one active before, "next"/"previous" in index order). Window for a direction: ' +
    'window_id, else window_index in the session, else the first window of the session. Returns the pane now active. ' +
    'Not needed before typing: tools that type take a pane_id.',
  toolset: 'manage',
  input: params({
    pane_id: PANE_TARGET.pane_id,
    direction: choice(
      ['up', 'down', 'left', 'right', 'last', 'next', 'previous'],
      'Move the focus from the active pane instead of naming one.',
      { nullable: true },
    ),
    ...WINDOW_TARGET,
    socket_name: SOCKET_NAME,
  }),
  output: paneSchema,
  async handler(args, { engine }) {
    checkTarget(args);
    if (args.pane_id == null && args.direction == null) throw invalidArgument('Provide either pane_id or direction.');
    if (args.pane_id != null) {
      const paneId = checkId(args.pane_id, PANE_ID, 'pane_id', '%3');
      await onPane(engine, paneId, () => selectPane(engine, { id: paneId }));
      return modelResult(await paneWire(engine, await paneDetail(engine, paneId)));
    }
    const window = await targetedWindow(engine, args);
    const paneId = await stepPane(engine, window.id, args.direction!);
    return modelResult(await paneWire(engine, await paneDetail(engine, paneId)));
  },
});

export const selectLayoutTool = pythonTool({
  name: 'select_layout',
  targets: ['session_id', 'session_name', 'window_id'],
  title: 'Select tmux Layout',
  description:
    'Arrange a window\'s panes: a named layout ("even-horizontal", "even-vertical", "main-horizontal", "main-vertical", ' +
    `"tiled") or a layout string saved from window_layout earlier. ${WINDOW_NOTE} Returns the window with its new layout.`,
  toolset: 'manage',
  input: params(
    {
      layout: field(
        'string',
        'A layout name (even-horizontal, even-vertical, main-horizontal, main-vertical, tiled) or a tmux layout string.',
      ),
      ...WINDOW_TARGET,
      socket_name: SOCKET_NAME,
    },
    ['layout'],
  ),
  output: windowSchema,
  async handler(args, { engine }) {
    checkTarget(args);
    return modelResult(windowWire(await selectLayout(engine, await targetedWindow(engine, args), args.layout)));
  },
});

export const resizePaneTool = pythonTool({
  name: 'resize_pane',
  targets: ['pane_id', 'session_id', 'session_name', 'window_id'],
  title: 'Resize Pane',
  description:
    "Set a pane's size in cells (width and/or height), or zoom it to fill its window (zoom true) and back (zoom false). " +
    `zoom cannot be combined with width/height. Other panes of the window give or take the room. ${TARGETING_NOTE} Returns the pane.`,
  toolset: 'manage',
  input: params({
    ...PANE_TARGET,
    height: optional('integer', 'New height in cells (1 to 10000).'),
    width: optional('integer', 'New width in cells (1 to 10000).'),
    zoom: optional('boolean', 'true: zoom the pane to fill its window; false: unzoom. Changes nothing when already in that state.'),
    socket_name: SOCKET_NAME,
  }),
  output: paneSchema,
  async handler(args, { engine }) {
    checkTarget(args);
    const sized = args.height != null || args.width != null;
    if (args.zoom != null && sized)
      throw invalidArgument('zoom cannot be combined with height or width', 'Zoom in one call, resize in another.');
    if (args.zoom == null && !sized) throw invalidArgument('Provide height, width, or zoom.');
    checkCells(args.width ?? undefined, 'width');
    checkCells(args.height ?? undefined, 'height');
    const pane = await targetedPane(engine, args);
    await resizePane(
      engine,
      pane,
      args.zoom != null
        ? { kind: 'zoom', zoom: args.zoom }
        : { kind: 'size', ...(args.width != null ? { width: args.width } : {}), ...(args.height != null ? { height: args.height } : {}) },
    );
    return modelResult(await paneWire(engine, await paneDetail(engine, pane.id)));
  },
});

export const resizeWindowTool = pythonTool({
  name: 'resize_window',
  targets: ['session_id', 'session_name', 'window_id'],
  title: 'Resize tmux Window',
  description: `Set a window's size in cells (width and/or height); its panes are scaled to fit. ${WINDOW_NOTE} Returns the window.`,
  toolset: 'manage',
  input: params({
    ...WINDOW_TARGET,
    height: optional('integer', 'New height in cells (1 to 10000).'),
    width: optional('integer', 'New width in cells (1 to 10000).'),
    socket_name: SOCKET_NAME,
  }),
  output: windowSchema,
  async handler(args, { engine }) {
    checkTarget(args);
    if (args.height == null && args.width == null) throw invalidArgument('Provide height, width, or both.');
    checkCells(args.width ?? undefined, 'width');
    checkCells(args.height ?? undefined, 'height');
    const window = await targetedWindow(engine, args);
    return modelResult(
      windowWire(
        await resizeWindow(engine, window, {
          ...(args.width != null ? { width: args.width } : {}),
          ...(args.height != null ? { height: args.height } : {}),
        }),
      ),
    );
  },
});

export const moveWindowTool = pythonTool({
  name: 'move_window',
  targets: ['destination_session', 'session_id', 'session_name', 'window_id'],
  title: 'Move tmux Window',
  description:
    'Move a window to another index, or into another session. destination_index "" (default) takes the first free index; ' +
    "destination_session (a name or id) defaults to the window's own session. A taken index is refused, and so is moving " +
    `the last window out of a session (tmux would end it). ${WINDOW_NOTE} Returns the window where it is now.`,
  toolset: 'manage',
  input: params({
    ...WINDOW_TARGET,
    destination_index: defaulted('string', '', 'Index to move to, like "3"; "" for the first free index.'),
    destination_session: optional('string', 'Session to move into (a name, or an id like "$1"). Default: the window\'s own session.'),
    socket_name: SOCKET_NAME,
  }),
  output: windowSchema,
  async handler(args, { engine }) {
    checkTarget(args);
    const index = args.destination_index ?? '';
    if (index !== '' && !/^\d{1,6}$/.test(index))
      throw invalidArgument(`destination_index must be a window index like "3" or "", got ${JSON.stringify(index.slice(0, 32))}`);
    const window = await targetedWindow(engine, args);
    const destination =
      args.destination_session != null
        ? await targetedSession(
            engine,
            /^\$\d+$/.test(args.destination_session)
              ? { session_id: args.destination_session }
              : { session_name: args.destination_session },
          )
        : await getSession(engine, window.sessionId);
    return modelResult(windowWire(await movePlacement(engine, window, destination, index === '' ? undefined : Number(index))));
  },
});

export const swapPaneTool = pythonTool({
  name: 'swap_pane',
  targets: ['source_pane_id', 'target_pane_id'],
  title: 'Swap Pane',
  description:
    'Exchange the places of two panes (in one window or across windows); their programs and ids go with them, and focus ' +
    'stays where it was. Returns the source pane in its new place.',
  toolset: 'manage',
  input: params(
    {
      source_pane_id: field('string', 'One pane, like "%3".'),
      target_pane_id: field('string', 'The other pane, like "%4".'),
      socket_name: SOCKET_NAME,
    },
    ['source_pane_id', 'target_pane_id'],
  ),
  output: paneSchema,
  async handler(args, { engine }) {
    const source = await paneDetail(engine, checkId(args.source_pane_id, PANE_ID, 'source_pane_id', '%3'));
    const target = await paneDetail(engine, checkId(args.target_pane_id, PANE_ID, 'target_pane_id', '%3'));
    await swapPanes(engine, source, target);
    return modelResult(await paneWire(engine, await paneDetail(engine, source.id)));
  },
});

export const setPaneTitleTool = pythonTool({
  name: 'set_pane_title',
  targets: ['pane_id', 'session_id', 'session_name', 'window_id'],
  title: 'Set Pane Title',
  description: `Set a pane's title (shown in pane borders and status lines when those show titles; programs may change it again). ${TARGETING_NOTE} Returns the pane.`,
  toolset: 'manage',
  input: params({ title: field('string', 'The new title.'), ...PANE_TARGET, socket_name: SOCKET_NAME }, ['title']),
  output: paneSchema,
  async handler(args, { engine }) {
    checkTarget(args);
    checkDisplayText(args.title, 'title', 'pane title');
    const pane = await targetedPane(engine, args);
    await setPaneTitle(engine, pane, args.title);
    return modelResult(await paneWire(engine, await paneDetail(engine, pane.id)));
  },
});

export const enterCopyModeTool = pythonTool({
  name: 'enter_copy_mode',
  targets: ['pane_id', 'session_id', 'session_name', 'window_id'],
  title: 'Enter Copy Mode',
  description:
    'Put a pane in tmux copy mode (its program keeps running, the view freezes) and optionally scroll scroll_up lines ' +
    'back, e.g. to show a person an earlier part of the output. While in copy mode the pane takes no typed input: leave it ' +
    `with exit_copy_mode. To read scrollback yourself, capture_pane with a negative start is simpler. ${TARGETING_NOTE}`,
  toolset: 'manage',
  input: params({
    ...PANE_TARGET,
    scroll_up: optional('integer', 'Lines to scroll back after entering. Default: none.'),
    socket_name: SOCKET_NAME,
  }),
  output: paneSchema,
  async handler(args, { engine }) {
    checkTarget(args);
    const paneId = await targetedPaneId(engine, args);
    await enterCopyMode(engine, paneId, { scrollUp: args.scroll_up ?? null });
    return modelResult(await paneWire(engine, await paneDetail(engine, paneId)));
  },
});

export const exitCopyModeTool = pythonTool({
  name: 'exit_copy_mode',
  targets: ['pane_id', 'session_id', 'session_name', 'window_id'],
  title: 'Exit Copy Mode',
  description: `Leave copy mode (or any tmux mode) in a pane so it shows its program and takes input again; a pane in no mode is left as it is. ${TARGETING_NOTE}`,
  toolset: 'manage',
  input: params({ ...PANE_TARGET, socket_name: SOCKET_NAME }),
  output: paneSchema,
  async handler(args, { engine }) {
    checkTarget(args);
    const paneId = await targetedPaneId(engine, args);
    await onPane(engine, paneId, () => exitCopyMode(engine, paneId));
    return modelResult(await paneWire(engine, await paneDetail(engine, paneId)));
  },
});
