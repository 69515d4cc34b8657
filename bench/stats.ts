/** Percentiles and number formatting for the report. */

export interface Summary {
  readonly n: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
}

/** Nearest-rank percentiles of the samples (milliseconds): the value at rank ceil(p/100 * n). */
export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
  return { n: sorted.length, p50: at(50), p90: at(90), p99: at(99) };
}

/** Three significant figures or so: 0.042, 0.31, 7.23, 31.0, 189. */
export function ms(value: number): string {
  if (Math.abs(value) < 0.1) return value.toFixed(3);
  if (Math.abs(value) >= 100) return value.toFixed(0);
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
}
