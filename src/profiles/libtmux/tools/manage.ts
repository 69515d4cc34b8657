/** The manage tools: rename, move, resize, select, lay out and configure what exists, without creating or closing anything. */
import {
  checkCells,
  checkDisplayText,
  checkSessionName,
  checkWindowName,
  invalidArgument,
  MAX_HISTORY_LIMIT,
  movePlacement,
  NAMED_LAYOUTS,
  type PaneResize,
  placementTarget,
  renameSession,
  renameWindow,
  resizePane,
  resizeWindow,
  resolvePane,
  resolvePlacement,
  resolveSession,
  resolveWindow,
  selectLayout,
  selectPane,
  selectPlacement,
  setHistoryLimit,
  setMouse,
  setPaneTitle,
  swapPanes,
} from '../../../core/index.js';
import { boolean, enumOf, integer, object, type Static, string } from '../../../mcp/tools/schema.js';
import { CHANGES, libtmuxTool } from '../declare.js';

export const moveWindowTool = libtmuxTool({
  name: 'move_window',
  targets: ['session', 'sourceSession', 'windowId'],
  title: 'Move window',
  description:
    'Move a window to another index in its session, or into another session. `session` is the destination ' +
    '(default: the session it is in now) and `index` the destination index (default: the first free index there). ' +
    'A taken index is refused rather than overwritten, and so is moving the last window out of a session (tmux ' +
    'would end that session). The move does not change which window is current in either session (use ' +
    'select_window for that). Its panes and their programs are untouched; the window id stays, and the result ' +
    'gives the new session:index. A window linked into several sessions (or twice into one) must be narrowed to ' +
    'the placement to move with `sourceSession` and/or `sourceIndex`.',
  ...CHANGES,
  input: object(
    {
      windowId: string({ description: 'Window to move: window id (@1), window ref, or window-link ref (linkRef from list_windows).' }),
      index: integer({
        minimum: 0,
        description: 'Destination window index; must be free. Default: the first free index in the destination session.',
      }),
      session: string({ description: 'Destination session: id ($0), exact name, or session ref. Default: the session the window is in.' }),
      sourceIndex: integer({
        minimum: 0,
        description: 'Move the placement at this index; needed when the window sits twice in one session.',
      }),
      sourceSession: string({
        description:
          'Move the placement in this session (id, exact name, or session ref); needed when the window is linked into several sessions.',
      }),
    },
    ['windowId'],
  ),
  output: object(
    {
      windowId: string({ description: 'Id of the moved window (@N); unchanged by the move.' }),
      target: string({ description: 'Where the window is now, as session id and window index, like $1:3.' }),
    },
    ['target', 'windowId'],
  ),
  async handler(args, { ctx }) {
    const { engine } = ctx;
    const link = await resolvePlacement(engine, args.windowId, args);
    const destination = await resolveSession(engine, args.session ?? link.sessionId);
    const moved = await movePlacement(engine, link, destination, args.index);
    return { structured: { windowId: moved.id, target: placementTarget(moved) } };
  },
});

/** What a rename tool answers: the object's id, and the name tmux now holds. */
function renamed(key: string, idDescription: string, noun: string) {
  const properties = {
    [key]: string({ description: idDescription }),
    name: string({ description: `The name tmux now holds for the ${noun}.` }),
  };
  return object(properties, ['name', key]);
}

