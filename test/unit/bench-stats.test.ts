/** The bench's percentiles: every p50 it reports, and every check against one, rests on them. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ms, summarize } from '../../bench/stats.js';

test('percentiles are nearest-rank: the sample at rank ceil(p/100 * n), whatever order the samples came in', () => {
  const hundred = Array.from({ length: 100 }, (_, i) => 100 - i); // 100, 99, ..., 1
  assert.deepEqual(summarize(hundred), { n: 100, p50: 50, p90: 90, p99: 99 });
  // Ten samples: ranks 5, 9 and 10.
  assert.deepEqual(summarize([7, 1, 9, 3, 5, 2, 10, 4, 8, 6]), { n: 10, p50: 5, p90: 9, p99: 10 });
  // One sample is every percentile.
  assert.deepEqual(summarize([0.25]), { n: 1, p50: 0.25, p90: 0.25, p99: 0.25 });
});

test('numbers print with about three significant figures', () => {
  assert.deepEqual([0.0421, 0.314, 7.234, 31.04, 189.4, -0.0123].map(ms), ['0.042', '0.31', '7.23', '31.0', '189', '-0.012']);
});
