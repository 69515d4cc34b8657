/**
 * Row formats for `list-*` and `display-message`. Fields are joined and rows ended by markers that
 * carry a per-process random nonce, so no byte a program can put in a name, title or path (tabs,
 * `;`, newlines, invalid UTF-8) can forge a field or a row.
 *
 * What tmux prints may come back escaped (tmux 3.4 and newer: versions.ts), so each
 * variable's backslashes are doubled by tmux itself: then a single backslash only ever starts an
 * escape, the escaped form of a marker cannot come from a field, and one decoder reads every version.
 */
import { randomBytes } from 'node:crypto';
import { unescapePrinted } from './versions.js';

const NONCE = randomBytes(6).toString('hex');
const FIELD = `\u001fF${NONCE}`;
const ROW = `R${NONCE}\u001e`;
/** The markers as tmux 3.4 and newer print them (control characters as octal escapes). */
const FIELD_ESCAPED = `\\037F${NONCE}`;
const ROW_ESCAPED = `R${NONCE}\\036`;
const FIELD_SPLIT = new RegExp(`${FIELD}|${FIELD_ESCAPED.replace(/\\/g, '\\\\')}`);
const ROW_END = new RegExp(`(?:${ROW}|${ROW_ESCAPED.replace(/\\/g, '\\\\')})\n?`, 'g');

export interface RowFormat<K extends string> {
  /** The `-F` argument. */
  readonly format: string;
  /** Decodes the command's output lines into one record per row. */
  parse(lines: readonly string[]): Array<Record<K, string>>;
}

/** `fields` maps our key to a tmux format variable (`pane_id`) or a full format (`#{?pane_dead,1,0}`). */
export function rowFormat<K extends string>(fields: Readonly<Record<K, string>>): RowFormat<K> {
  const keys = Object.keys(fields) as K[];
  const format = keys.map((key) => variable(fields[key])).join(FIELD) + ROW;
  return {
    format,
    parse(lines) {
      const rows: Array<Record<K, string>> = [];
      const text = lines.join('\n');
      let start = 0;
      // Each row ends with its marker and the newline tmux puts after it.
      for (const end of text.matchAll(ROW_END)) {
        const values = text.slice(start, end.index).split(FIELD_SPLIT);
        const row = {} as Record<K, string>;
        keys.forEach((key, i) => (row[key] = unescapePrinted(values[i] ?? '')));
        rows.push(row);
        start = end.index + end[0].length;
      }
      return rows;
    },
  };
}

/** A plain variable comes back with its backslashes doubled by tmux's own substitution modifier. */
function variable(spec: string): string {
  return spec.startsWith('#') ? spec : `#{s/\\\\/\\\\\\\\/:${spec}}`;
}

/**
 * Makes text safe where tmux expands formats (names, titles, directories): every run of `#` is
 * doubled, except a run just before `[`, which tmux leaves as it is (a style, `#[...]`).
 */
export function literalFormat(text: string): string {
  return text.replace(/#+/g, (run, at: number) => (text[at + run.length] === '[' ? run : run + run));
}

export const toInt = (value: string): number => {
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) ? n : 0;
};

export const toBool = (value: string): boolean => value === '1';

/**
 * `format` with every strftime conversion taken out. tmux runs strftime over many formats before
 * expanding them, and a conversion that prints nothing (%Z under some TZ) could join what is
 * around it; checks look at both forms.
 */
export function withoutTimeConversions(format: string): string {
  return format.replace(/%[^A-Za-z%]*[A-Za-z%]?/g, '');
}

/** True when `format` holds a `#(...)` shell job (an odd run of `#` before `(`; `##(` is literal text), before or after strftime. */
export function hasShellJob(format: string): boolean {
  const job = /(?:^|[^#])(?:##)*#\(/;
  return job.test(format) || job.test(withoutTimeConversions(format));
}
