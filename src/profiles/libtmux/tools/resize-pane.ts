import { boolean, enumOf, integer, object, string } from '../../../mcp/tools/schema.js';
import { invalidArgument } from '../../../core/failure.js';
import { checkCells, resizePane as resize, type Direction, type PaneResize } from '../../../core/arrange/resize.js';
import { libtmuxTool } from '../declare.js';

interface Args {
  paneId: string;
  amount?: number;
  direction?: Direction;
  width?: number;
  height?: number;
  zoom?: boolean;
}

export const resizePane = libtmuxTool({
  name: 'resize_pane',
  title: 'Resize pane',
  description:
    'Change a pane\'s size inside its window, in one of three ways (pick exactly one): ' +
    '(1) `direction` (+ optional `amount`, default 1): move a border of the pane that many cells up, down, left or ' +
    'right; tmux moves the pane\'s bottom/right border, or its top/left border when the pane is the last in that ' +
    'direction, so "up" shrinks a top pane and grows a bottom one. ' +
    '(2) `width` and/or `height`: set an absolute size in cells; its neighbours give or take the difference. ' +
    '(3) `zoom`: true makes this pane fill its window (others hidden, not closed); false shows all panes again. ' +
    'A pane can never outgrow its window, and one that already spans the window in that direction cannot change: ' +
    'that fails with nothing changed; use resize_window for the window itself. Resizing unzooms a zoomed window. ' +
    'The text result reports the pane\'s new size.',
  toolset: 'manage',
  tmuxEffects: ['change', 'observe'],
  outputClasses: ['tmux-metadata'],
  input: object(
    {
      paneId: string({ description: 'Pane to resize: pane id (%3) or pane ref.' }),
      amount: integer({ minimum: 1, description: 'Cells to move the border by (1 to 10000), with `direction`. Default 1; tmux stops at the window edge.' }),
      direction: enumOf(['up', 'down', 'left', 'right'], { description: 'Which way to move the pane\'s border; required with `amount`.' }),
      width: integer({ minimum: 1, description: 'Absolute width in columns (at most 10000; tmux keeps it within the window).' }),
      height: integer({ minimum: 1, description: 'Absolute height in rows (at most 10000; tmux keeps it within the window).' }),
      zoom: boolean({ description: 'true: zoom this pane to fill its window; false: unzoom its window. Use alone.' }),
    },
    ['paneId'],
  ),
  output: object({ paneId: string({ description: 'Id of the resized pane (%N).' }) }, ['paneId']),
  async handler(args: Args, { ctx }) {
    const request = resizeRequest(args);
    const pane = await ctx.engine.resolvePane(args.paneId);
    const result = await resize(ctx.engine, pane, request);
    const structured = { paneId: result.pane.id };
    return { structured, text: `${JSON.stringify(structured)}\n${result.summary}` };
  },
});

/** Exactly one of the three ways, with nothing from the others. */
function resizeRequest(args: Args): PaneResize {
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