export const renameSessionTool = libtmuxTool({
  name: 'rename_session',
  targets: ['session'],
  title: 'Rename session',
  description:
    'Give a session a new name. The name is stored exactly as given (no tmux format expansion: "#" stays "#"). ' +
    'It must be non-empty and unique on the server, and must not contain ":" or "." (tmux reserves them for ' +
    'targets), control characters, backslashes, or "$" before a letter, "_" or "{" (tmux would store those ' +
    'escaped). The session id ($N) does not change, so ids and refs from list_sessions stay valid. To rename a ' +
    'window use rename_window.',
  ...CHANGES,
  inputLiteralization: { name: 'double-hash-once' },
  input: object(
    {
      session: string({ description: 'Session to rename: id ($0), exact current name, or session ref.' }),
      name: string({ description: 'New session name, taken literally. Not empty; no ":", ".", "\\", "$VAR" or control characters.' }),
    },
    ['name', 'session'],
  ),
  output: renamed('sessionId', 'Id of the renamed session ($N); unchanged by the rename.', 'session'),
  async handler(args, { ctx }) {
    checkSessionName(args.name);
    const session = await resolveSession(ctx.engine, args.session);
    const now = await renameSession(ctx.engine, session, args.name);
    return { structured: { sessionId: now.id, name: now.name } };
  },
});

export const renameWindowTool = libtmuxTool({
  name: 'rename_window',
  targets: ['windowId'],
  title: 'Rename window',
  description:
    'Give a window a new name, shown in the status line and in list_windows. The name is stored exactly as given ' +
    '(no tmux format expansion: "#" stays "#"). It must be non-empty and must not contain control characters, ' +
    'backslashes, or "$" before a letter, "_" or "{" (tmux would store those escaped). tmux turns off automatic ' +
    'renaming for the window, so the name stays when its program changes. A window linked into several sessions ' +
    'has one name everywhere. To rename a session use rename_session; to label a pane use set_pane_title.',
  ...CHANGES,
  inputLiteralization: { name: 'double-hash-once' },
  input: object(
    {
      windowId: string({ description: 'Window to rename: window id (@1), window ref, or window-link ref.' }),
      name: string({ description: 'New window name, taken literally. Not empty; no "\\", "$VAR" or control characters.' }),
    },
    ['name', 'windowId'],
  ),
  output: renamed('windowId', 'Id of the renamed window (@N).', 'window'),
  async handler(args, { ctx }) {
    checkWindowName(args.name);
    const window = await resolveWindow(ctx.engine, args.windowId);
    const now = await renameWindow(ctx.engine, window, args.name);
    return { structured: { windowId: now.id, name: now.name } };
  },
});

const resizePaneInput = object(
  {
    paneId: string({ description: 'Pane to resize: pane id (%3) or pane ref.' }),
    amount: integer({
      minimum: 1,
      description: 'Cells to move the border by (1 to 10000), with `direction`. Default 1; tmux stops at the window edge.',
    }),
    direction: enumOf(['up', 'down', 'left', 'right'], { description: "Which way to move the pane's border; required with `amount`." }),
    width: integer({ minimum: 1, description: 'Absolute width in columns (at most 10000; tmux keeps it within the window).' }),
    height: integer({ minimum: 1, description: 'Absolute height in rows (at most 10000; tmux keeps it within the window).' }),
    zoom: boolean({ description: 'true: zoom this pane to fill its window; false: unzoom its window. Use alone.' }),
  },
  ['paneId'],
);

export const resizePaneTool = libtmuxTool({
  name: 'resize_pane',
  targets: ['paneId'],
  title: 'Resize pane',
  description:
    "Change a pane's size inside its window, in one of three ways (pick exactly one): " +
    '(1) `direction` (+ optional `amount`, default 1): move a border of the pane that many cells up, down, left or ' +
    "right; tmux moves the pane's bottom/right border, or its top/left border when the pane is the last in that " +
    'direction, so "up" shrinks a top pane and grows a bottom one. ' +
    '(2) `width` and/or `height`: set an absolute size in cells; its neighbours give or take the difference. ' +
    '(3) `zoom`: true makes this pane fill its window (others hidden, not closed); false shows all panes again. ' +
    'A pane can never outgrow its window, and one that already spans the window in that direction cannot change: ' +
    'that fails with nothing changed; use resize_window for the window itself. Resizing unzooms a zoomed window. ' +
    "The text result reports the pane's new size.",
  ...CHANGES,
  input: resizePaneInput,
  output: object({ paneId: string({ description: 'Id of the resized pane (%N).' }) }, ['paneId']),
  async handler(args, { ctx }) {
    const request = resizeRequest(args);
    const pane = await resolvePane(ctx.engine, args.paneId);
    const result = await resizePane(ctx.engine, pane, request);
    const structured = { paneId: result.pane.id };
    return { structured, text: `${JSON.stringify(structured)}\n${result.summary}` };
  },
});

