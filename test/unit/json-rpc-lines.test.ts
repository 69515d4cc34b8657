/** Outbound framing on stdio: one message, one line, whatever its strings hold. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { outboundLine } from '../../src/mcp/wire/json-rpc-lines.js';

test('an outbound line ends in its only newline, and no CR: line breaks inside strings travel escaped', () => {
  const text = 'one\r\ntwo\nthree\r\u2028\u2029\u0085 end';
  const line = outboundLine({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text }], structuredContent: { [text]: text } } });
  assert.equal(line.indexOf('\n'), line.length - 1);
  assert.equal(line.includes('\r'), false);
  const back = JSON.parse(line) as { result: { content: Array<{ text: string }>; structuredContent: Record<string, string> } };
  assert.equal(back.result.content[0]!.text, text);
  assert.equal(back.result.structuredContent[text], text);
});
