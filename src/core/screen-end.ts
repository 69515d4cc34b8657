/**
 * The end of a framed command read from the pane's screen, for when the output stream lags behind
 * the pane. tmux hands output to a watch only as fast as the watch's connection drains, and under a
 * flood it holds seconds of it (each piece arrives with its age); the screen is current all the
 * while. So while the stream lags (or tmux skipped part of it), the screen is looked at for the end
 * marker now and then, and the command's end is seen as soon as tmux has it.
 */
import { captureLines } from './capture.js';
import type { Engine } from './engine.js';
import type { PaneStream } from './pane-stream.js';

/** A stream this far behind (ms) has its pane's screen looked at. */
export const LAG_LOOK_MS = 250;
/** Least time between two looks at the screen. */
const LOOK_EVERY_MS = 250;

export interface ScreenEnding {
  readonly status: number;
  /** The command's output as the screen shows it (wrapped rows joined), oldest first. */
  readonly lines: string[];
  /** False when its first lines were no longer on screen or in the rows read. */
  readonly complete: boolean;
}

/**
 * Reads the end of frame `id` from the screen: its status and up to `maxLines` rows of output
 * (found between the frame's start and end markers); undefined while the end is not there yet.
 */
export async function endOnScreen(engine: Engine, paneId: string, id: string, maxLines: number): Promise<ScreenEnding | undefined> {
  const end = new RegExp(`${id}_E (\\d+)$`);
  // The visible screen first (small); the rows of output only once the end is there.
  const visible = await captureLines(engine, paneId, { joinWrapped: true });
  if (!visible.some((row) => end.test(row.trimEnd()))) return undefined;
  const rows = (await captureLines(engine, paneId, { start: -(maxLines + 2), joinWrapped: true })).map((row) => row.trimEnd());
  let last = rows.length - 1;
  let match: RegExpExecArray | null = null;
  for (; last >= 0 && !(match = end.exec(rows[last]!)); last--);
  if (!match) return undefined;
  let first = last - 1;
  for (; first >= 0 && !rows[first]!.endsWith(`${id}_S`); first--);
  const lines = rows.slice(first + 1, last);
  // Output without a final newline ends on the marker's row, before the marker.
  if (match.index > 0) lines.push(rows[last]!.slice(0, match.index));
  return { status: Number(match[1]), lines, complete: first >= 0 };
}

/**
 * Looks at the screen for frame `id`'s end whenever `stream` lags by LAG_LOOK_MS or more, at most
 * every LOOK_EVERY_MS; once tmux skipped output, every LOOK_EVERY_MS from then on (the end may have
 * been in what was skipped, and nothing more need arrive). Calls `found` once with what it read.
 * Stop it with the returned function.
 */
export function watchScreenForEnd(
  engine: Engine,
  stream: PaneStream,
  target: { readonly paneId: string; readonly id: string; readonly maxLines: number },
  found: (ending: ScreenEnding) => void,
): () => void {
  const skipsBefore = stream.skips;
  let stopped = false;
  let looking = false;
  let wanted = false;
  let lastLook = 0;
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    if (stopped || timer) return;
    if (looking) {
      wanted = true;
      return;
    }
    timer = setTimeout(look, Math.max(0, lastLook + LOOK_EVERY_MS - performance.now()));
  };
  const look = () => {
    timer = undefined;
    wanted = false;
    looking = true;
    lastLook = performance.now();
    endOnScreen(engine, target.paneId, target.id, target.maxLines)
      .then((ending) => {
        if (!ending || stopped) return;
        stop();
        found(ending);
      })
      .catch(() => {}) // a failed look changes nothing: the stream can still end the wait
      .finally(() => {
        looking = false;
        if (wanted || stream.skips > skipsBefore) schedule();
      });
  };
  const unlisten = stream.listen((event) => {
    if (event === 'skipped' || (event === 'output' && stream.lagMs >= LAG_LOOK_MS)) schedule();
  });
  const stop = () => {
    stopped = true;
    unlisten();
    clearTimeout(timer);
  };
  return stop;
}