/** Exactly one of the three ways, with nothing from the others. */
function resizeRequest(args: Static<typeof resizePaneInput>): PaneResize {
  const step = args.direction !== undefined || args.amount !== undefined;
  const size = args.width !== undefined || args.height !== undefined;
  const zoom = args.zoom !== undefined;
  const chosen = [step && 'direction/amount', size && 'width/height', zoom && 'zoom'].filter(Boolean);
  if (chosen.length === 0) throw invalidArgument('say how to resize: give direction (and amount), or width and/or height, or zoom');
  if (chosen.length > 1) throw invalidArgument(`use one way to resize at a time, not ${chosen.join(' and ')}`);
  if (zoom) return { kind: 'zoom', zoom: args.zoom! };
  if (step) {
    if (args.direction === undefined) throw invalidArgument('amount needs a direction (up, down, left or right)');
    checkCells(args.amount, 'amount');
    return { kind: 'step', direction: args.direction, amount: args.amount ?? 1 };
  }
  checkCells(args.width, 'width');
  checkCells(args.height, 'height');
  return { kind: 'size', width: args.width, height: args.height };
}

export const resizeWindowTool = libtmuxTool({
  name: 'resize_window',
  targets: ['windowId'],
  title: 'Resize window',
  description:
    "Set a window's size in cells (columns x rows, 1 to 10000 each); give `width`, `height` or both, an omitted " +
    "one stays as it is. Panes are scaled to fit. The size is pinned: tmux sets the window's window-size option to " +
    '"manual", so terminals attached later do not fit the window to themselves (a larger window is cropped on a ' +
    'smaller screen). Programs in the panes see the new size. The text result reports the size now in force; a ' +
    'size tmux did not apply is an error. For one pane inside a window use resize_pane.',
  ...CHANGES,
  input: object(
    {
      windowId: string({ description: 'Window to resize: window id (@1), window ref, or window-link ref.' }),
      width: integer({ minimum: 1, description: 'New width in columns (1 to 10000). Omitted: unchanged.' }),
      height: integer({ minimum: 1, description: 'New height in rows (1 to 10000). Omitted: unchanged.' }),
    },
    ['windowId'],
  ),
  output: object({ windowId: string({ description: 'Id of the resized window (@N).' }) }, ['windowId']),
  async handler(args, { ctx }) {
    if (args.width === undefined && args.height === undefined) throw invalidArgument('give width, height, or both');
    checkCells(args.width, 'width');
    checkCells(args.height, 'height');
    const window = await resolveWindow(ctx.engine, args.windowId);
    const now = await resizeWindow(ctx.engine, window, { width: args.width, height: args.height });
    const structured = { windowId: now.id };
    return { structured, text: `${JSON.stringify(structured)}\nWindow ${now.id} is now ${now.width}x${now.height}.` };
  },
});

export const selectLayoutTool = libtmuxTool({
  name: 'select_layout',
  targets: ['windowId'],
  title: 'Select layout',
  description:
    'Arrange the panes of a window. `layout` is a tmux preset: even-horizontal (side by side, equal widths), ' +
    'even-vertical (stacked, equal heights), main-horizontal (one large pane on top, the rest below), ' +
    'main-vertical (one large pane on the left, the rest beside it) or tiled (a grid). Or it is a layout string ' +
    'exactly as tmux prints it in #{window_layout}, such as "7922,120x40,0,0{60x40,0,0,1,59x40,61,0,2}", to restore ' +
    'an arrangement saved earlier: it is checked first (checksum, syntax, sizes that add up, and one cell per pane ' +
    "of this window) and panes fill its cells in pane-index order; its overall size becomes the window's size. " +
    'Returns the layout string now in force, which can be passed back later to restore it. Programs in the panes ' +
    'keep running.',
  ...CHANGES,
  input: object(
    {
      windowId: string({ description: 'Window to arrange: window id (@1), window ref, or window-link ref.' }),
      layout: string({ description: `A preset (${NAMED_LAYOUTS.join(', ')}) or a tmux layout string (checksum,WxH,X,Y...).` }),
    },
    ['layout', 'windowId'],
  ),
  output: object(
    {
      windowId: string({ description: 'Id of the window (@N).' }),
      layout: string({ description: 'The layout now in force, as tmux prints it in #{window_layout}.' }),
    },
    ['layout', 'windowId'],
  ),
  async handler(args, { ctx }) {
    const window = await resolveWindow(ctx.engine, args.windowId);
    const now = await selectLayout(ctx.engine, window, args.layout);
    return { structured: { windowId: now.id, layout: now.layout } };
  },
});

