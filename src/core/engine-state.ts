/**
 * What core keeps per tmux server beside the connection: created with its Engine and dropped with
 * it. Each field belongs to one module, named beside it; none is read elsewhere.
 */
import type { ActiveRun, EndedRun } from './act/run-command.js';
import { ForegroundReads } from './read/foreground.js';
import type { KeptSessions } from './read/session-list.js';
import type { StreamEntry } from './watch/pane-streams.js';
import type { Recording } from './watch/recorder.js';

export class EngineState {
  /** Which panes each listing answered last, and whether their /proc is readable here (read/listings.ts). */
  readonly foreground = new ForegroundReads();
  /** Input to each pane, chained so two calls' steps never interleave (act/input.ts). */
  readonly inputQueues = new Map<string, Promise<unknown>>();
  /** Frames typed and not yet ended, by pane (act/run-command.ts). */
  readonly activeRuns = new Map<string, ActiveRun>();
  /** Ends of timed-out integrated runs seen after their call answered, by pane (act/run-command.ts). */
  readonly endedRuns = new Map<string, EndedRun>();
  /** Shell processes where installing the integration failed, pane id to pid (act/shell-integration/readiness.ts). */
  readonly installFailed = new Map<string, number>();
  /** The shared output stream of each watched pane (watch/pane-streams.ts). */
  readonly paneStreams = new Map<string, StreamEntry>();
  /** Input marks being set in tmux (watch/input-mark.ts). */
  readonly markWrites = new Set<Promise<unknown>>();
  /** The recording of each recorded pane (watch/recorder.ts). */
  readonly recordings = new Map<string, Recording>();
  /** The session list last read, while tmux reports no change (read/session-list.ts). */
  keptSessions: KeptSessions | undefined;
}
