/**
 * A plain tool result as the SDK writes it (in either era) once its result schema has parsed it,
 * for the paths that answer calls without a server (modern-calls.ts, session-calls.ts).
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { hasExactly, isObject } from '../wire/raw-json.js';

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
