/**
 * responseBytes, the size a tool result will take on the wire, is compared with the response cap
 * and must never undercount: for the shapes it sums from parts (one text block alone, or beside
 * structuredContent) it is held to the real encoded line, for text that JSON escapes (control
 * characters, quotes, backslashes) and multi-byte characters, small and past half the cap.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { MAX_RESPONSE_BYTES, responseBytes, successResult } from '../../src/mcp/tools/results.js';

const encoded = (result: CallToolResult, id: number) => Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\n', 'utf8');

const PIECES = ['a', '\u001f', '"', '\\', '\n', 'é', '中', '😀', '\ud800'];

function text(length: number, seed: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += PIECES[(i * 7 + seed) % PIECES.length];
  return out;
}

test('a text-only result is never counted smaller than its encoded line', () => {
  for (const [length, seed] of [
    [0, 0],
    [1, 3],
    [50, 1],
    [4_000, 5],
    [90_000, 2],
    [400_000, 7],
  ] as const) {
    const result: CallToolResult = { content: [{ type: 'text', text: text(length, seed) }] };
    const counted = responseBytes({ result }, 12345);
    assert.ok(counted >= encoded(result, 12345), `length ${length}: counted ${counted}, encoded ${encoded(result, 12345)}`);
  }
});

test('past half the cap the count is exact enough to decide the cap', () => {
  // 200,000 escaped control characters: the 6-bytes-a-unit bound (1.2 MB) would be over the cap; the real line is too.
  const escaped: CallToolResult = { content: [{ type: 'text', text: '\u001f'.repeat(200_000) }] };
  assert.ok(responseBytes({ result: escaped }, 1) >= MAX_RESPONSE_BYTES);
  // 300,000 plain letters: bound 1.8 MB, real line ~300 KB, under the cap.
  const plain: CallToolResult = { content: [{ type: 'text', text: 'a'.repeat(300_000) }] };
  assert.ok(responseBytes({ result: plain }, 1) < MAX_RESPONSE_BYTES);
  assert.ok(responseBytes({ result: plain }, 1) >= encoded(plain, 1));
});

test('a structured result with its JSON as text is never counted smaller than its encoded line', () => {
  for (const [length, seed] of [
    [0, 0],
    [30, 4],
    [5_000, 6],
  ] as const) {
    const rendered = successResult({ structured: { value: text(length, seed), list: [text(length >> 1, seed + 1)] } });
    assert.ok(responseBytes(rendered, 7) >= encoded(rendered.result, 7));
  }
});
