/**
 * Searching the text of many panes at once, within fixed work budgets so one call can never
 * capture or scan without bound. Captures are issued concurrently (the control connection
 * pipelines them) in a bounded window, and matched in pane order as they arrive.
 */
import { invalidArgument } from '../mcp/tool.js';
import { PANE_OUTPUT_BYTES, tailBudget, trimTrailingBlank } from './capture.js';
import type { Engine } from './engine.js';
import type { PaneRecord } from './records.js';

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
export type SearchTruncation = 'bytes' | 'lines' | 'matches' | 'pane-output' | 'panes' | 'result-bytes' | 'time';

export interface SearchOptions {
  readonly pattern: string;
  readonly regex?: boolean;
  /** Most matches kept per pane (the first ones, oldest rows first). */
  readonly maxMatchesPerPane?: number;
  /** How many of each pane's newest rows (history and screen) are searched. */
  readonly scrollbackLines?: number;
  /** Search only this (resolved) session's panes. */
  readonly sessionId?: string;
  readonly signal?: AbortSignal;
  /** Called after each pane is searched. */
  readonly onPane?: (done: number, total: number) => void | Promise<void>;
}

export interface SearchMatch {
  readonly pane: PaneRecord;
  /** 1-based row number in the pane's captured text (oldest captured row = 1). */
  readonly line: number;
  readonly text: string;
}

export interface SearchResult {
  readonly matches: SearchMatch[];
  readonly panesSearched: number;
  readonly panesAvailable: number;
  readonly truncatedBy: SearchTruncation[];
}

// Captures in flight at once: enough to pipeline, few enough to bound memory and stop early.
const WINDOW = 64;
// How often (in rows) the clock is read while scanning.
const CLOCK_EVERY = 32;

/** Turns the pattern into a line matcher, or fails before anything reaches tmux. */
export function compileMatcher(pattern: string, regex: boolean): (line: string) => boolean {
  if (pattern === '') throw invalidArgument('pattern must not be empty');
  if (Buffer.byteLength(pattern, 'utf8') > SEARCH_LIMITS.patternBytes) {
    throw invalidArgument(`pattern is longer than ${SEARCH_LIMITS.patternBytes} UTF-8 bytes`);
  }
  if (!regex) return (line) => line.includes(pattern);
  let re: RegExp;
  try {
    re = new RegExp(pattern, 'u');
  } catch (error) {
    // Unicode mode rejects some escapes older syntax allows (`\-` outside a class); accept those too.
    try {
      re = new RegExp(pattern);
      return (line) => re.test(line);
    } catch {
      // report the Unicode-mode message below
    }
    throw invalidArgument(
      `pattern is not a valid regular expression: ${(error as Error).message}`,
      'Patterns use JavaScript RegExp syntax; pass regex: false to search for the text literally.',
    );
  }
  return (line) => re.test(line);
}

export async function searchPanes(engine: Engine, options: SearchOptions): Promise<SearchResult> {
  const matcher = compileMatcher(options.pattern, options.regex ?? false);
  const maxPerPane = options.maxMatchesPerPane ?? SEARCH_LIMITS.maxMatchesPerPane;
  const rows = options.scrollbackLines ?? SEARCH_LIMITS.scrollbackLines;
  const started = performance.now();
  const truncated = new Set<SearchTruncation>();

  const all = await engine.listPanes(options.sessionId === undefined ? {} : { sessionId: options.sessionId });
  if (all.length > SEARCH_LIMITS.panes) truncated.add('panes');
  const panes = all.slice(0, SEARCH_LIMITS.panes);

  const matches: SearchMatch[] = [];
  let searched = 0;
  let lines = 0;
  let bytes = 0;
  let resultBytes = 0;
  let stop = false;
  const deadline = started + SEARCH_LIMITS.timeMs;

  // Start WINDOW captures; each finished pane starts the next, so captures overlap with matching.
  const captures: Array<Promise<string[] | undefined> | undefined> = new Array(panes.length);
  let issued = 0;
  const issue = () => {
    while (issued < panes.length && issued < searched + WINDOW) {
      const pane = panes[issued]!;
      // A pane that vanished mid-search is skipped, not an error for the whole call.
      captures[issued] = engine.tmux.run(['capture-pane', '-p', '-J', '-t', pane.id, '-S', String(-rows)]).catch(() => undefined);
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
    const pane = panes[i]!;
    if (captured !== undefined) {
      // Newest `rows` rows within the per-pane byte budget; `dropped` keeps line numbers true.
      const full = trimTrailingBlank(captured);
      const byRows = full.length > rows ? full.length - rows : 0;
      const kept = tailBudget(full, rows, PANE_OUTPUT_BYTES);
      if (kept.droppedLines > byRows) truncated.add('pane-output');
      let found = 0;
      for (let j = 0; j < kept.lines.length; j++) {
        const text = kept.lines[j]!;
        if (lines >= SEARCH_LIMITS.lines) {
          truncated.add('lines');
          stop = true;
          break;
        }
        const size = Buffer.byteLength(text, 'utf8') + 1;
        if (bytes + size > SEARCH_LIMITS.bytes) {
          truncated.add('bytes');
          stop = true;
          break;
        }
        if (j % CLOCK_EVERY === 0 && performance.now() > deadline) {
          truncated.add('time');
          stop = true;
          break;
        }
        lines++;
        bytes += size;
        if (!matcher(text)) continue;
        if (found >= maxPerPane) {
          truncated.add('matches');
          break;
        }
        const textBytes = Buffer.byteLength(text, 'utf8');
        if (resultBytes + textBytes > SEARCH_LIMITS.resultBytes) {
          truncated.add('result-bytes');
          stop = true;
          break;
        }
        resultBytes += textBytes;
        found++;
        matches.push({ pane, line: kept.droppedLines + j + 1, text });
      }
    }
    searched++;
    await options.onPane?.(searched, panes.length);
    issue();
  }
  // Let captures still in flight settle quietly; nobody reads them.
  for (const pending of captures) void pending?.catch(() => {});

  return {
    matches,
    panesSearched: searched,
    panesAvailable: all.length,
    truncatedBy: [...truncated].sort(),
  };
}

function raceDeadline<T>(promise: Promise<T>, deadline: number): Promise<T | 'timeout'> {
  const remaining = deadline - performance.now();
  if (remaining <= 0) return Promise.resolve('timeout');
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), remaining))),
  ]);
}
