/** Deadlines as performance.now() times, shared by every call that reconnects or retries within one. */

/** Milliseconds until `deadline` (performance.now() time), at least 1. */
export function left(deadline: number): number {
  return Math.max(1, Math.ceil(deadline - performance.now()));
}

/** `promise`, or the error `late()` makes once `deadline` (performance.now() time) passes first. */
export function byDeadline<T>(promise: Promise<T>, deadline: number, late: () => Error): Promise<T> {
  const ms = deadline - performance.now();
  if (ms <= 0) return Promise.reject(late());
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(late()), ms)));
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}
