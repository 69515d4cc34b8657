/**
 * Running a shell command in a pane and getting its output and exit status.
 *
 * In bash, zsh and fish the command is typed as it is: the shell integration (shell-integration/,
 * docs/shell-integration.md) makes the shell print invisible marks when it starts and ends it, so
 * the pane shows only the prompt, the command and its output. A found shell gets the integration
 * on its first run; panes this server creates start with it. Every other shell gets a frame.
 *
 * The frame: the command is typed between two markers the shell prints:
 *
 *    command printf '%s%s\n' ID _S; (
 *   <command>
 *   ); command printf '%s%s %s\n' ID _E "$?"
 *
 * The printed markers read `ID_S` and `ID_E <status>`, while the echo of what was typed reads
 * `ID _S` (with a space): only the shell's real output can match, never the echo. `command`
 * bypasses a user's printf function or alias; the subshell keeps `cd`, `exit` and `set -e` from
 * touching the interactive shell; the command sits on lines of its own so a trailing `# comment`
 * cannot swallow the frame.
 *
 * History: the leading space keeps the frame out of history where the shell ignores such lines
 * (HISTCONTROL=ignorespace, zsh's HIST_IGNORE_SPACE, fish always). In bash the frame also deletes
 * its own entry (`history -d $HISTCMD`) when, and only when, the newest entry is this frame, so the
 * user's settings decide nothing and are never changed.
 *
 * A frame whose start marker never shows was never run: the shell is busy (still starting, or
 * running something) or waits for more input (an unterminated quote left on the prompt). That is
 * "not started", not "running", and the pane takes no new frame until the shell is seen back at a
 * prompt: the frame starts after all, the pane's process changes, or an interrupt this server sent
 * (send_keys C-c, or a cancelled call) is followed by the shell printing again.
 *
 * Output is read from the pane's `%output` stream, not from capture-pane: the stream has each line
 * whole however the terminal wrapped it, is not lost when the screen scrolls or is cleared, and
 * arrives the instant it is printed, so completion is seen without polling. Subscribing before
 * typing means nothing the command prints can be missed. The exception is a flood: tmux then holds
 * output back from the stream for seconds, and the end is read off the screen (screen-end.ts).
 */
import { randomBytes } from 'node:crypto';
import { tailBudget } from '../read/capture.js';
import { type Engine, perServer } from '../engine.js';
import { before, type PaneStream, type StreamPosition } from '../watch/pane-stream.js';
import { openPaneStream } from '../watch/pane-streams.js';
import type { PaneRecord } from '../read/records.js';
import { withPaneInput } from './input.js';
import { linesBetween, watchStream } from '../watch/watch-stream.js';
import { refused } from '../failure.js';
import { integratedEndOnScreen, watchScreenForEnd, type ScreenEnding } from './screen-end.js';
import {
  INTEGRATED_SHELLS,
  integrationEnabled,
  readIntegration,
  type IntegratedShell,
  type Integration,
} from './shell-integration/index.js';
import { MarkReader } from './shell-integration/mark-reader.js';
import { install, installFailedIn, lineEditorReady, PROMPT_GRACE_MS, shellInForeground, startedUp } from './shell-integration/readiness.js';
import { typedLine } from './shell-integration/typed-line.js';
import { FrameReader, frameFor } from './run-frame.js';
import { DEFAULT_INTERRUPT_ADVICE, shellName } from './run-checks.js';
import {
  askForEndSignal,
  type EarlierEnd,
  rememberEnd,
  rememberRecordedEnd,
  signalEndIfUnrecorded,
  takeEarlierEnd,
} from './timed-out-end.js';

/** Frames typed and not yet ended, by pane. */
const activeRuns = perServer(() => new Map<string, ActiveRun>());

export { checkCommand, checkPane, DEFAULT_INTERRUPT_ADVICE, NON_POSIX_SHELLS, POSIX_SHELLS } from './run-checks.js';

