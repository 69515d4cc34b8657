/** The bench's interval for a mean: its verdicts on the parity table rest on it. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { meanWithInterval } from '../../bench/stats.js';

test("a mean's 95% interval is Student's t over the values, as the published tables give it", () => {
  // Half-widths t(0.975, n-1) * sd / sqrt(n) with t from the table: 2.5706 (df 5), 2.0687 (df 23).
  for (const [n, t] of [[6, 2.5706], [24, 2.0687]] as const) {
    const values = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 1 : -1) + 3);
    const { mean, low, high, sd } = meanWithInterval(values);
    const expectedSd = Math.sqrt((n * 1) / (n - 1));
    assert.equal(mean, 3);
    assert.ok(Math.abs(sd - expectedSd) < 1e-12);
    assert.ok(Math.abs((high - mean) / ((t * expectedSd) / Math.sqrt(n)) - 1) < 0.002, `n=${n}`);
    assert.ok(Math.abs(mean - low - (high - mean)) < 1e-12);
  }
});
