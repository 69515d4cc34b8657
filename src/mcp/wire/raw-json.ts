/**
 * Checks on JSON as parsed, before anything knows it is a well-formed message: the paths that answer
 * the plainest requests themselves (first-answers.ts, http/modern-calls.ts, http/session-calls.ts)
 * and era routing (http/serve.ts) take a message only in the exact shape they have proven.
 */
import type { RequestId } from '@modelcontextprotocol/server';

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An id JSON-RPC allows that every SDK path keeps as it is: a string or a safe integer. */
export function isRequestId(id: unknown): id is RequestId {
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
}

/** Whether `value` has every key of `required`, and no key outside `required` and `optional`. */
export function hasExactly(value: Record<string, unknown>, required: readonly string[], optional: readonly string[]): boolean {
  const keys = Object.keys(value);
  return required.every((key) => Object.hasOwn(value, key)) && keys.every((key) => required.includes(key) || optional.includes(key));
}