export const selectPaneTool = libtmuxTool({
  name: 'select_pane',
  targets: ['paneId'],
  title: 'Select pane',
  description:
    'Make a pane the active pane of its window: the one that gets the keys a person types, and the one tmux ' +
    'commands aimed at the window act on. It does not bring the window to the front of its session (use ' +
    'select_window for that), and it unzooms the window if another pane was zoomed. Tools such as send_keys ' +
    'address panes by id and do not need this.',
  ...CHANGES,
  input: object({ paneId: string({ description: 'Pane to make active: pane id (%3) or pane ref.' }) }, ['paneId']),
  output: object({ paneId: string({ description: 'Id of the now active pane (%N).' }) }, ['paneId']),
  async handler(args, { ctx }) {
    const pane = await resolvePane(ctx.engine, args.paneId);
    const now = await selectPane(ctx.engine, pane);
    return { structured: { paneId: now.id } };
  },
});

export const selectWindowTool = libtmuxTool({
  name: 'select_window',
  targets: ['sourceSession', 'windowId'],
  title: 'Select window',
  description:
    'Make a window the current window of its session: the one an attached terminal shows and the one tmux commands ' +
    'without a target act on. A window linked into several sessions (or twice into one) must be narrowed to one ' +
    'placement with `sourceSession` and/or `sourceIndex`; a window-link ref from list_windows already names its ' +
    'session. Returns the placement as session:index. To change the active pane inside a window use select_pane.',
  ...CHANGES,
  input: object(
    {
      windowId: string({ description: 'Window to select: window id (@1), window ref, or window-link ref (linkRef from list_windows).' }),
      sourceIndex: integer({
        minimum: 0,
        description: 'Only the placement at this window index; needed when the window sits twice in one session.',
      }),
      sourceSession: string({
        description:
          'Only the placement in this session (id $0, exact name, or session ref); needed when the window is linked into several sessions.',
      }),
    },
    ['windowId'],
  ),
  output: object(
    {
      windowId: string({ description: 'Id of the selected window (@N).' }),
      target: string({ description: 'The selected placement as session id and window index, like $0:2.' }),
    },
    ['target', 'windowId'],
  ),
  async handler(args, { ctx }) {
    const link = await resolvePlacement(ctx.engine, args.windowId, args);
    const now = await selectPlacement(ctx.engine, link);
    return { structured: { windowId: now.id, target: placementTarget(now) } };
  },
});

export const setHistoryLimitTool = libtmuxTool({
  name: 'set_history_limit',
  title: 'Set history limit',
  description:
    "Set how many lines of scrollback tmux keeps per pane (the global history-limit option; tmux's own default " +
    'is 2000). It applies to panes created from now on (new sessions, windows and splits); existing panes keep ' +
    'the limit they were created with, and a session that sets its own history-limit keeps that. Raise it before ' +
    'starting a command whose long output you want to read back with capture_pane. Costs memory per pane.',
  toolset: 'manage',
  tmuxEffects: ['change'],
  outputClasses: ['tmux-metadata'],
  input: object(
    { lines: integer({ minimum: 0, maximum: MAX_HISTORY_LIMIT, description: 'Lines of scrollback per new pane, 0 (none) to 2,000,000.' }) },
    ['lines'],
  ),
  output: object({ lines: integer({ description: 'The global history-limit tmux now holds.' }) }, ['lines']),
  async handler(args, { ctx }) {
    return { structured: { lines: await setHistoryLimit(ctx.engine, args.lines) } };
  },
});

