/**
 * The server's memory policy: a young generation that stays small (capYoungGeneration), and memory
 * given back when the server goes idle (collectWhenIdle).
 *
 * V8 collects its old generation only when it grows past a limit, so a server that answered a
 * thousand calls and then waits for its agent keeps their garbage resident for as long as it waits
 * (the no-op SDK server grows from ~80 to ~110 MB over 4,000 calls that way). Once a second that saw
 * no work follows enough work since the last collection, one full collection brings the heap back to
 * what is live. It runs only then, so it never delays a call, and costs a few milliseconds per idle
 * period.
 */
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Event-loop busy time since the last collection that makes one worth it, ms. */
const WORK_MS = 50;
const CHECK_MS = 1000;
/** A second with at most this share of busy time counts as idle. */
const IDLE_SHARE = 0.01;

/**
 * Keeps V8's young generation at its starting size. V8 doubles it (up to 16 MiB a semi-space, 32 MiB
 * resident) once enough objects have survived scavenges, which any long-running server reaches, and
 * never gives it back. The growth factor, unlike the maximum size, is read each time V8 considers
 * growing, so setting it to 1 at start-up works where `--max-semi-space-size` would need a command
 * line flag. A user's own semi-space setting in NODE_OPTIONS or node's arguments wins.
 */
export function capYoungGeneration(): void {
  const flags = `${process.env.NODE_OPTIONS ?? ''} ${process.execArgv.join(' ')}`;
  if (/semi[-_]space/.test(flags)) return;
  setFlagsFromString('--semi-space-growth-factor=1');
}

export function collectWhenIdle(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  let last = performance.eventLoopUtilization();
  let workSinceCollection = 0;
  setInterval(() => {
    const now = performance.eventLoopUtilization();
    const interval = performance.eventLoopUtilization(now, last);
    last = now;
    workSinceCollection += interval.active;
    if (interval.utilization > IDLE_SHARE || workSinceCollection < WORK_MS) return;
    gc();
    workSinceCollection = 0;
    last = performance.eventLoopUtilization(); // the collection itself is not work to collect after
  }, CHECK_MS).unref();
}
