/**
 * The process is shutting down (its client closed stdin, or it was told to stop): waits in flight
 * end at once with what they have, as if their time were up, so every call can still be answered
 * within the second the process allows itself before it exits. One per process, like the client.
 */
const controller = new AbortController();

/** Aborted once shutdown begins; waits listen to it beside their own deadline. */
export const shutdownSignal: AbortSignal = controller.signal;

export function beginShutdown(): void {
  controller.abort(new Error('the server is shutting down'));
}

export function isShuttingDown(): boolean {
  return controller.signal.aborted;
}

/** Runs `fn` when shutdown begins (at once if it has); returns the function that stops listening. */
export function onShutdown(fn: () => void): () => void {
  if (controller.signal.aborted) {
    fn();
    return () => {};
  }
  controller.signal.addEventListener('abort', fn, { once: true });
  return () => controller.signal.removeEventListener('abort', fn);
}

/** What a call that ended early because of shutdown says about it. */
export const SHUTDOWN_NOTE = 'the server is shutting down (its client ended the input): any wait in this call ended early with what it had';
