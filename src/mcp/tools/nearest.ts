/** Near-miss suggestions for names a caller got slightly wrong (tool names, argument names). */

/** The candidate closest to `name` by edit distance, when at most `limit` edits away; ties go to the first. */
export function nearest(name: string, candidates: Iterable<string>, limit = 3): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of candidates) {
    // A prefix or suffix match ("window" for "windowId") counts as near whatever its length.
    // The distance is at least the difference in length: skip the quadratic work when that alone is too far.
    const distance = sharesStart(name, candidate)
      ? 1
      : Math.abs(name.length - candidate.length) > limit
        ? Infinity
        : editDistance(name, candidate);
    if (distance <= limit && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}

/** One is the start of the other ("window" and "windowId"), at least three letters long. */
function sharesStart(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a.toLowerCase(), b.toLowerCase()] : [b.toLowerCase(), a.toLowerCase()];
  return short.length >= 3 && long.startsWith(short);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
