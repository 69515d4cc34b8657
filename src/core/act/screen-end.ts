/**
 * The end of a framed command read from the pane's screen, for when the output stream lags behind
 * the pane. tmux hands output to a watch only as fast as the watch's connection drains, and under a
 * flood it holds seconds of it (each piece arrives with its age); the screen is current all the
 * while. So while the stream lags (or tmux skipped part of it), the screen is looked at for the end
 * marker now and then, and the command's end is seen as soon as tmux has it.
 */
import { captureLines } from '../read/capture.js';
import type { Engine } from '../engine.js';
import type { PaneStream } from '../watch/pane-stream.js';
import { END_OPTION } from './shell-integration/index.js';

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
 * The end of a command in a shell with the integration, as the shell left it in the pane option
 * @tmux_mcp_end ("<nonce>.<n> <status> <history_size> <cursor_y> <digest>", the middle two where
 * its prompt was about to be drawn): its status, and the rows above that prompt as its output.
 * `accepts` says whether command line n, of that digest, is the one awaited. Undefined while the option names another.
 *
 * The hook records that place through a tmux client of its own, which tmux may serve before it has
 * read the last of the command's output from the terminal: the place is then above the prompt, and
 * rows read up to it would miss that tail. So the screen's reading stands only when the cursor sits
 * on the recorded row now (a one-row prompt drawn there, nothing after it); otherwise the stream,
 * whose end mark comes in order with the output, ends the call.
 */
export async function integratedEndOnScreen(
  engine: Engine,
  paneId: string,
  nonce: string,
  accepts: (n: number, digest: string) => boolean,
  maxLines: number,
): Promise<ScreenEnding | undefined> {
  const [value] = await engine.run(['display-message', '-p', '-t', paneId, `#{history_size} #{cursor_y} #{${END_OPTION}}`]);
  const match = /^(\d+) (\d+) ([A-Za-z0-9]+)\.(\d+) (\d+) (\d+) (\d+) (\S+)$/.exec((value ?? '').trim());
  if (!match || match[3] !== nonce || !accepts(Number(match[4]), match[8]!)) return undefined;
  const [historyNow, cursorNow, status, historyThen, row] = [match[1], match[2], match[5], match[6], match[7]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  // Rows scrolled into history since the prompt began move it up (as far as history grew).
  const promptRow = row - Math.max(0, historyNow - historyThen);
  if (promptRow !== cursorNow) return undefined;
  const rows = (await captureLines(engine, paneId, { start: promptRow - maxLines, end: promptRow - 1, joinWrapped: true })).map((r) =>
    r.trimEnd(),
  );
  while (rows.length > 0 && rows.at(-1) === '') rows.pop();
  return { status, lines: rows.slice(-maxLines), complete: false };
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
  target: {
    readonly paneId: string;
    readonly id: string;
    readonly maxLines: number;
    readonly look?: () => Promise<ScreenEnding | undefined>;
  },
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
    (target.look ? target.look() : endOnScreen(engine, target.paneId, target.id, target.maxLines))
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
