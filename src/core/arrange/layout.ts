/**
 * Window layouts: tmux's named layouts, and custom layout strings as tmux prints them in
 * `#{window_layout}` (`checksum,WxH,X,Y{...}`). A custom string is checked here the way tmux
 * checks it (checksum, grammar, pane count, sizes that add up), so a bad one is refused with a
 * precise reason before tmux is asked to change anything.
 */
import { invalidArgument } from '../failure.js';
import type { Engine } from '../engine.js';
import type { WindowRecord } from '../read/records.js';
import { getWindow } from '../targets/resolve.js';

/** The layouts every supported tmux knows by name. */
export const NAMED_LAYOUTS = ['even-horizontal', 'even-vertical', 'main-horizontal', 'main-vertical', 'tiled'] as const;

/** Largest width or height tmux gives a window (WINDOW_MAXIMUM). */
export const MAX_WINDOW_CELLS = 10_000;

// Long enough for hundreds of panes; short enough that parsing depth stays small.
const MAX_LAYOUT_CHARS = 16_384;

export interface LayoutCell {
  readonly width: number;
  readonly height: number;
  readonly x: number;
  readonly y: number;
  /** `pane` is a leaf; `columns` are side by side (`{...}`), `rows` stacked (`[...]`). */
  readonly kind: 'pane' | 'columns' | 'rows';
  readonly children: readonly LayoutCell[];
}

/** tmux's 16-bit layout checksum of the text after `checksum,`. */
export function layoutChecksum(body: string): number {
  let sum = 0;
  for (const byte of Buffer.from(body, 'utf8')) {
    sum = (sum >> 1) + ((sum & 1) << 15);
    sum = (sum + byte) & 0xffff;
  }
  return sum;
}

/** The same body with its checksum in front, as tmux prints it. */
export function withChecksum(body: string): string {
  return `${layoutChecksum(body).toString(16).padStart(4, '0')},${body}`;
}

/** Parses `checksum,cell`; throws a message (not a Failure) saying what is wrong. */
export function parseLayout(text: string): LayoutCell {
  if (text.length > MAX_LAYOUT_CHARS) throw new Error(`it is longer than ${MAX_LAYOUT_CHARS} characters`);
  const head = /^([0-9a-fA-F]{4}),/.exec(text);
  if (!head) throw new Error('it does not start with a 4-digit hex checksum and a comma');
  const body = text.slice(5);
  const want = layoutChecksum(body);
  if (Number.parseInt(head[1]!, 16) !== want) {
    throw new Error(`its checksum ${head[1]} does not match its body (expected ${want.toString(16).padStart(4, '0')})`);
  }
  const parser = new CellParser(body);
  const root = parser.cell();
  if (!parser.done()) throw new Error(`unexpected ${JSON.stringify(body.slice(parser.at, parser.at + 8))} at offset ${parser.at + 5}`);
  return root;
}

/** Number of panes a layout places. */
export function paneCount(cell: LayoutCell): number {
  return cell.kind === 'pane' ? 1 : cell.children.reduce((n, child) => n + paneCount(child), 0);
}

/** tmux's own consistency rule: split children span their parent, and sizes plus borders add up. */
export function sizeProblem(cell: LayoutCell): string | undefined {
  if (cell.width < 1 || cell.height < 1)
    return `the cell at ${cell.x},${cell.y} is ${cell.width}x${cell.height}; every cell needs at least 1x1`;
  if (cell.kind === 'pane') return undefined;
  const across = cell.kind === 'columns';
  let total = 0;
  for (const child of cell.children) {
    if ((across ? child.height : child.width) !== (across ? cell.height : cell.width)) {
      return `a ${across ? 'column' : 'row'} of the ${cell.width}x${cell.height} cell at ${cell.x},${cell.y} is ${child.width}x${child.height}, not ${across ? 'as tall' : 'as wide'} as the cell`;
    }
    const inner = sizeProblem(child);
    if (inner) return inner;
    total += (across ? child.width : child.height) + 1;
  }
  const span = across ? cell.width : cell.height;
  if (total - 1 !== span) {
    return `the ${across ? 'widths' : 'heights'} inside the ${cell.width}x${cell.height} cell at ${cell.x},${cell.y} add up to ${total - 1} with borders, not ${span}`;
  }
  return undefined;
}

