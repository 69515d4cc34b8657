/**
 * Searching the text of many panes at once, within fixed work budgets so one call can never
 * capture or scan without bound. Captures are issued concurrently (the control connection
 * pipelines them) in a bounded window, and matched in pane order as they arrive.
 */
import { invalidArgument } from '../failure.js';
import { onShutdown } from '../servers/shutdown.js';
import { tailBudget, trimTrailingBlank } from './capture.js';
import type { Engine } from '../engine.js';
import type { Incarnation } from './records.js';
import { rowFormat } from '../../tmux/formats.js';
import { matchLines, RegexTimeout } from './regex-worker.js';
import { escapeRegExp } from './bounded-regex.js';
import { inScope } from './listings.js';

export const SEARCH_LIMITS = {
  panes: 200,
  lines: 20_000,
  bytes: 1_000_000,
  timeMs: 5_000,
  resultBytes: 128_000,
  patternBytes: 4096,
  maxMatchesPerPane: 50,
  scrollbackLines: 500,
} as const;

/** Why a search stopped short, in the order reported. */
type SearchTruncation = 'bytes' | 'lines' | 'matches' | 'pane-output' | 'panes' | 'result-bytes' | 'time';

export interface SearchOptions {
  readonly pattern: string;
  readonly regex?: boolean;
  /** Match regardless of case. */
  readonly ignoreCase?: boolean;
  /** Most matches kept per pane (the first ones, oldest rows first). */
  readonly maxMatchesPerPane?: number;
  /** How many of each pane's newest rows (history and screen) are searched. */
  readonly scrollbackLines?: number;
  /**
   * The rows captured, numbered as capture-pane's -S/-E number them: 0 is the screen's top row,
   * negative rows are history above it. Default: `scrollbackLines` rows of history to the bottom of
   * the screen. `scrollbackLines` still caps how many of them (the newest) are searched.
   */
  readonly start?: number;
  readonly end?: number;
  /** Search only this (resolved) session's panes. */
  readonly sessionId?: string;
  readonly signal?: AbortSignal;
  /** Called after each pane is searched. */
  readonly onPane?: (done: number, total: number) => void | Promise<void>;
}

interface SearchMatch {
  readonly paneId: string;
  /** 1-based row number in the pane's captured text (oldest captured row = 1). */
  readonly line: number;
  readonly text: string;
}

export interface SearchResult {
  /** The tmux server searched (for pane refs); undefined when none is running. */
  readonly incarnation: Incarnation | undefined;
  readonly matches: SearchMatch[];
  readonly panesSearched: number;
  readonly panesAvailable: number;
  readonly truncatedBy: SearchTruncation[];
}

// Rows requested from tmux ahead of the matcher: captures go out in batches (tmux answers a batch
// written at once far faster than one command at a time), while memory stays bounded.
const ROWS_IN_FLIGHT = 40_000;
// How often (in rows) the clock is read while scanning literally.
const CLOCK_EVERY = 32;

/** Finds matching rows; answers 'timeout' when the deadline (a `performance.now()` time) passes first. */
export interface LineMatcher {
  match(lines: readonly string[], limit: number, deadline: number): Promise<number[] | 'timeout'>;
}

/** Turns the pattern into a line matcher, or fails before anything reaches tmux. */
export function compileMatcher(pattern: string, regex: boolean, ignoreCase = false): LineMatcher {
  if (pattern === '') throw invalidArgument('pattern must not be empty');
  if (Buffer.byteLength(pattern, 'utf8') > SEARCH_LIMITS.patternBytes) {
    throw invalidArgument(`pattern is longer than ${SEARCH_LIMITS.patternBytes} UTF-8 bytes`);
  }
  if (!regex && !ignoreCase) return literalMatcher(pattern);
  // Literal text that ignores case is the escaped text as a regex with the i flag.
  const source = regex ? pattern : escapeRegExp(pattern);
  const i = ignoreCase ? 'i' : '';
  // Unicode mode first; it rejects some escapes older syntax allows (`\-` outside a class), so fall back.
  let reason = '';
  for (const flags of [`u${i}`, i]) {
    try {
      new RegExp(source, flags);
      return regexMatcher(source, flags);
    } catch (error) {
      reason ||= (error as Error).message;
    }
  }
  throw invalidArgument(
    `pattern is not a valid regular expression: ${reason}`,
    'Patterns use JavaScript RegExp syntax; pass regex: false to search for the text literally.',
  );
}

function literalMatcher(text: string): LineMatcher {
  return {
    async match(lines, limit, deadline) {
      const found: number[] = [];
      for (let i = 0; i < lines.length && found.length < limit; i++) {
        if (i % CLOCK_EVERY === 0 && performance.now() > deadline) return 'timeout';
        if (lines[i]!.includes(text)) found.push(i);
      }
      return found;
    },
  };
}

/** Regex matching runs in a worker thread that is terminated at the deadline (see regex-worker.ts). */
function regexMatcher(source: string, flags: string): LineMatcher {
  return {
    async match(lines, limit, deadline) {
      try {
        return await matchLines(source, flags, lines, limit, deadline);
      } catch (error) {
        if (error instanceof RegexTimeout) return 'timeout';
        throw error;
      }
    },
  };
}

