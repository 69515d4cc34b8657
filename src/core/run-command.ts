/**
 * Running a shell command in a pane and getting its output and exit status.
 *
 * The command is typed framed by two markers the shell prints:
 *
 *    command printf '%s%s\n' ID _S; (
 *   <command>
 *   ); command printf '%s%s %s\n' ID _E "$?"
 *
 * The printed markers read `ID_S` and `ID_E <status>`, while the echo of what was typed reads
 * `ID _S` (with a space): only the shell's real output can match, never the echo. The leading space
 * keeps the line out of history under HISTCONTROL=ignorespace; `command` bypasses a user's printf
 * function or alias; the subshell keeps `cd`, `exit` and `set -e` from touching the interactive
 * shell; the command sits on lines of its own so a trailing `# comment` cannot swallow the frame.
 *
 * Output is read from the pane's `%output` stream, not from capture-pane: the stream has each line
 * whole however the terminal wrapped it, is not lost when the screen scrolls or is cleared, and
 * arrives the instant it is printed, so completion is seen without polling. Subscribing before
 * typing means nothing the command prints can be missed.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { tailBudget } from './capture.js';
import type { Engine } from './engine.js';
import { openPaneStream, type PaneStream, type StreamPosition } from './pane-stream.js';
import type { PaneRecord } from './records.js';
import { renderLine } from './terminal-text.js';
import { withPaneInput } from './input.js';
import { linesBetween, watchStream } from './wait.js';
import { invalidArgument, refused } from './failure.js';

/** Shells the frame is written for. */
export const POSIX_SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'ksh93', 'mksh', 'lksh', 'oksh', 'pdksh', 'ash', 'busybox', 'yash', 'posh', 'rbash']);
/** Shells whose syntax the frame is not valid in: refused even with force. */
export const NON_POSIX_SHELLS = new Set(['fish', 'csh', 'tcsh', 'nu', 'nushell', 'pwsh', 'powershell', 'xonsh', 'elvish', 'ion', 'rc', 'es']);

/** A terminal in canonical mode (dash, sh) takes at most 4095 bytes per line; stay below it. */
const MAX_LINE_BYTES = 4000;
const MAX_COMMAND_BYTES = 64 * 1024;

export interface RunRequest {
  readonly pane: PaneRecord;
  readonly command: string;
  /** Type even though an earlier timed-out command has not finished. */
  readonly force?: boolean;
  readonly timeoutMs: number;
  readonly maxLines: number;
  readonly signal: AbortSignal;
}

export interface RunResult {
  /** `watchLost`: the connection carrying the pane's output broke while the pane lives on (rare). */
  readonly outcome: 'exited' | 'timedOut' | 'paneDead' | 'paneClosed' | 'watchLost' | 'cancelled';
  readonly exitStatus: number | null;
  readonly output: string[];
  readonly droppedLines: number;
  /** Part of the output could not be seen at all (the watch fell behind), so more than droppedLines may be missing. */
  readonly linesMissed: boolean;
  readonly seconds: number;
  /** What the command prints when it ends: `<marker> <status>`, for a wait_for_text after a timeout. */
  readonly endMarker: string;
}

/** How long a timed-out command is remembered as still running, if its end never shows. */
const UNFINISHED_MS = 60 * 60_000;

interface ActiveRun {
  /** The frame's id: its end prints `<id>_E <status>`. */
  readonly id: string;
  /** The pane's process when typed; a respawned pane cannot still be running it. */
  readonly panePid: number;
  readonly since: number;
  /** True while a run_shell_command call waits for it; false once that call timed out or was cancelled. */
  waiting: boolean;
}

/**
 * Frames typed and not yet ended, per pane. Typing a second frame meanwhile would interleave with
 * the first (while a call waits) or queue behind a command still running (after a timeout).
 */
const active = new WeakMap<Engine, Map<string, ActiveRun>>();

