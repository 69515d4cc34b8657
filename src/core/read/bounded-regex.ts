/**
 * Regular expressions from callers, matched so that no pattern can hang the server. V8 can run a
 * pattern in linear time when the pattern allows it; such patterns run on the usual (fast) engine
 * and fall back to the linear one if they start to backtrack without bound. The others
 * (backreferences, lookaround, case-insensitive) run in a vm context with a time limit per match.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

// The first flag lets `new RegExp(source, 'l')` say whether a pattern can run in linear time; the
// second makes such patterns switch to that engine after too much backtracking. Both are regexp
// engine switches, read when a pattern compiles or runs, so setting them at run time takes effect.
v8.setFlagsFromString('--enable-experimental-regexp-engine');
v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');

/** How long one match of a pattern that cannot run in linear time may take. */
export const MATCH_LIMIT_MS = 250;

export class MatchTimeoutError extends Error {
  constructor() {
    super(`matching took over ${MATCH_LIMIT_MS} ms`);
  }
}

export interface BoundedRegex {
  /** Like RegExp#exec; throws MatchTimeoutError when a match runs too long. */
  exec(text: string): { index: number; 0: string } | null;
  /** True when the pattern runs in time linear in the text (it cannot time out). */
  readonly linear: boolean;
}

/** Compiles `source`; an invalid pattern throws the SyntaxError `new RegExp` throws. */
export function boundedRegex(source: string, flags = ''): BoundedRegex {
  const re = new RegExp(source, flags);
  if (runsInLinearTime(source, flags)) return { linear: true, exec: (text) => re.exec(text) };
  return {
    linear: false,
    exec(text) {
      // One context serves every such pattern (a context costs memory); matches run one at a time.
      sandbox ??= { context: vm.createContext({ re: null, text: '' }), match: new vm.Script('re.exec(text)') };
      sandbox.context.re = re;
      sandbox.context.text = text;
      try {
        return sandbox.match.runInContext(sandbox.context, { timeout: MATCH_LIMIT_MS }) as RegExpExecArray | null;
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new MatchTimeoutError();
        throw error;
      } finally {
        sandbox.context.re = null;
        sandbox.context.text = '';
      }
    },
  };
}

let sandbox: { context: vm.Context; match: vm.Script } | undefined;

/** `text` as a pattern that matches exactly it: every character special to RegExp escaped. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function runsInLinearTime(source: string, flags: string): boolean {
  try {
    new RegExp(source, `${flags}l`);
    return true;
  } catch {
    return false;
  }
}
