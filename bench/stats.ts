/** Percentiles, a least-squares line for growth, and number formatting for the report. */

export interface Summary {
  readonly n: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly min: number;
  readonly max: number;
}

/** Nearest-rank percentiles of the samples (milliseconds). */
export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
  return { n: sorted.length, p50: at(50), p90: at(90), p99: at(99), min: sorted[0]!, max: sorted[sorted.length - 1]! };
}

/** The middle sample (the upper one of an even count). */
export function median(samples: readonly number[]): number {
  return [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
}

/** The mean of independent values, its 95% interval (Student's t) and their standard deviation. */
export function meanWithInterval(values: readonly number[]): { mean: number; low: number; high: number; sd: number } {
  const n = values.length;
  const mean = values.reduce((sum, v) => sum + v, 0) / n;
  const sd = Math.sqrt(values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (n - 1));
  const half = (t975(n - 1) * sd) / Math.sqrt(n);
  return { mean, low: mean - half, high: mean + half, sd };
}

/** Student's t 97.5% quantile for df degrees of freedom: the Cornish-Fisher series, within 0.1% from df 5 up. */
function t975(df: number): number {
  const z = 1.959964;
  return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2) + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3);
}

/** y = intercept + slope * x, fitted by least squares. */
export function fitLine(points: ReadonlyArray<readonly [number, number]>): { slope: number; intercept: number } {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  const slope = den === 0 ? 0 : num / den;
  return { slope, intercept: my - slope * mx };
}

export function ms(value: number): string {
  // Differences of a few microseconds (paired shifts) keep their third decimal.
  if (Math.abs(value) < 0.1) return value.toFixed(3);
  if (value >= 100) return value.toFixed(0);
  if (value >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

/** The cost of each step between measured sizes, per added unit: shows whether growth is linear. */
export function steps(points: ReadonlyArray<readonly [number, number]>, units: string, unit: string): string {
  const parts: string[] = [];
  for (let i = 1; i < points.length; i++) {
    const [n0, y0] = points[i - 1]!;
    const [n1, y1] = points[i]!;
    parts.push(`${n0} -> ${n1} ${units}: +${(((y1 - y0) / (n1 - n0)) * 1000).toFixed(1)} us per ${unit}`);
  }
  return parts.join(', ');
}
