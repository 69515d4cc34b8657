/**
 * What a command and its pane must be before anything is typed: command text a terminal line and
 * the frame can carry, and a pane whose foreground is a shell the frame is written for (given a
 * moment to be back at one), not dead, in no mode, not synchronized, not the caller's own.
 */
import type { Engine } from '../engine.js';
import { invalidArgument, refused } from '../failure.js';
import type { PaneRecord } from '../read/records.js';
import { FISH } from './run-frame.js';
import { PROMPT_GRACE_MS, PROMPT_POLL_MS } from './shell-integration/readiness.js';
import { guardCaller } from '../targets/caller-guard.js';
import { getPane } from '../targets/resolve.js';

/** Shells the POSIX frame is written for. */
export const POSIX_SHELLS = new Set([
  'sh',
  'bash',
  'dash',
  'zsh',
  'ksh',
  'ksh93',
  'mksh',
  'lksh',
  'oksh',
  'pdksh',
  'ash',
  'busybox',
  'yash',
  'posh',
  'rbash',
]);
/** Shells neither frame is valid in: refused even with force. */
export const NON_POSIX_SHELLS = new Set(['csh', 'tcsh', 'nu', 'nushell', 'pwsh', 'powershell', 'xonsh', 'elvish', 'ion', 'rc', 'es']);

/** A terminal in canonical mode (dash, sh) takes at most 4095 bytes per line; stay below it. */
const MAX_LINE_BYTES = 4000;
const MAX_COMMAND_BYTES = 64 * 1024;

/** The libtmux profile's way of saying it; others pass their own. */
export const DEFAULT_INTERRUPT_ADVICE = 'send_keys ["C-c"]';

/** Checks the command text; returns it normalised (CRLF to LF, trailing blank lines and spaces removed). */
export function checkCommand(command: string): string {
  const text = command.replace(/\r\n/g, '\n').replace(/\s+$/, '');
  if (text.trim().length === 0) throw invalidArgument('command is empty');
  // eslint-disable-next-line no-control-regex
  const control = /[\x00-\x09\x0b-\x1f\x7f]/.exec(text);
  if (control) {
    const code = control[0].charCodeAt(0);
    const what =
      code === 0x09
        ? 'a tab (an interactive shell would try to complete it)'
        : code === 0x0d
          ? 'a carriage return'
          : `the control character 0x${code.toString(16).padStart(2, '0')}`;
    throw invalidArgument(
      `command contains ${what}; it would be read as a keystroke, not as text`,
      "Write it with printf escapes instead (printf '\\t'), or use send_keys for keystrokes.",
    );
  }
  if (text.endsWith('\\')) throw invalidArgument('command ends with a backslash, which would continue the line into the frame around it');
  if (Buffer.byteLength(text, 'utf8') > MAX_COMMAND_BYTES) {
    throw invalidArgument(`command is longer than ${MAX_COMMAND_BYTES} bytes`, 'Write it to a script file and run that.');
  }
  for (const line of text.split('\n')) {
    if (Buffer.byteLength(line, 'utf8') > MAX_LINE_BYTES) {
      throw invalidArgument(
        `a line of the command is longer than ${MAX_LINE_BYTES} bytes, more than a terminal line can take`,
        'Split it over several lines, or write it to a script file and run that.',
      );
    }
  }
  return text;
}

/**
 * Refuses panes the command cannot be typed into safely; returns the pane as it is now. A pane
 * whose foreground program is not a shell gets up to PROMPT_GRACE_MS to be back at one (a C-c
 * just sent, a program printing its last words) before it is refused. Nothing is typed when this
 * throws. `interruptAdvice` is how the profile writes "press C-c".
 */
export async function checkPane(
  engine: Engine,
  pane: PaneRecord,
  force: boolean,
  interruptAdvice = DEFAULT_INTERRUPT_ADVICE,
): Promise<PaneRecord> {
  if (pane.isDead) throw refused(`pane ${pane.id} is dead (its program exited)`, 'Restart it with respawn_pane, or pick another pane.');
  if (pane.modeCount > 0) {
    throw refused(
      `pane ${pane.id} is in copy mode (or another mode); typed text would go to that mode, not to the shell`,
      'Leave the mode first (send_keys ["q"] or ["-X", "cancel"]), then run again.',
    );
  }
  if (pane.isSynchronized) {
    throw refused(
      `pane ${pane.id} has synchronize-panes on; the command would be typed into every pane of its window`,
      'Turn it off with set_synchronize_panes, or use send_keys if that is intended.',
    );
  }
  await guardCaller(engine, [pane.id], 'run a command in it', force);
  const isShell = (p: PaneRecord) => {
    const program = shellName(p.currentCommand);
    return POSIX_SHELLS.has(program) || program === FISH || NON_POSIX_SHELLS.has(program);
  };
  if (!isShell(pane) && !force) pane = await shellSoon(engine, pane, isShell);
  const program = shellName(pane.currentCommand);
  if (NON_POSIX_SHELLS.has(program)) {
    throw refused(
      `pane ${pane.id} runs ${program}, whose syntax the command frame is not written in`,
      'Start a POSIX shell there (send_keys ["bash", "Enter"]) or use send_keys with wait_for_text.',
    );
  }
  if (!POSIX_SHELLS.has(program) && program !== FISH && !force) {
    throw refused(
      `pane ${pane.id} is running ${JSON.stringify(pane.currentCommand)}, not a shell at its prompt; the typed command would go to that program`,
      `Wait for it to finish (wait_for_text), stop it (${interruptAdvice}), or pass force: true if a POSIX shell will read the input.`,
    );
  }
  return pane;
}

/** The pane again, once its foreground is a shell, or as it is after PROMPT_GRACE_MS. */
async function shellSoon(engine: Engine, pane: PaneRecord, isShell: (p: PaneRecord) => boolean): Promise<PaneRecord> {
  const deadline = performance.now() + PROMPT_GRACE_MS;
  let now = pane;
  while (performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, PROMPT_POLL_MS));
    now = await getPane(engine, pane.id);
    if (isShell(now) || now.isDead) return now;
  }
  return now;
}

/** The program name of a pane's foreground command (a login shell's leading - removed). */
export function shellName(command: string): string {
  return (command.split('/').pop() ?? command).replace(/^-/, '');
}