/** Checks the command text; returns it normalised (CRLF to LF, trailing blank lines and spaces removed). */
export function checkCommand(command: string): string {
  const text = command.replace(/\r\n/g, '\n').replace(/\s+$/, '');
  if (text.trim().length === 0) throw invalidArgument('command is empty');
  // eslint-disable-next-line no-control-regex
  const control = /[\x00-\x09\x0b-\x1f\x7f]/.exec(text);
  if (control) {
    const code = control[0].charCodeAt(0);
    const what = code === 0x09 ? 'a tab (an interactive shell would try to complete it)' : code === 0x0d ? 'a carriage return' : `the control character 0x${code.toString(16).padStart(2, '0')}`;
    throw invalidArgument(`command contains ${what}; it would be read as a keystroke, not as text`, "Write it with printf escapes instead (printf '\\t'), or use send_keys for keystrokes.");
  }
  if (text.endsWith('\\')) throw invalidArgument('command ends with a backslash, which would continue the line into the frame around it');
  if (Buffer.byteLength(text, 'utf8') > MAX_COMMAND_BYTES) {
    throw invalidArgument(`command is longer than ${MAX_COMMAND_BYTES} bytes`, 'Write it to a script file and run that.');
  }
  for (const line of text.split('\n')) {
    if (Buffer.byteLength(line, 'utf8') > MAX_LINE_BYTES) {
      throw invalidArgument(`a line of the command is longer than ${MAX_LINE_BYTES} bytes, more than a terminal line can take`, 'Split it over several lines, or write it to a script file and run that.');
    }
  }
  return text;
}

/** Refuses panes the frame cannot be typed into safely. Nothing is typed when this throws. */
export async function checkPane(engine: Engine, pane: PaneRecord, force: boolean): Promise<void> {
  if (pane.isDead) throw refused(`pane ${pane.id} is dead (its program exited)`, 'Restart it with respawn_pane, or pick another pane.');
  if (pane.modeCount > 0) {
    throw refused(`pane ${pane.id} is in copy mode (or another mode); typed text would go to that mode, not to the shell`, 'Leave the mode first (send_keys ["q"] or ["-X", "cancel"]), then run again.');
  }
  if (pane.isSynchronized) {
    throw refused(`pane ${pane.id} has synchronize-panes on; the command would be typed into every pane of its window`, 'Turn it off with set_synchronize_panes, or use send_keys if that is intended.');
  }
  await engine.guardCaller([pane.id], 'run a command in it', force);
  const program = shellName(pane.currentCommand);
  if (NON_POSIX_SHELLS.has(program)) {
    throw refused(`pane ${pane.id} runs ${program}, whose syntax the command frame is not written in`, 'Start a POSIX shell there (send_keys ["bash", "Enter"]) or use send_keys with wait_for_text.');
  }
  if (!POSIX_SHELLS.has(program) && !force) {
    throw refused(
      `pane ${pane.id} is running ${JSON.stringify(pane.currentCommand)}, not a shell at its prompt; the typed command would go to that program`,
      'Wait for it to finish (wait_for_text), stop it (send_keys ["C-c"]), or pass force: true if a POSIX shell will read the input.',
    );
  }
}

function shellName(command: string): string {
  return (command.split('/').pop() ?? command).replace(/^-/, '');
}

/** Types the framed command and waits for its end marker, the deadline, the pane's end, or cancellation. */
export async function runCommand(engine: Engine, request: RunRequest): Promise<RunResult> {
  const started = performance.now();
  const { pane } = request;
  let runs = active.get(engine);
  if (!runs) active.set(engine, (runs = new Map()));
  const previous = runs.get(pane.id);
  // A shell back in the foreground of its terminal finished (or abandoned, after C-c) the earlier frame.
  if (previous && !previous.waiting && (previous.panePid !== pane.pid || (await shellInForeground(pane.pid)))) {
    if (runs.get(pane.id) === previous) runs.delete(pane.id);
  }
  const current = runs.get(pane.id); // read again: another call may have started meanwhile
  if (current?.waiting) {
    throw refused(`pane ${pane.id} is still running an earlier run_shell_command from this server`, 'Wait for that call to answer, or stop its command with send_keys ["C-c"].');
  }
  if (current && !request.force) {
    throw refused(
      `the command an earlier run_shell_command typed into ${pane.id} ${Math.round((Date.now() - current.since) / 1000)} s ago has not finished; a new one would only queue behind it`,
      `Wait for it with wait_for_text (its end prints "${current.id}_E <status>"), stop it with send_keys ["C-c"], or pass force: true to type ahead anyway.`,
    );
  }
  const id = 'tm' + randomBytes(6).toString('hex');
  const run: ActiveRun = { id, panePid: pane.pid, since: Date.now(), waiting: true };
  runs.set(pane.id, run);
  const forget = () => {
    if (runs.get(pane.id) === run) runs.delete(pane.id);
  };
  const lease = await openPaneStream(engine, pane).catch((error: unknown) => {
    forget();
    throw error;
  });
  const stream = lease.stream;
  let handedOver = false;
  try {
    const frame = ` command printf '%s%s\\n' ${id} _S; (\n${request.command}\n); command printf '%s%s %s\\n' ${id} _E "$?"\n`;
    const from = stream.end;
    const reader = new FrameReader(stream, from, id);
    const ended = watchStream(engine, pane.id, stream, {
      timeoutMs: request.timeoutMs,
      signal: request.signal,
      scan: () => (reader.scan() ? ('exited' as const) : undefined),
    });
    // Queued behind other input to this pane from this process, so keystrokes never interleave. One
    // literal send (-l: never read as key names): a leading C-u (0x15) clears anything left
    // half-typed on the prompt line, and the final newline is the Enter.
    await withPaneInput(engine, pane.id, () => engine.tmux.run(['send-keys', '-t', pane.id, '-l', '--', '\x15' + frame]));
    let outcome = await ended;
    if (outcome === 'timedOut' && reader.scan()) outcome = 'exited'; // ended in the same instant
    if (outcome === 'timedOut' || outcome === 'cancelled') {
      handedOver = true;
      watchUnfinished(stream, reader, run, () => {
        forget();
        lease.release();
      });
    }
    const body = reader.output();
    const kept = tailBudget(body.lines, request.maxLines);
    return {
      outcome,
      exitStatus: outcome === 'exited' ? reader.status : null,
      output: kept.lines,
      droppedLines: kept.droppedLines + body.dropped,
      linesMissed: body.missed,
      seconds: Math.round(performance.now() - started) / 1000,
      endMarker: `${id}_E`,
    };
  } finally {
    if (!handedOver) {
      lease.release();
      forget();
    }
  }
}

