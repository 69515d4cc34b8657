/** Reading what panes show: capture_pane (tail-preserved text) and snapshot_pane (text plus cursor and mode state). */
import { captureLines, tailBudget } from '../../../core/read/capture.js';
import { invalidArgument } from '../../../core/failure.js';
import { paneDetail } from '../../../core/read/pane-details.js';
import { readVariables } from '../../../core/read/variables.js';
import { modelResult, pythonTool } from '../declare.js';
import { textOnlyResult } from '../errors.js';
import { optional, params, PANE_TARGET, SOCKET_NAME, TARGETING_NOTE } from '../schema.js';
import { checkTarget, resolvePaneId } from '../targets.js';

export const DEFAULT_MAX_LINES = 500;

export function checkMaxLines(value: number | null, field = 'max_lines'): number | null {
  if (value !== null && value < 1) throw invalidArgument(`${field} must be positive or null (received ${value})`, `Pass a number of lines of at least 1, or null for no limit.`);
  return value;
}

export const capturePane = pythonTool({
  name: 'capture_pane',
  title: 'Capture Pane',
  description:
    'Read the text a pane shows (a terminal\'s screen and scrollback, no colours), e.g. a build log or what a server ' +
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
    start: optional('integer', 'First row: 0 is the top of the visible screen, negative rows are scrollback (-100 = 100 rows back). Default: the top of the screen.'),
    end: optional('integer', 'Last row, same numbering. Default: the bottom of the screen.'),
    max_lines: optional('integer', `Most rows returned; older rows beyond it are dropped and counted in a "[... truncated K lines ...]" first line. Default ${DEFAULT_MAX_LINES}; null returns everything.`, DEFAULT_MAX_LINES),
    socket_name: SOCKET_NAME,
  }),
  async handler(args, { engine }) {
    checkTarget(args);
    const maxLines = checkMaxLines(args.max_lines === undefined ? DEFAULT_MAX_LINES : args.max_lines);
    const paneId = await resolvePaneId(engine, args);
    const lines = await engine.onPane(paneId, () => captureLines(engine, paneId, { start: args.start ?? undefined, end: args.end ?? undefined }));
    // By lines only, as the contract truncates; null keeps every line.
    const { lines: kept, droppedLines: dropped } = tailBudget(lines, maxLines ?? lines.length, Infinity);
    return textOnlyResult((dropped ? `[... truncated ${dropped} lines ...]\n` : '') + kept.join('\n'));
  },
});

const SNAPSHOT_VARIABLES = [
  'cursor_x', 'cursor_y', 'pane_in_mode', 'pane_mode', 'scroll_position', 'history_size', 'alternate_on',
] as const;

export const snapshotPane = pythonTool({
  name: 'snapshot_pane',
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
    max_lines: optional('integer', `Most rows of content returned, newest kept. Default ${DEFAULT_MAX_LINES}; null returns the whole screen.`, DEFAULT_MAX_LINES),
    socket_name: SOCKET_NAME,
  }),
  async handler(args, { engine }) {
    checkTarget(args);
    const maxLines = checkMaxLines(args.max_lines === undefined ? DEFAULT_MAX_LINES : args.max_lines);
    const paneId = await resolvePaneId(engine, args);
    const [pane, vars, lines] = await Promise.all([
      paneDetail(engine, paneId),
      readVariables(engine, [...SNAPSHOT_VARIABLES], paneId),
      engine.onPane(paneId, () => captureLines(engine, paneId)),
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
      is_caller: engine.options.caller ? await engine.isCallerPane(pane.id) : null,
      content_truncated: dropped > 0,
      content_truncated_lines: dropped,
    });
  },
});