export interface RunRequest {
  readonly pane: PaneRecord;
  readonly command: string;
  /** Type even though an earlier timed-out command has not finished. */
  readonly force?: boolean;
  readonly timeoutMs: number;
  readonly maxLines: number;
  readonly signal: AbortSignal;
  /**
   * Keep the frame out of shell history (default true): the leading space, and in bash the
   * self-deleting entry. False types the frame as it is, so history shows it as the user would.
   */
  readonly suppressHistory?: boolean;
  /** How the profile writes "press C-c in the pane" (its own send_keys syntax), for the advice in refusals. */
  readonly interruptAdvice?: string;
}

export interface RunResult {
  /**
   * `notStarted`: the deadline passed before the shell ran the frame (busy, or waiting for more
   * input). `cancelled`: the caller cancelled; the command was interrupted with C-c (`interrupted`).
   * `watchLost`: the connection carrying the pane's output broke while the pane lives on (rare).
   */
  readonly outcome: 'exited' | 'timedOut' | 'notStarted' | 'paneDead' | 'paneClosed' | 'watchLost' | 'cancelled';
  /** For notStarted: the shell held the terminal (so it most likely waits for more input) rather than a program it runs. */
  readonly shellWaitsForInput: boolean;
  /** C-c was sent to stop the command (on cancel). */
  readonly interrupted: boolean;
  readonly exitStatus: number | null;
  readonly output: string[];
  readonly droppedLines: number;
  /** Part of the output could not be seen at all (the watch fell behind), so more than droppedLines may be missing. */
  readonly linesMissed: boolean;
  /** The end was read off the screen while the output stream still lagged behind the pane (a flood); `output` is the screen's rows. */
  readonly endFromScreen: boolean;
  readonly seconds: number;
  /** What the command prints when it ends: `<marker> <status>`, for a wait_for_text after a timeout; undefined in a shell with the integration (it prints nothing of the kind). */
  readonly endMarker: string | undefined;
  /** The shell ran it with the integration (no framing on screen); `installed`: this call installed it first (a found shell). */
  readonly integration: { readonly shell: IntegratedShell; readonly installed: boolean } | undefined;
  /** The status of a command an earlier call timed out on, when it ended since (read from the shell's marks). */
  readonly earlier: EarlierEnd | undefined;
  /** Command lines the shell ran after this one was typed and before it (typed ahead, a person's): their output is not in this answer. */
  readonly othersFirst: number;
  /** After a timeout in a shell with the integration: the tmux channel signalled when this command ends (wait_for_channel). */
  readonly endChannel: string | undefined;
  /** False when nothing was typed: the shell never sat at its prompt within the time (notStarted). */
  readonly typed: boolean;
}

/** How long a timed-out command is remembered as still running, if its end never shows. */
const UNFINISHED_MS = 60 * 60_000;

/** What reads a run's start, end and output: the frame's markers, or the integration's marks. */
interface RunReader {
  readonly started: boolean;
  readonly endPosition: StreamPosition | undefined;
  readonly status: number | null;
  scan(): boolean;
  output(): { lines: string[]; dropped: number; missed: boolean };
}

export interface ActiveRun {
  /** The frame's id (its end prints `<id>_E <status>`), or the integrated shell's nonce. */
  id: string;
  /** Set for a shell with the integration: nothing is printed around the command. */
  integrated: boolean;
  /** The pane's process when typed; a respawned pane cannot still be running it. */
  readonly panePid: number;
  readonly since: number;
  /** The stream the frame was typed into, where it was typed, and what reads its markers. */
  readonly stream: PaneStream;
  typedAt: StreamPosition;
  reader: RunReader;
  /** True while a run_shell_command call waits for it; false once that call timed out or was cancelled. */
  waiting: boolean;
  /** Set once its end was taken from the shell's record before the stream showed it (reported once). */
  endRecorded?: boolean;
}

// Frames typed and not yet ended are kept per pane (activeRuns(engine)): typing a second frame
// meanwhile would interleave with the first (while a call waits) or queue behind a command still
// running (after a timeout).

/**
 * Types the command and waits for its end, the deadline, the pane's end, or cancellation. In bash,
 * zsh and fish with the integration (installed first in a found shell) the command is typed as it
 * is and the shell's marks say when it starts and ends; elsewhere it is framed by markers.
 */