/**
 * Checks `layout` for a window with `panes` panes: a named layout, or a custom string that tmux
 * would accept. Returns the root cell of a custom layout, undefined for a named one.
 */
export function checkLayout(layout: string, panes: number, field = 'layout'): LayoutCell | undefined {
  if ((NAMED_LAYOUTS as readonly string[]).includes(layout)) return undefined;
  if (!/^[0-9a-fA-F]{4},/.test(layout)) {
    throw invalidArgument(
      `${field} must be one of ${NAMED_LAYOUTS.join(', ')} or a layout string as tmux prints it (like "7922,120x40,0,0{60x40,0,0,1,59x40,61,0,2}"), got ${JSON.stringify(layout.slice(0, 80))}`,
    );
  }
  let root: LayoutCell;
  try {
    root = parseLayout(layout);
  } catch (error) {
    throw invalidArgument(
      `${field} is not a valid tmux layout: ${(error as Error).message}`,
      'Copy a layout from a window (tmux prints it in #{window_layout}) or use a named layout',
    );
  }
  const count = paneCount(root);
  if (count !== panes) throw invalidArgument(`${field} places ${count} pane${count === 1 ? '' : 's'}, but the window has ${panes}`);
  if (root.width < 1 || root.height < 1 || root.width > MAX_WINDOW_CELLS || root.height > MAX_WINDOW_CELLS) {
    throw invalidArgument(`${field} is ${root.width}x${root.height}; tmux windows are 1 to ${MAX_WINDOW_CELLS} cells each way`);
  }
  const problem = sizeProblem(root);
  if (problem) throw invalidArgument(`${field} does not add up: ${problem}`);
  return root;
}

/**
 * Applies a layout to a window and returns the window as it is now. A custom layout also gives
 * the window the layout's size, as tmux does. The layout is always checked here first: tmux 3.3a
 * crashes (the whole server, every session) on a layout text that does not start with a hex digit.
 */
export async function selectLayout(engine: Engine, window: WindowRecord, layout: string, field = 'layout'): Promise<WindowRecord> {
  checkLayout(layout, window.paneCount, field);
  await engine.run(['select-layout', '-t', window.id, layout]);
  return getWindow(engine, window.id);
}

class CellParser {
  at = 0;
  readonly #text: string;
  constructor(text: string) {
    this.#text = text;
  }

  done(): boolean {
    return this.at === this.#text.length;
  }

  cell(): LayoutCell {
    const width = this.#number();
    this.#expect('x');
    const height = this.#number();
    this.#expect(',');
    const x = this.#number();
    this.#expect(',');
    const y = this.#number();
    // A cell may carry the pane id tmux printed (`,3`), ignored when applying. A comma, digits and
    // then `x` is not an id but the next cell.
    if (this.#text[this.at] === ',' && this.#idFollows()) {
      this.at++;
      this.#number();
    }
    const next = this.#text[this.at];
    if (next !== '{' && next !== '[') return { width, height, x, y, kind: 'pane', children: [] };
    this.at++;
    const children: LayoutCell[] = [this.cell()];
    while (this.#text[this.at] === ',') {
      this.at++;
      children.push(this.cell());
    }
    this.#expect(next === '{' ? '}' : ']');
    return { width, height, x, y, kind: next === '{' ? 'columns' : 'rows', children };
  }

  #idFollows(): boolean {
    let i = this.at + 1;
    if (!/\d/.test(this.#text[i] ?? '')) return false;
    while (/\d/.test(this.#text[i] ?? '')) i++;
    return this.#text[i] !== 'x';
  }

  #number(): number {
    const match = /^\d{1,9}/.exec(this.#text.slice(this.at, this.at + 10));
    if (!match) throw new Error(`expected a number at offset ${this.at + 5}`);
    this.at += match[0].length;
    return Number(match[0]);
  }

  #expect(ch: string): void {
    if (this.#text[this.at] !== ch) throw new Error(`expected "${ch}" at offset ${this.at + 5}`);
    this.at++;
  }
}
