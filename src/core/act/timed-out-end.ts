/**
 * The end of a command a run_shell_command call stopped waiting for (it timed out): remembered for
 * the next call in the pane to report, and signalled on a tmux channel an agent can wait for.
 */
import { type Engine, perServer } from '../engine.js';
import type { PaneRecord } from '../read/records.js';
import { END_OPTION, WAIT_OPTION } from './shell-integration/index.js';
import type { MarkReader } from './shell-integration/mark-reader.js';

/** How a command an earlier call timed out on ended, and how long ago. */
export interface EarlierEnd {
  readonly status: number | null;
  readonly secondsAgo: number;
}

/** Ends of timed-out runs seen after their call answered, by pane, with the shell process they ended in. */
const endedRuns = perServer(() => new Map<string, { readonly status: number | null; readonly at: number; readonly panePid: number }>());

export function rememberEnd(engine: Engine, pane: PaneRecord, status: number | null): void {
  endedRuns(engine).set(pane.id, { status, at: Date.now(), panePid: pane.pid });
}

/** The end of a command an earlier call timed out on, once (for the same shell process). */
export function takeEarlierEnd(engine: Engine, pane: PaneRecord): EarlierEnd | undefined {
  const map = endedRuns(engine);
  const end = map.get(pane.id);
  if (!end) return undefined;
  map.delete(pane.id);
  if (end.panePid !== pane.pid) return undefined;
  return { status: end.status, secondsAgo: Math.round((Date.now() - end.at) / 1000) };
}

/** The exit status the shell's end hook recorded in @tmux_mcp_end for `reader`'s command, if it has. */
async function recordedStatus(engine: Engine, paneId: string, reader: MarkReader): Promise<number | undefined> {
  const [value] = await engine.run(['display-message', '-p', '-t', paneId, `#{${END_OPTION}}`]).catch(() => [] as string[]);
  const match = /^(\S+) (\d+) /.exec(value ?? '');
  return match?.[1] === `${reader.nonce}.${reader.number}` ? Number(match[2]) : undefined;
}

/**
 * Remembers the end of `reader`'s command, timed out and its shell back at its prompt, from what the
 * shell's end hook recorded in @tmux_mcp_end, when the lagging stream has not shown it yet: the call
 * let through past it still reports the earlier exit status. True when it did.
 */
export async function rememberRecordedEnd(engine: Engine, pane: PaneRecord, reader: MarkReader): Promise<boolean> {
  if (reader.number === undefined) return false;
  const status = await recordedStatus(engine, pane.id, reader);
  if (status === undefined) return false;
  rememberEnd(engine, pane, status);
  return true;
}

/**
 * Makes sure exactly one signal of a tmux channel follows the end of the timed-out command `reader`
 * follows, so a wait_for_channel, even in another process, learns of its end (the exit status is then
 * in @tmux_mcp_end). Exactly one: tmux remembers a signal nobody waits for, but forgets it at a second.
 * One command list, which tmux runs without interleaving the shell's end hook (itself one list that
 * records the end and signals only when @tmux_mcp_wait names its line): an end recorded already is
 * signalled here, otherwise the hook is asked to. Ungated: fixed commands on the pane this call acts on.
 */
export async function askForEndSignal(engine: Engine, paneId: string, reader: MarkReader): Promise<string | undefined> {
  if (reader.number === undefined) return undefined;
  const run = `${reader.nonce}.${reader.number}`;
  const channel = `tmux-mcp-${reader.nonce}-${reader.number}`;
  const ended = `#{m:${run} *,#{${END_OPTION}}}`;
  await engine
    .run(['if-shell', '-F', '-t', paneId, ended, `wait-for -S ${channel}`, `set-option -p -t ${paneId} ${WAIT_OPTION} ${run}`], {
      ungated: true,
    })
    .catch(() => {});
  return channel;
}

/**
 * Signals `channel` when the shell's end hook never recorded the end of `reader`'s command in
 * @tmux_mcp_end within moments of the end the stream showed (the hook could not reach tmux): the
 * hook, or askForEndSignal, signals whenever it did, and a second signal would lose the first.
 */
export async function signalEndIfUnrecorded(engine: Engine, paneId: string, reader: MarkReader, channel: string): Promise<void> {
  const deadline = performance.now() + 2000;
  while (performance.now() < deadline) {
    if ((await recordedStatus(engine, paneId, reader)) !== undefined) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  await engine.run(['wait-for', '-S', channel]).catch(() => {});
}