export const setMouseEnabledTool = libtmuxTool({
  name: 'set_mouse_enabled',
  title: 'Set mouse enabled',
  description:
    'Turn tmux mouse support on or off for every session (the global mouse option): when on, a person at an ' +
    'attached terminal can click to select panes and windows, drag borders to resize, and scroll into copy mode. ' +
    'It changes nothing for tools that address panes by id. A session that sets its own mouse option keeps that.',
  toolset: 'manage',
  tmuxEffects: ['change'],
  outputClasses: ['tmux-metadata'],
  input: object({ enabled: boolean({ description: 'true turns mouse support on, false turns it off.' }) }, ['enabled']),
  output: object({ enabled: boolean({ description: 'Whether the global mouse option is now on.' }) }, ['enabled']),
  async handler(args, { ctx }) {
    return { structured: { enabled: await setMouse(ctx.engine, args.enabled) } };
  },
});

export const setPaneTitleTool = libtmuxTool({
  name: 'set_pane_title',
  targets: ['paneId'],
  title: 'Set pane title',
  description:
    "Set a pane's title (tmux #{pane_title}, shown in pane borders when pane-border-status is on) to label what " +
    'runs there. The title is stored exactly as given (no tmux format expansion: "#" stays "#"); an empty string ' +
    'clears it; control characters are refused. A program in the pane may later replace it with its own ' +
    'title escape sequence. To name the window instead use rename_window.',
  ...CHANGES,
  inputLiteralization: { title: 'double-hash-once' },
  input: object(
    {
      paneId: string({ description: 'Pane to title: pane id (%3) or pane ref.' }),
      title: string({ description: 'New title, taken literally; empty clears it. No control characters.' }),
    },
    ['paneId', 'title'],
  ),
  output: object(
    {
      paneId: string({ description: 'Id of the pane (%N).' }),
      title: string({ description: 'The title tmux now holds for the pane.' }),
    },
    ['paneId', 'title'],
  ),
  async handler(args, { ctx }) {
    checkDisplayText(args.title, 'title', 'pane title');
    const pane = await resolvePane(ctx.engine, args.paneId);
    const now = await setPaneTitle(ctx.engine, pane, args.title);
    return { structured: { paneId: now.id, title: now.title } };
  },
});

export const swapPaneTool = libtmuxTool({
  name: 'swap_pane',
  targets: ['otherPaneId', 'paneId'],
  title: 'Swap panes',
  description:
    "Swap the positions of two panes: each takes the other's place and size, in the same window or across " +
    'windows and sessions. The panes keep their ids, programs and scrollback; only where they sit changes. The ' +
    'pane that was active stays active where it can. Swapping a pane with itself does nothing. A zoomed window is ' +
    'unzoomed.',
  ...CHANGES,
  input: object(
    {
      paneId: string({ description: 'First pane: pane id (%3) or pane ref.' }),
      otherPaneId: string({ description: 'Second pane, whose place the first one takes: pane id or pane ref.' }),
    },
    ['otherPaneId', 'paneId'],
  ),
  output: object(
    {
      paneId: string({ description: 'Id of the first pane, now where the second one was.' }),
      otherPaneId: string({ description: 'Id of the second pane, now where the first one was.' }),
    },
    ['otherPaneId', 'paneId'],
  ),
  async handler(args, { ctx }) {
    const pane = await resolvePane(ctx.engine, args.paneId);
    const other = await resolvePane(ctx.engine, args.otherPaneId, 'otherPaneId');
    await swapPanes(ctx.engine, pane, other);
    return { structured: { paneId: pane.id, otherPaneId: other.id } };
  },
});
