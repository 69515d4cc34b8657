/**
 * Expanding a caller's tmux format (`display-message -p`) globally or in the context of a pane,
 * window or session. The format is meant to be a tmux format, so it is not escaped; what could run
 * a program is refused instead: `#(...)` shell jobs, and the `E:`/`T:` modifiers, which expand a
 * value (a pane title a program set, say) as a format again. The output is bounded.
 */
import { hasShellJob } from '../../tmux/formats.js';
import { PANE_ID, SESSION_ID, WINDOW_ID } from '../../tmux/ids.js';
import { utf8Boundary } from './capture.js';
import type { Engine } from '../engine.js';
import { invalidArgument, notFound, tmuxSaid } from '../failure.js';
import { checkFormatReach, checkReexpanding } from '../targets/scope-formats.js';

const MAX_FORMAT_CHARS = 4096;
/** Most bytes of expanded text returned; the rest is cut and counted. */
export const MAX_DISPLAY_BYTES = 64 * 1024;

export function checkFormat(format: string, field = 'format_string'): void {
  if (format.length > MAX_FORMAT_CHARS) throw invalidArgument(`${field} is longer than ${MAX_FORMAT_CHARS} characters`);
  if (format.includes('\0')) throw invalidArgument(`${field} must not contain NUL bytes`);
  if (hasShellJob(format)) {
    throw invalidArgument(
      `${field} holds a #(...) shell job, which tmux would run as a command; shell jobs are not allowed here`,
      'Read values with #{variable}; write ##( for a literal "#(".',
    );
  }
  checkReexpanding(format, field);
}

export interface DisplayResult {
  /** The expanded text (lines joined with "\n"), at most MAX_DISPLAY_BYTES bytes. */
  readonly text: string;
  /** Bytes cut from the end to keep within MAX_DISPLAY_BYTES (0: nothing cut). */
  readonly truncatedBytes: number;
}

/**
 * Expands `format` (checked with checkFormat) as tmux does for `display-message -p`, strftime
 * `%` sequences included, in the context of `target` (a pane, window or session id; absent: the
 * server's current one).
 */
export async function displayMessage(engine: Engine, format: string, target?: string): Promise<DisplayResult> {
  checkFormat(format);
  checkFormatReach(engine.scope, format, 'format_string');
  if (target !== undefined && !PANE_ID.test(target) && !WINDOW_ID.test(target) && !SESSION_ID.test(target)) {
    throw invalidArgument(`target must be a pane id (%3), window id (@1) or session id ($0), got ${JSON.stringify(target.slice(0, 80))}`);
  }
  // `--`: a format starting with "-" is still the format, not more flags.
  const command = ['display-message', '-p', ...(target === undefined ? [] : ['-t', target]), '--', format];
  if (target === undefined) return bounded(await engine.run(command));
  // tmux expands a missing target's fields to "" instead of failing: its id, read alongside, tells.
  const kind = PANE_ID.test(target) ? 'pane' : WINDOW_ID.test(target) ? 'window' : 'session';
  const [found, lines] = await Promise.all([
    engine.run(['display-message', '-p', '-t', target, `#{${kind}_id}`]).catch((error: unknown) => {
      if (tmuxSaid(error, /can't find|no such|not found/i)) return [];
      throw error;
    }),
    engine.run(command),
  ]);
  if (found[0] !== target) throw notFound(`no ${kind} ${target} on this tmux server`, 'List what exists now and pick a current id.');
  return bounded(lines);
}

function bounded(lines: readonly string[]): DisplayResult {
  const full = Buffer.from(lines.join('\n'), 'utf8');
  const end = utf8Boundary(full, MAX_DISPLAY_BYTES);
  return { text: full.subarray(0, end).toString('utf8'), truncatedBytes: full.length - end };
}