export async function runCommand(engine: Engine, request: RunRequest): Promise<RunResult> {
  const started = performance.now();
  const { pane } = request;
  const advice = request.interruptAdvice ?? DEFAULT_INTERRUPT_ADVICE;
  const runs = activeRuns(engine);
  const lease = await openPaneStream(engine, pane);
  const stream = lease.stream;
  let integration: Integration | undefined;
  try {
    integration = integrationEnabled(engine) ? await readIntegration(engine, pane, request.force) : undefined;
    const previous = runs.get(pane.id);
    if (previous && !previous.waiting && (await backAtPrompt(previous, pane.pid)) && runs.get(pane.id) === previous) {
      runs.delete(pane.id);
      // The stream may lag behind the shell: its end hook's record says how the command ended.
      if (previous.reader instanceof MarkReader && !previous.reader.scan())
        previous.endRecorded = await rememberRecordedEnd(engine, pane, previous.reader);
    }
    const current = runs.get(pane.id); // read again: another call may have started meanwhile
    if (current?.waiting) {
      throw refused(
        `pane ${pane.id} is still running an earlier run_shell_command from this server`,
        `Wait for that call to answer, or stop its command with ${advice}.`,
      );
    }
    if (current && !request.force) {
      const ago = Math.round((Date.now() - current.since) / 1000);
      if (!current.reader.started) {
        throw refused(
          `the command an earlier run_shell_command typed into ${pane.id} ${ago} s ago never started: the shell is busy (still starting, or running something) or waits for more input (an unterminated quote or a trailing backslash at its prompt); a new one would only be typed behind it`,
          `Look at the pane with capture_pane. Press C-c there (${advice}) to discard the pending input, then call run_shell_command again; or pass force: true to type anyway.`,
        );
      }
      const wait = current.integrated
        ? 'Wait for its end with wait_for_text (its shell prompt comes back; the next run reports its exit status)'
        : `Wait for it with wait_for_text (its end prints "${current.id}_E <status>")`;
      throw refused(
        `the command an earlier run_shell_command typed into ${pane.id} ${ago} s ago has not finished; a new one would only queue behind it`,
        `${wait}, stop it with ${advice}, or pass force: true to type ahead anyway.`,
      );
    }
  } catch (error) {
    lease.release();
    throw error;
  }
  // From the last look at `runs` to claiming the pane below nothing awaits, so two calls cannot both pass.
  const skipsAtStart = stream.skips;
  // Claimed now; id, reader and typedAt are filled in once the command is typed (after an install, maybe).
  const run: ActiveRun = {
    id: '',
    integrated: false,
    panePid: pane.pid,
    since: Date.now(),
    stream,
    typedAt: stream.end,
    reader: new FrameReader(stream, stream.end, 'tm'),
    waiting: true,
  };
  if (runs.has(pane.id)) runs.delete(pane.id); // forced: the new command is the one to follow
  runs.set(pane.id, run);
  const forget = () => {
    if (runs.get(pane.id) === run) runs.delete(pane.id);
  };
  let handedOver = false;
  let installed = false;
  // Forced into a pane whose shell runs a program, the line is the shell's all the same.
  const shell = integration?.shell ?? shellName(pane.currentCommand);
  const earlier = takeEarlierEnd(engine, pane);
  // Ends the watch when the caller cancels or the screen shows the end (engines >= 20 lack AbortSignal.any).
  const stopWatch = new AbortController();
  const cancel = () => stopWatch.abort();
  if (request.signal.aborted) cancel();
  else request.signal.addEventListener('abort', cancel, { once: true });
  let stopLooking = () => {};
  try {
    // bash, zsh and fish get a line only once they sit in their line editor: prompt drawn, hooks finished.
    // Forced, after a moment (it queues behind what runs); otherwise never, and nothing is typed.
    const integrable =
      integrationEnabled(engine) && INTEGRATED_SHELLS.has(shell) && (integration !== undefined || !installFailedIn(engine, pane));
    if (integration?.starting) integration = await startedUp(engine, pane, integration, request.timeoutMs, stopWatch.signal);
    const ready = () => lineEditorReady(pane.pid, stopWatch.signal, request.force ? PROMPT_GRACE_MS : request.timeoutMs);
    if (integrable && !(await ready()) && !request.force) {
      return untyped(request.signal.aborted ? 'cancelled' : 'notStarted', started, integration, earlier);
    }
    if (!integration && integrable && !request.signal.aborted) {
      integration = await install(engine, pane, stream, shell as IntegratedShell);
      installed = integration !== undefined;
      if (installed) await ready();
    }
    const suppress = request.suppressHistory ?? true;
    const id = integration ? integration.nonce : 'tm' + randomBytes(6).toString('hex');
    const line = integration ? typedLine(integration.shell, request.command, suppress) : undefined;
    const typedAt = stream.end;
    const reader: RunReader =
      integration && line ? new MarkReader(stream, integration.nonce, line.digest) : new FrameReader(stream, typedAt, id);
    Object.assign(run, { id, integrated: integration !== undefined, typedAt, reader, since: Date.now() });
    // While the stream lags behind the pane (a flood), the end may be read off the screen first.
    let onScreen: ScreenEnding | undefined;
    const nonce = integration?.nonce;
    const look =
      nonce === undefined
        ? undefined
        : () => integratedEndOnScreen(engine, pane.id, nonce, (n, digest) => (reader as MarkReader).accepts(n, digest), request.maxLines);
    stopLooking = watchScreenForEnd(
      engine,
      stream,
      { paneId: pane.id, id, maxLines: request.maxLines, ...(look ? { look } : {}) },
      (ending) => {
        onScreen = ending;
        stopWatch.abort();
      },
    );
    // The integration's keys clear the line and accept it; the frame starts with C-u (0x15), which clears anything half-typed.
    const typed = line ? line.keys : '\x15' + frameFor(id, request.command, shell, suppress);
    const ended = watchStream(engine, pane.id, stream, {
      // The time spent waiting for the prompt counts.
      timeoutMs: Math.max(100, Math.round(request.timeoutMs - (performance.now() - started))),
      signal: stopWatch.signal,
      scan: () => (reader.scan() ? ('exited' as const) : undefined),
    });
    // Queued behind other input to this pane from this process, so keystrokes never interleave. One
    // literal send (-l: never read as key names).
    await withPaneInput(engine, pane.id, async () => {
      stream.noteInput();
      await engine.run(['send-keys', '-t', pane.id, '-l', '--', typed]);
    });
    let outcome: RunResult['outcome'] = await ended;
    stopLooking();
    if ((outcome === 'timedOut' || outcome === 'cancelled') && reader.scan()) outcome = 'exited'; // ended in the same instant
    // Seen on the screen before the stream caught up: the stream's own end is still to come.
    const screen = outcome === 'cancelled' && onScreen && !reader.scan() ? onScreen : undefined;
    if (screen) outcome = 'exited';
    let interrupted = false;
    if (outcome === 'cancelled') {
      // Cancelling a command this server started stops it: C-c, as a person at the keyboard would.
      // (Before the command started, the same C-c discards it from the shell's pending input.)
      await withPaneInput(engine, pane.id, async () => {
        stream.noteInput(true);
        await engine.run(['send-keys', '-t', pane.id, 'C-c']);
      }).then(
        () => (interrupted = true),
        () => {},
      );
    }
    if (outcome === 'timedOut' && !reader.started) outcome = 'notStarted';
    const endChannel = outcome === 'timedOut' && reader instanceof MarkReader ? await askForEndSignal(engine, pane.id, reader) : undefined;
    if (outcome === 'timedOut' || outcome === 'notStarted' || outcome === 'cancelled') {
      handedOver = true;
      watchUnfinished(stream, reader, run, () => {
        if (reader.scan() && !run.endRecorded) rememberEnd(engine, pane, reader.status);
        if (endChannel && reader.scan()) void signalEndIfUnrecorded(engine, pane.id, reader as MarkReader, endChannel);
        forget();
        lease.release();
      });
    }
    // What the command printed was reported: the next wait without a cursor starts after its end.
    if (screen) {
      // The command is over, so the pane takes a new command now; the lease goes when the stream catches up.
      handedOver = true;
      forget();
      consumeAtEnd(stream, reader, () => lease.release());
    } else if (outcome === 'exited') stream.consumed(reader.endPosition ?? stream.end);
    const body = screen ? { lines: screen.lines, dropped: 0, missed: !screen.complete } : reader.output();
    const kept = tailBudget(body.lines, request.maxLines);
    return {
      outcome,
      shellWaitsForInput: outcome === 'notStarted' && (await shellInForeground(pane.pid)),
      interrupted,
      exitStatus: screen ? screen.status : outcome === 'exited' ? reader.status : null,
      output: kept.lines,
      droppedLines: kept.droppedLines + body.dropped,
      // A gap tmux left in the stream (it fell too far behind) lost output too.
      linesMissed: body.missed || stream.skips > skipsAtStart,
      endFromScreen: screen !== undefined,
      seconds: Math.round(performance.now() - started) / 1000,
      endMarker: integration ? undefined : `${id}_E`,
      integration: integration ? { shell: integration.shell, installed } : undefined,
      earlier,
      othersFirst: reader instanceof MarkReader ? reader.othersFirst : 0,
      endChannel,
      typed: true,
    };
  } finally {
    stopLooking();
    request.signal.removeEventListener('abort', cancel);
    if (!handedOver) {
      lease.release();
      forget();
    }
  }
}

