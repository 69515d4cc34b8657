/**
 * Runs user regular expressions off the main thread. A pattern like `(a+)+b` can backtrack for
 * hours on one line, and JavaScript cannot interrupt a running match; a worker thread can be
 * terminated, so a runaway pattern costs its caller a deadline instead of hanging the server.
 *
 * One worker is shared and kept while searches come (started on first use) so later searches
 * pay only message round trips, and ended once none came for IDLE_MS: it holds memory of its own. Requests are answered in order; when one overruns its deadline
 * the worker is terminated, every request still queued on it fails, and the next request starts
 * a fresh one.
 */
import { Worker } from 'node:worker_threads';

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
let key = '';
let re;
parentPort.on('message', ({ id, source, flags, lines, limit }) => {
  try {
    if (key !== flags + '/' + source) { re = new RegExp(source, flags); key = flags + '/' + source; }
    const found = [];
    for (let i = 0; i < lines.length && found.length < limit; i++) if (re.test(lines[i])) found.push(i);
    parentPort.postMessage({ id, found });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

/** The match ran past its deadline (or shared a worker with one that did) and was abandoned. */
export class RegexTimeout extends Error {
  constructor() {
    super('regular expression matching ran out of time');
  }
}

interface Pending {
  readonly resolve: (found: number[]) => void;
  readonly reject: (error: Error) => void;
}

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, Pending>();
/** A worker left without requests this long is ended (a search's batch of requests comes well inside it). */
const IDLE_MS = 2000;
let idleTimer: NodeJS.Timeout | undefined;

/** Ends the worker once nothing is pending; the next request starts a fresh one. */
function endWhenIdle(): void {
  clearTimeout(idleTimer);
  if (pending.size > 0 || !worker) return;
  idleTimer = setTimeout(() => {
    const idle = worker;
    if (!idle || pending.size > 0) return;
    worker = undefined;
    void idle.terminate();
  }, IDLE_MS).unref();
}

function current(): Worker {
  if (worker) return worker;
  const started = new Worker(WORKER_SOURCE, { eval: true });
  started.on('message', (message: { id: number; found?: number[]; error?: string }) => {
    const request = pending.get(message.id);
    if (!request) return;
    pending.delete(message.id);
    if (message.error !== undefined) request.reject(new Error(message.error));
    else request.resolve(message.found ?? []);
    endWhenIdle();
  });
  started.on('error', (error) => abandon(started, error));
  started.on('exit', () => abandon(started, new RegexTimeout()));
  // Never keeps the process alive (a pending request's timer does that). Must follow the
  // listeners: adding a 'message' listener refs the worker again.
  started.unref();
  worker = started;
  return started;
}

function abandon(which: Worker, error: Error): void {
  if (worker !== which) return;
  worker = undefined;
  for (const request of pending.values()) request.reject(error);
  pending.clear();
}

/**
 * Indices of `lines` that `source`/`flags` matches, at most `limit` of them, or a RegexTimeout
 * when the deadline (a `performance.now()` time) passes first.
 */
export function matchLines(source: string, flags: string, lines: readonly string[], limit: number, deadline: number): Promise<number[]> {
  const remaining = deadline - performance.now();
  if (remaining <= 0) return Promise.reject(new RegexTimeout());
  clearTimeout(idleTimer);
  const target = current();
  const id = nextId++;
  return new Promise<number[]>((resolve, reject) => {
    const timer = setTimeout(() => {
      abandon(target, new RegexTimeout());
      void target.terminate();
    }, remaining);
    pending.set(id, {
      resolve: (found) => {
        clearTimeout(timer);
        resolve(found);
      },
      reject: (error) => {
        clearTimeout(timer);
        reject(error);
      },
    });
    target.postMessage({ id, source, flags, lines, limit });
  });
}
