/**
 * Tool results on the wire: a success as structuredContent with its JSON as text, a failure as an
 * error result whose text says what went wrong and what to do next, and the size a response will
 * take, measured without encoding a large structured value twice.
 */
import type { CallToolResult, RequestId } from '@modelcontextprotocol/server';
import { asFailure } from '../../core/index.js';
import type { ToolOutcome } from './tool.js';

/** The most bytes one JSON-RPC response may take on the wire. */
export const MAX_RESPONSE_BYTES = 1_000_000;

/**
 * A result ready for the wire, with what its maker already knows of its size, carried beside it
 * so measuring it against the cap need not encode the structured value again.
 */
export interface RenderedResult {
  readonly result: CallToolResult;
  /** The JSON of `result.structuredContent`, when it was made as the text. */
  readonly structuredJson?: string;
  /** UTF-8 bytes of that JSON, when the tool counted them instead. */
  readonly structuredBytes?: number;
}

/** A success: structuredContent, and as text the tool's own or else the JSON of the structured value. */
export function successResult(outcome: ToolOutcome): RenderedResult {
  if (outcome.text !== undefined) {
    const result: CallToolResult = { content: [{ type: 'text', text: outcome.text }], structuredContent: outcome.structured };
    return outcome.structuredBytes !== undefined ? { result, structuredBytes: outcome.structuredBytes } : { result };
  }
  const json = JSON.stringify(outcome.structured);
  return { result: { content: [{ type: 'text', text: json }], structuredContent: outcome.structured }, structuredJson: json };
}

/** The message and, when there is one, the next step, for any failure a handler can throw. */
export function describeError(error: unknown): string {
  const failure = asFailure(error);
  if (failure) return failure.sentence;
  if (error instanceof Error) return `internal error: ${error.message}`;
  return `internal error: ${String(error)}`;
}

/** A failure as a tool error: text only, never structuredContent (it would be checked against the success schema). */
export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** Bytes the JSON-RPC envelope and the line break add around a result, with room for SDK-added fields. */
function envelopeBytes(requestId: RequestId): number {
  return Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', id: requestId, result: null }), 'utf8') - 4 + 1 + ENVELOPE_SLACK;
}
const ENVELOPE_SLACK = 1024;

/** The whole response's size when `rendered` answers request `requestId` (a bound when far below the cap). */
export function responseBytes(rendered: RenderedResult, requestId: RequestId): number {
  return resultBytes(rendered) + envelopeBytes(requestId);
}

/**
 * The encoded size of a result, or for a small result an upper bound of it (callers only compare it
 * with the cap). For the usual shapes, one text block alone or beside structuredContent, it is summed
 * from the parts, so a structured value whose JSON is already at hand (the default text) is not
 * encoded a second time only to be measured; anything else is encoded whole.
 */
function resultBytes({ result, structuredJson, structuredBytes }: RenderedResult): number {
  const block = result.content[0];
  const oneText = result.content.length === 1 && block?.type === 'text' && sameKeys(block, ['type', 'text']);
  const alone = oneText && sameKeys(result, ['content']);
  const usual = alone || (oneText && sameKeys(result, ['content', 'structuredContent']) && result.structuredContent !== undefined);
  if (!usual) return Buffer.byteLength(JSON.stringify(result), 'utf8');
  // Text alone has no structured part; beside one, its size was counted or its JSON is at hand.
  const counted = alone ? 0 : structuredBytes;
  const json = counted === undefined ? (structuredJson ?? JSON.stringify(result.structuredContent)) : '';
  const frame = alone ? TEXT_FRAME_BYTES : USUAL_FRAME_BYTES;
  // Far below the cap, a bound will do: encoded JSON takes at most 6 bytes per UTF-16 unit of a
  // string (`\u001f`) and UTF-8 at most 3 per unit of text already encoded.
  const bound = frame + 2 + 6 * block.text.length + (counted ?? 3 * json.length);
  if (bound < MAX_RESPONSE_BYTES / 2) return bound;
  return frame + Buffer.byteLength(JSON.stringify(block.text), 'utf8') + (counted ?? Buffer.byteLength(json, 'utf8'));
}

/** `{"content":[{"type":"text","text":` ... `}]}` around the text's JSON (a text-only result). */
const TEXT_FRAME_BYTES = JSON.stringify({ content: [{ type: 'text', text: '' }] }).length - 2;

/** `{"content":[{"type":"text","text":` ... `}],"structuredContent":` ... `}` around the two parts. */
const USUAL_FRAME_BYTES = JSON.stringify({ content: [{ type: 'text', text: '' }], structuredContent: {} }).length - 4;

function sameKeys(value: object, keys: readonly string[]): boolean {
  const own = Object.keys(value);
  return own.length === keys.length && own.every((key, i) => key === keys[i]);
}
