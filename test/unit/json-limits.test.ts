/** The raw-text scan behind the inbound JSON limits: what counts as depth, a token, a duplicate key. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonBytesProblem, jsonTextProblem } from '../../src/mcp/wire/json-limits.js';

const limits = { maxDepth: 3, maxTokens: 10 };

test('depth counts objects and arrays, not brackets inside strings', () => {
  assert.equal(jsonTextProblem('{"a":[{"b":1}]}', limits), undefined);
  assert.match(jsonTextProblem('{"a":[[{"b":1}]]}', limits)!, /deeper than 3/);
  assert.equal(jsonTextProblem('{"a":"[[[[[[{{{{"}', limits), undefined);
});

test('tokens count strings, scalars and openings; an escaped quote does not end a string', () => {
  // {, "a", [, 1, 2, true, null, "x\"y" = 8
  assert.equal(jsonTextProblem('{"a":[1,2,true,null,"x\\"y"]}', limits), undefined);
  assert.match(jsonTextProblem('{"a":[1,2,3,4,5,6,7,8]}', limits)!, /more than 10 tokens/);
  assert.equal(jsonTextProblem('{"a":-1.5e10}', { maxDepth: 3, maxTokens: 3 }), undefined);
});

test('a key named twice in one object is found, also when spelled with escapes; the same key in two objects is not', () => {
  assert.match(jsonTextProblem('{"a":1,"a":2}', { maxDepth: 9, maxTokens: 99 })!, /duplicate key "a"/);
  assert.match(jsonTextProblem('{"a":1,"\\u0061":2}', { maxDepth: 9, maxTokens: 99 })!, /duplicate key "a"/);
  assert.equal(jsonTextProblem('{"a":{"a":1},"b":[{"a":1},{"a":2}]}', { maxDepth: 9, maxTokens: 99 }), undefined);
  // A string value equal to a key is no key.
  assert.equal(jsonTextProblem('{"a":"a","b":"a"}', { maxDepth: 9, maxTokens: 99 }), undefined);
});

test('bytes: the size is counted in UTF-8 bytes, and invalid UTF-8 is refused', () => {
  const all = { maxBytes: 8, maxDepth: 9, maxTokens: 99, message: 'x' };
  assert.equal(jsonBytesProblem(Buffer.from('["éé"]'), all), undefined); // 8 bytes
  assert.match(jsonBytesProblem(Buffer.from('["ééé"]'), all)!, /longer than 8 bytes/);
  assert.match(jsonBytesProblem(Buffer.from([0x5b, 0x22, 0xff, 0x22, 0x5d]), all)!, /not valid UTF-8/);
});