/** Keeps watching a command the call stopped waiting for, until its end marker shows (or an hour passes). */
function watchUnfinished(stream: PaneStream, reader: FrameReader, run: ActiveRun, done: () => void): void {
  run.waiting = false;
  const finish = () => {
    stop();
    clearTimeout(timer);
    done();
  };
  const stop = stream.listen((event) => {
    if (reader.scan() || event === 'closed') finish();
  });
  const timer = setTimeout(finish, UNFINISHED_MS);
  timer.unref();
}

/**
 * Whether the shell `pid` is the foreground process group of its terminal, i.e. at its prompt
 * rather than waiting for a job (Linux /proc; false when that cannot be read, which errs on the
 * side of not typing into a busy pane).
 */
async function shellInForeground(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // pid (comm) state ppid pgrp session tty_nr tpgid ...; comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[2] !== undefined && fields[2] === fields[5];
  } catch {
    return false;
  }
}

/** Finds the markers of one frame in a stream and the output between them. */
class FrameReader {
  readonly #stream: PaneStream;
  readonly #start: string;
  readonly #end: RegExp;
  #scanned: number;
  #body: StreamPosition | undefined;
  #endLine: number | undefined;
  #endCol = 0;
  #missed = false;
  status: number | null = null;

  constructor(stream: PaneStream, from: StreamPosition, id: string) {
    this.#stream = stream;
    this.#start = `${id}_S`;
    this.#end = new RegExp(`${id}_E (\\d+)$`);
    this.#scanned = from.line;
  }

  /** Looks at complete lines not yet seen; true once the end marker has been read. */
  scan(): boolean {
    if (this.#endLine !== undefined) return true;
    const stream = this.#stream;
    const complete = stream.end.line; // lines before this one are finished
    if (this.#scanned < stream.firstLine) {
      this.#missed = true;
      this.#scanned = stream.firstLine;
    }
    for (; this.#scanned < complete; this.#scanned++) {
      const raw = stream.line(this.#scanned) ?? '';
      if (this.#body === undefined) {
        // Preceded by PS2 prompts or a carriage return, so only the end of the line counts.
        if (renderLine(raw).endsWith(this.#start)) this.#body = { line: this.#scanned + 1, col: 0 };
        continue;
      }
      const m = this.#end.exec(raw);
      if (m) {
        this.#endLine = this.#scanned;
        this.#endCol = m.index;
        this.status = Number(m[1]);
        return true;
      }
    }
    return false;
  }

  /** The command's output lines: between the markers, or from the start marker to now while it still runs. */
  output(): { lines: string[]; dropped: number; missed: boolean } {
    const stream = this.#stream;
    if (this.#body === undefined) return { lines: [], dropped: 0, missed: this.#missed };
    const dropped = Math.max(this.#body.line, stream.firstLine) - this.#body.line;
    // Output without a final newline ends on the marker's line, before the marker.
    const end = this.#endLine !== undefined ? { line: this.#endLine, col: this.#endCol } : stream.end;
    return { lines: linesBetween(stream, this.#body, end), dropped, missed: this.#missed };
  }
}
