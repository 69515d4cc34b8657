/**
 * Renaming sessions and windows and titling panes. tmux format-expands all three, so the text goes
 * through literalFormat() and arrives as typed. Text tmux would silently alter (control characters,
 * which it escapes or drops; `:` and `.` in session names, which it turns into `_`) is refused up
 * front, so the name a caller asks for is the name tmux stores, or nothing changes.
 */
import { literalFormat } from '../../tmux/formats.js';
import { invalidArgument } from '../failure.js';
import type { Engine } from '../engine.js';
import type { PaneLayout, PaneRecord, SessionRecord, WindowRecord } from '../read/records.js';
import { SESSION_ID } from '../../tmux/ids.js';
import { isRef } from '../targets/refs.js';
import { quoted } from '../quote.js';
import { listSessions } from '../read/listings.js';
import { getPane, getSession, getWindow } from '../targets/resolve.js';

// C0 controls, DEL and C1 controls: tmux shows them as escapes in names and ignores such titles.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
// tmux stores names through stravis, which backslash-escapes every `\` and a `$` that could start
// a variable ($HOME, ${X}), so such a name would read back differently.
const ESCAPED_IN_NAMES = /\\|\$[A-Za-z_{]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when `text` holds half of a surrogate pair on its own: JSON can carry one, UTF-8 cannot. */
export const hasLoneSurrogate = (text: string): boolean => LONE_SURROGATE.test(text);

/**
 * The longest name or title taken, in characters. Every listing and record repeats names, so a
 * longer one would make answers about it (and listings of its neighbours) outgrow the response cap.
 */
const MAX_NAME_CHARS = 1024;

/** Rejects text tmux would not store verbatim in a name or title, or too long to report back. */
export function checkDisplayText(text: string, field: string, what: string): void {
  if (text.length > MAX_NAME_CHARS)
    throw invalidArgument(`${field} is ${text.length} characters long; a ${what} may have at most ${MAX_NAME_CHARS}`);
  if (hasLoneSurrogate(text)) throw invalidArgument(`${field} is not valid Unicode (it has an unpaired surrogate)`);
  const control = CONTROL.exec(text);
  if (control) {
    const code = control[0].codePointAt(0)!.toString(16).padStart(4, '0');
    throw invalidArgument(`${field} contains the control character U+${code}; tmux would not keep it in a ${what} as given`);
  }
}

/** Rejects names tmux would store escaped rather than as typed. */
function checkUnescaped(name: string, field: string, what: string): void {
  const escaped = ESCAPED_IN_NAMES.exec(name);
  if (escaped) {
    throw invalidArgument(
      `${field} contains ${JSON.stringify(escaped[0])}, which tmux would store with an extra backslash in a ${what}`,
      escaped[0] === '\\' ? 'Leave out the backslash' : 'Leave out the "$" or put a space or punctuation after it',
    );
  }
}

/** A session name tmux keeps exactly and that this server can address by name later. */
export function checkSessionName(name: string, field = 'name'): void {
  if (name === '') throw invalidArgument(`${field} must not be empty`);
  if (/[:.]/.test(name)) {
    throw invalidArgument(
      `${field} ${quoted(name)} contains "${/[:.]/.exec(name)![0]}"; tmux does not allow ":" or "." in session names (it would rename it with "_")`,
    );
  }
  if (SESSION_ID.test(name))
    throw invalidArgument(`${field} ${quoted(name)} looks like a session id; choose a name that is not "$" and digits`);
  if (isRef(name)) throw invalidArgument(`${field} must not start with "tmux1_", which marks a ref`);
  checkDisplayText(name, field, 'session name');
  checkUnescaped(name, field, 'session name');
}

/** A window name tmux keeps exactly. */
export function checkWindowName(name: string, field = 'name'): void {
  if (name === '') throw invalidArgument(`${field} must not be empty`);
  checkDisplayText(name, field, 'window name');
  checkUnescaped(name, field, 'window name');
}

/** Renames a session (validate the name with checkSessionName first) and returns it as it is now. */
export async function renameSession(engine: Engine, session: SessionRecord, name: string): Promise<SessionRecord> {
  if (session.name !== name) {
    const clash = (await listSessions(engine)).find((other) => other.name === name && other.id !== session.id);
    if (clash)
      throw invalidArgument(`a session named ${quoted(name)} already exists (${clash.id})`, 'Session names are unique; pick another name');
    await engine.run(['rename-session', '-t', session.id, '--', literalFormat(name)]);
  }
  // The checks refuse what tmux would alter; a change made is answered as made, with what tmux holds.
  return getSession(engine, session.id);
}

/**
 * Renames a window (validate with checkWindowName first) and returns it as it is now. tmux turns
 * off automatic-rename for the window, so the name stays.
 */
export async function renameWindow(engine: Engine, window: WindowRecord, name: string): Promise<WindowRecord> {
  await engine.run(['rename-window', '-t', window.id, '--', literalFormat(name)]);
  return getWindow(engine, window.id);
}

/** Sets a pane's title (validate with checkDisplayText first) and returns the pane as it is now. */
export async function setPaneTitle(engine: Engine, pane: PaneLayout, title: string): Promise<PaneRecord> {
  await engine.run(['select-pane', '-t', pane.id, '-T', literalFormat(title)]);
  return getPane(engine, pane.id);
}
