/**
 * What differs between the tmux versions this server drives, decided here and nowhere else.
 * The tested range is the versions the suite runs on (docs/tmux-versions.md); a newer tmux is run,
 * and said to be newer than tested; an older one is refused.
 */

/** A tmux version as `tmux -V` or `#{version}` says it: "3.3a", "3.5a", "next-3.6", "master". */
export interface TmuxVersion {
  readonly text: string;
  readonly major: number;
  readonly minor: number;
  /** The fix letter of a release ("a" of 3.5a: 1), 0 for none. */
  readonly fix: number;
}

/** Oldest tmux the suite runs on, and so the oldest this server starts with. */
export const OLDEST_TESTED = '3.3a';
/** Newest tmux the suite runs on; a newer one runs, with a word in the banner. */
export const NEWEST_TESTED = '3.5a';

/** Reads "3.3a", "next-3.6" or "master" (a build from git, which carries no number: newer than any release). */
export function parseVersion(text: string): TmuxVersion {
  const numbers = /(\d+)\.(\d+)([a-z]?)/.exec(text);
  if (!numbers) return { text, major: Number.POSITIVE_INFINITY, minor: 0, fix: 0 };
  const fix = numbers[3] ? numbers[3].charCodeAt(0) - 96 : 0;
  return { text, major: Number(numbers[1]), minor: Number(numbers[2]), fix };
}

/** Orders two versions by release and fix letter. */
function compare(a: TmuxVersion, b: TmuxVersion): number {
  return a.major - b.major || a.minor - b.minor || a.fix - b.fix;
}

/** `version` is release `major.minor` (any fix of it) or newer. */
export function atLeast(version: TmuxVersion, major: number, minor: number): boolean {
  return version.major > major || (version.major === major && version.minor >= minor);
}

/** Older than the oldest version tested: refused at start-up. */
export function tooOld(version: TmuxVersion): boolean {
  return compare(version, parseVersion(OLDEST_TESTED)) < 0;
}

/** Newer than the newest version tested: run, and said so. */
export function newerThanTested(version: TmuxVersion): boolean {
  return compare(version, parseVersion(NEWEST_TESTED)) > 0;
}

/*
 * tmux 3.4 and newer print a command's output through vis(3) (server-client.c
 * `server_client_print`: VIS_OCTAL|VIS_CSTYLE|VIS_NOSLASH): control characters and invalid UTF-8
 * come back as `\ooo` or `\r`, `\b`, `\a`, `\v`, `\f`, `\0`; a backslash itself is left alone.
 * capture-pane and show-buffer print raw in every version. Rows are read exactly on every version by
 * having tmux double their backslashes (formats.ts) and decoding what comes back here.
 */
const CSTYLE: Readonly<Record<string, string>> = { r: '\r', b: '\b', a: '\u0007', v: '\v', f: '\f', '0': '\0' };

const ESCAPE = /\\(\\|[0-3][0-7]{2}|[rbavf0])/g;

/**
 * Decodes a printed field whose backslashes tmux doubled (formats.ts): `\\` is a backslash, any other
 * escape is vis(3)'s, an octal one a byte. Reads the output of every version: before 3.4 only `\\`
 * occurs. Bytes that are not UTF-8 come back as U+FFFD, as they do from older versions' raw output.
 */
export function unescapePrinted(text: string): string {
  if (!text.includes('\\')) return text;
  const parts: Buffer[] = [];
  let last = 0;
  for (const match of text.matchAll(ESCAPE)) {
    const code = match[1]!;
    parts.push(Buffer.from(text.slice(last, match.index), 'utf8'));
    parts.push(code.length === 3 ? Buffer.of(Number.parseInt(code, 8)) : Buffer.from(code === '\\' ? '\\' : CSTYLE[code]!, 'utf8'));
    last = match.index + match[0].length;
  }
  parts.push(Buffer.from(text.slice(last), 'utf8'));
  return Buffer.concat(parts).toString('utf8');
}
