import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boundedRegex, escapeRegExp, MatchTimeoutError } from '../../src/core/read/bounded-regex.js';

test('patterns V8 can run in linear time are marked so, and finish on input that makes backtracking explode', () => {
  const re = boundedRegex('^(0+)+1$');
  assert.equal(re.linear, true);
  // Days of backtracking in V8's default engine: an answer at all is the linear engine at work.
  assert.equal(re.exec('0'.repeat(5000)), null);
});

test('backreferences, lookaround and case-insensitive patterns are time-limited per match', () => {
  for (const [source, flags] of [
    ['^(0+)+\\1x$', ''],
    ['^(?=0)(0+)+1$', ''],
    ['^(0+)+1$', 'i'],
  ] as const) {
    const re = boundedRegex(source, flags);
    assert.equal(re.linear, false, source);
    assert.throws(() => re.exec('0'.repeat(40)), MatchTimeoutError, source);
  }
});

test('bounded patterns find what RegExp finds', () => {
  const cases: Array<[string, string, string]> = [
    ['ERR(OR)?: (\\w+)', '', 'x ERROR: disk y'],
    ['(ab)\\1', '', 'zzababzz'],
    ['(?<=\\$ )ls', '', 'prompt$ ls -l'],
    ['done', 'i', 'All DONE.'],
    ['^\\d+ passed$', 'm', '12 passed'],
    ['nothing', '', 'something else'],
  ];
  for (const [source, flags, text] of cases) {
    const expected = new RegExp(source, flags).exec(text);
    const actual = boundedRegex(source, flags).exec(text);
    assert.deepEqual(
      actual && { index: actual.index, match: actual[0] },
      expected && { index: expected.index, match: expected[0] },
      source,
    );
  }
});

test('an invalid pattern throws the SyntaxError RegExp throws', () => {
  assert.throws(() => boundedRegex('('), SyntaxError);
});

test('escapeRegExp makes a pattern that matches exactly the text, special characters included', () => {
  const text = 'a.b*c+d?e^f$g{1}(h)|[i]\\j/k-l';
  const re = new RegExp(`^${escapeRegExp(text)}$`, 'u');
  assert.equal(re.test(text), true);
  assert.equal(re.test(text.replace('.', 'x')), false);
});
