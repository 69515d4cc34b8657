/**
 * What the two paths that answer calls without a server (modern-calls.ts, session-calls.ts) share: a
 * call's outcome, the reason the SDK aborts calls with, and a plain tool result as the SDK writes it
 * (in either era) once its result schema has parsed it.
 */
import { SdkError, SdkErrorCode, type CallToolResult } from '@modelcontextprotocol/server';
import { hasExactly, isObject } from '../wire/raw-json.js';

/** A call's result, or what it threw. */
export type CallOutcome = { readonly result: CallToolResult } | { readonly error: unknown };

export async function settled(call: () => Promise<CallToolResult>): Promise<CallOutcome> {
  try {
    return { result: await call() };
  } catch (error) {
    return { error };
  }
}

/** The reason the SDK's server aborts its calls with when their exchange or session closes: a call that reads it ends the same way. */
export const connectionClosed = (): SdkError => new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');

/**
 * A call's result as the SDK's result schema gives it back (the keys in the schema's order, each text
 * block as type then text), for results made only of those keys and text blocks; undefined otherwise.
 */
export function wireCallResult(result: CallToolResult): Record<string, unknown> | undefined {
  if (!isObject(result) || !hasExactly(result, ['content'], ['structuredContent', 'isError'])) return undefined;
  const { content, isError } = result;
  if (!Array.isArray(content) || (isError !== undefined && typeof isError !== 'boolean')) return undefined;
  const blocks: Array<{ type: 'text'; text: string }> = [];
  for (const block of content as unknown[]) {
    if (!isObject(block) || !hasExactly(block, ['type', 'text'], []) || block['type'] !== 'text' || typeof block['text'] !== 'string') return undefined;
    blocks.push({ type: 'text', text: block['text'] });
  }
  return {
    content: blocks,
    ...('structuredContent' in result ? { structuredContent: result.structuredContent } : {}),
    ...('isError' in result ? { isError } : {}),
  };
}