/** The answer for a command never typed: the shell never sat at its prompt within the time (or the call was cancelled meanwhile). */
function untyped(
  outcome: 'notStarted' | 'cancelled',
  started: number,
  integration: Integration | undefined,
  earlier: RunResult['earlier'],
): RunResult {
  return {
    outcome,
    shellWaitsForInput: false,
    interrupted: false,
    exitStatus: null,
    output: [],
    droppedLines: 0,
    linesMissed: false,
    endFromScreen: false,
    seconds: Math.round(performance.now() - started) / 1000,
    endMarker: undefined,
    integration: integration ? { shell: integration.shell, installed: false } : undefined,
    earlier,
    othersFirst: 0,
    endChannel: undefined,
    typed: false,
  };
}

/**
 * After a command's end was read off the screen, follows the lagging stream to the end marker and
 * marks the output up to it as reported (the next wait without a cursor starts after it). Gives up
 * at a gap tmux left (the marker may be in it), when the stream ends, or after UNFINISHED_MS.
 */
function consumeAtEnd(stream: PaneStream, reader: RunReader, done: () => void): void {
  const finish = () => {
    stop();
    clearTimeout(timer);
    done();
  };
  const stop = stream.listen((event) => {
    if (reader.scan()) stream.consumed(reader.endPosition ?? stream.end);
    else if (event === 'skipped') stream.consumed(stream.end);
    else if (event !== 'closed') return;
    finish();
  });
  const timer = setTimeout(finish, UNFINISHED_MS);
  timer.unref();
}

/**
 * Whether a frame the call stopped waiting for no longer holds the pane: its process changed, or it
 * ran and the shell is back in the foreground of its terminal (finished, or abandoned after C-c), or
 * it never started and an interrupt sent since was answered by the shell printing again.
 */
async function backAtPrompt(run: ActiveRun, panePid: number): Promise<boolean> {
  if (run.panePid !== panePid) return true;
  run.reader.scan();
  if (run.reader.started) return shellInForeground(panePid);
  const interrupt = run.stream.interruptedAt;
  if (!interrupt || before(interrupt, run.typedAt)) return false;
  // The terminal itself echoes "^C" at once; anything after that came from the shell, i.e. a prompt.
  const after = linesBetween(run.stream, interrupt, run.stream.end).join('\n').replace(/^\^C/, '').trim();
  return after.length > 0 && (await shellInForeground(panePid));
}

/** Keeps watching a command the call stopped waiting for, until its end marker shows (or an hour passes). */
function watchUnfinished(stream: PaneStream, reader: RunReader, run: ActiveRun, done: () => void): void {
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
  // The end may have arrived while the call was answering (asking for the end signal is a round trip).
  if (reader.scan()) finish();
}