export async function searchPanes(engine: Engine, options: SearchOptions): Promise<SearchResult> {
  const matcher = compileMatcher(options.pattern, options.regex ?? false, options.ignoreCase ?? false);
  const maxPerPane = options.maxMatchesPerPane ?? SEARCH_LIMITS.maxMatchesPerPane;
  const rows = options.scrollbackLines ?? SEARCH_LIMITS.scrollbackLines;
  const range = ['-S', String(options.start ?? -rows), ...(options.end !== undefined ? ['-E', String(options.end)] : [])];
  const started = performance.now();
  const truncated = new Set<SearchTruncation>();

  const [identity, all] = await Promise.all([engine.identity(), listPaneIds(engine, options.sessionId)]);
  if (all.length > SEARCH_LIMITS.panes) truncated.add('panes');
  const panes = all.slice(0, SEARCH_LIMITS.panes);

  const matches: SearchMatch[] = [];
  let searched = 0;
  let lines = 0;
  let bytes = 0;
  let resultBytes = 0;
  let stop = false;
  const deadline = started + SEARCH_LIMITS.timeMs;

  // Keep up to `window` captures in flight; refill in a batch once half of them are used.
  const window = Math.min(SEARCH_LIMITS.panes, Math.max(16, Math.floor(ROWS_IN_FLIGHT / rows)));
  const captures: Array<Promise<string[] | undefined> | undefined> = new Array(panes.length);
  let issued = 0;
  const issue = () => {
    if (issued - searched > window / 2) return;
    while (issued < panes.length && issued < searched + window) {
      // A pane that vanished mid-search is skipped, not an error for the whole call.
      captures[issued] = engine.run(['capture-pane', '-p', '-J', '-t', panes[issued]!, ...range]).catch(() => undefined);
      issued++;
    }
  };
  issue();

  for (let i = 0; i < panes.length && !stop; i++) {
    const captured = await raceDeadline(captures[i]!, deadline);
    captures[i] = undefined;
    if (captured === 'timeout' || options.signal?.aborted) {
      truncated.add('time');
      break;
    }
    const paneId = panes[i]!;
    if (captured !== undefined) {
      // Newest `rows` rows within the per-pane byte budget; `dropped` keeps line numbers true.
      const full = trimTrailingBlank(captured);
      const byRows = full.length > rows ? full.length - rows : 0;
      const kept = tailBudget(full, rows);
      if (kept.droppedLines > byRows) truncated.add('pane-output');
      // The rows of this pane that still fit the call's row and byte budgets.
      let take = 0;
      for (; take < kept.lines.length; take++) {
        const size = Buffer.byteLength(kept.lines[take]!, 'utf8') + 1;
        if (lines >= SEARCH_LIMITS.lines) {
          truncated.add('lines');
          stop = true;
          break;
        }
        if (bytes + size > SEARCH_LIMITS.bytes) {
          truncated.add('bytes');
          stop = true;
          break;
        }
        lines++;
        bytes += size;
      }
      const found = await matcher.match(take === kept.lines.length ? kept.lines : kept.lines.slice(0, take), maxPerPane + 1, deadline);
      if (found === 'timeout') {
        truncated.add('time');
        break;
      }
      for (const [n, j] of found.entries()) {
        if (n === maxPerPane) {
          truncated.add('matches');
          break;
        }
        const text = kept.lines[j]!;
        const textBytes = Buffer.byteLength(text, 'utf8');
        if (resultBytes + textBytes > SEARCH_LIMITS.resultBytes) {
          truncated.add('result-bytes');
          stop = true;
          break;
        }
        resultBytes += textBytes;
        matches.push({ paneId, line: kept.droppedLines + j + 1, text });
      }
    }
    searched++;
    await options.onPane?.(searched, panes.length);
    issue();
  }
  // Let captures still in flight settle quietly; nobody reads them.
  for (const pending of captures) void pending?.catch(() => {});

  return {
    incarnation: identity,
    matches,
    panesSearched: searched,
    panesAvailable: all.length,
    truncatedBy: [...truncated].sort(),
  };
}

// Only ids: the full pane record costs tmux a /proc lookup per pane for fields a search never uses.
const PANE_IDS = rowFormat({ id: 'pane_id' });

/** Pane ids in tmux order, each once (a window linked into two sessions lists its panes twice). */
async function listPaneIds(engine: Engine, sessionId: string | undefined): Promise<string[]> {
  const scope = sessionId === undefined ? ['-a'] : ['-s', '-t', sessionId];
  const lines = await engine.runIfServer(['list-panes', ...scope, '-F', PANE_IDS.format]);
  const ids = [...new Set(PANE_IDS.parse(lines ?? []).map((row) => row.id))];
  // Panes outside the scope are not searched (nor named in the count of panes available).
  return engine.scope.active
    ? (
        await inScope(
          engine,
          ids.map((id) => ({ id })),
        )
      ).map((row) => row.id)
    : ids;
}

function raceDeadline<T>(promise: Promise<T>, deadline: number): Promise<T | 'timeout'> {
  const remaining = deadline - performance.now();
  if (remaining <= 0) return Promise.resolve('timeout');
  let timer: NodeJS.Timeout | undefined;
  let stopListening = () => {};
  return Promise.race([
    promise.finally(() => (clearTimeout(timer), stopListening())),
    new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), remaining);
      // Shutting down: the search ends with what it found so far, as at its deadline.
      stopListening = onShutdown(() => resolve('timeout'));
    }),
  ]);
}
