/** Opaque client tokens: what one encodes comes back, and anything else reads as no token. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeToken, encodeToken } from '../../src/core/read/tokens.js';

test('a token decodes to its value; another prefix, bad base64 or bad JSON decodes to undefined', () => {
  const value = { p: '%3', n: [1, 2], s: 'é\n"' };
  const token = encodeToken('cs1.', value);
  assert.match(token, /^cs1\.[A-Za-z0-9_-]+$/);
  assert.deepEqual(decodeToken('cs1.', token), value);
  assert.equal(decodeToken('tmuxw1_', token), undefined);
  assert.equal(decodeToken('cs1.', 'cs1.'), undefined);
  assert.equal(decodeToken('cs1.', `cs1.${Buffer.from('{not json').toString('base64url')}`), undefined);
});
