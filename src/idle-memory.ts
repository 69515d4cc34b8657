/**
 * The server's memory policy: a young generation that stays small (capYoungGeneration), and memory
 * given back when the server goes idle (collectWhenIdle; TMUX_MCP_IDLE_GC=0 turns it off).
 *
 * V8 collects its old generation only when it grows past a limit and keeps the pages it grew, so a
 * server that answered a burst of calls and then waits for its agent would hold that garbage for as
 * long as it waits. Once a second with no work follows enough work since the last collection, one
 * compacting full collection brings the heap back to what is live and frees the emptied pages. It
 * runs only then, so it never delays a call (bench/notes.md has the numbers).
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
 * Keeps V8's young generation at its starting size. V8 doubles it once enough objects have survived
 * scavenges, which any long-running server reaches, and never gives it back. The growth factor, unlike the maximum size, is read each time V8 considers
 * growing, so setting it to 1 at start-up works where `--max-semi-space-size` would need a command
 * line flag. A user's own semi-space setting in NODE_OPTIONS or node's arguments wins.
 */
export function capYoungGeneration(): void {
  const flags = `${process.env.NODE_OPTIONS ?? ''} ${process.execArgv.join(' ')}`;
  if (/semi[-_]space/.test(flags)) return;
  setFlagsFromString('--semi-space-growth-factor=1');
}

/** Starts the idle check: a full collection after a second of rest that follows enough work. */
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
    // Compacting: without it the emptied pages stay committed and resident.
    setFlagsFromString('--compact-on-every-full-gc');
    gc();
    setFlagsFromString('--no-compact-on-every-full-gc');
    workSinceCollection = 0;
    last = performance.eventLoopUtilization(); // the collection itself is not work to collect after
  }, CHECK_MS).unref();
}
