/**
 * What a wait looks for: patterns compiled (literal, or regular expressions that cannot hang the
 * server), and the scanner that finds the first stop or pattern in a pane's stream as it grows.
 */
import { boundedRegex, MATCH_LIMIT_MS, MatchTimeoutError, type BoundedRegex } from '../read/bounded-regex.js';
import { invalidArgument } from '../failure.js';
import type { PaneStream, StreamPosition } from './pane-stream.js';
import type { Matcher, WaitOutcome, WaitRequest } from './wait-request.js';

/** Compiles patterns (literal unless `regex`); a bad one is an invalid argument, before anything waits. */
export function compileMatchers(patterns: readonly string[], regex: boolean, field: string): Matcher[] {
  return patterns.map((source, index) => {
    if (source.length === 0) throw invalidArgument(`${field}[${index}] is empty; an empty pattern would match anything`);
    if (!regex) {
      return {
        source,
        find: (text) => {
          const at = text.indexOf(source);
          return at === -1 ? -1 : at + source.length;
        },
      };
    }
    let re: BoundedRegex;
    try {
      // A leading (?i), common in other regex dialects, means case-insensitive (JavaScript has no inline flags).
      re = source.startsWith('(?i)') ? boundedRegex(source.slice(4), 'i') : boundedRegex(source);
    } catch (error) {
      throw invalidArgument(
        `${field}[${index}] is not a valid regular expression: ${(error as Error).message}`,
        'Escape special characters, or pass regex: false to match the text literally.',
      );
    }
    return {
      source,
      find: (text) => {
        let m: ReturnType<typeof re.exec>;
        try {
          m = re.exec(text);
        } catch (error) {
          if (!(error instanceof MatchTimeoutError)) throw error;
          throw invalidArgument(
            `${field}[${index}] ran for over ${MATCH_LIMIT_MS} ms on one line of output without finishing (a pattern with backreferences, lookaround or (?i) can backtrack without bound); the wait was ended`,
            'Simplify the pattern (no nested repetition), or pass regex: false to match literal text.',
          );
        }
        return m ? m.index + Math.max(m[0].length, 1) : -1;
      },
    };
  });
}

/** What ended a scan: the outcome, the pattern and its index, and where in the stream the match ends. */
export interface ScanHit {
  readonly outcome: WaitOutcome;
  readonly matched?: Matcher;
  readonly matchedIndex?: number;
  readonly at?: StreamPosition;
}

/**
 * Scans what arrived since the last scan, from `from` on; complete lines are scanned once, the
 * unfinished last line again as it grows. With `skipAlternate` defined (whether the pane showed
 * the alternate screen at entry), output drawn on the alternate screen is passed over.
 */
export function scanner(
  stream: PaneStream,
  from: StreamPosition,
  request: WaitRequest,
  skipAlternate: boolean | undefined,
): () => ScanHit | undefined {
  let scanned = from;
  return () => {
    const last = stream.end;
    if (skipAlternate !== undefined && (stream.alternate ?? skipAlternate)) {
      scanned = last;
      return undefined;
    }
    for (let n = Math.max(scanned.line, stream.firstLine); n <= last.line; n++) {
      const col = n === scanned.line ? scanned.col : 0;
      const text = stream.line(n) ?? '';
      const segment = col > 0 ? text.slice(col) : text;
      const hit = segment.length > 0 ? firstMatch(segment, request) : undefined;
      // Any output at all (no patterns) ends the wait at the end of what arrived.
      if (hit) return { ...hit, at: hit.at === undefined ? stream.end : { line: n, col: col + hit.at } };
      if (n < last.line) scanned = { line: n + 1, col: 0 };
    }
    return undefined;
  };
}

/** Whether any pattern or stop shows in the screen's rows (or across them), read as a wait begins. */
export function seenAtEntry(lines: readonly string[], request: WaitRequest): boolean {
  const screen = lines.join('\n');
  return [...request.patterns, ...request.stops].some((m) => lines.some((line) => m.find(line) !== -1) || m.find(screen) !== -1);
}

/** The first stop or pattern in rows read from the screen (a capture_since backlog). */
export function matchBacklog(
  rows: readonly string[],
  request: WaitRequest,
): { outcome: WaitOutcome; matched?: Matcher; matchedIndex?: number } | undefined {
  for (const row of rows) {
    const hit = firstMatch(row, request);
    // Not `at`: a column in one row, not a place in the stream.
    if (hit) return { outcome: hit.outcome, matched: hit.matched, matchedIndex: hit.matchedIndex };
  }
  return undefined;
}

/**
 * What ends a wait in `text`: a stop first, then a pattern (with where its match ends in `at`);
 * with no patterns, any text that is not blank (no `at`).
 */
function firstMatch(
  text: string,
  request: WaitRequest,
): { outcome: WaitOutcome; matched?: Matcher; matchedIndex?: number; at?: number } | undefined {
  for (const [list, outcome] of [
    [request.stops, 'stopped'],
    [request.patterns, 'matched'],
  ] as const) {
    for (let i = 0; i < list.length; i++) {
      const at = list[i]!.find(text);
      if (at !== -1) return { outcome, matched: list[i], matchedIndex: i, at };
    }
  }
  if (request.patterns.length === 0 && text.trim().length > 0) return { outcome: 'matched' };
  return undefined;
}
