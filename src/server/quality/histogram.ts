/** Percentiles of per-call figures kept as counts per value (quality_rollups_daily). */

/** value → calls, as the rollups sum them. */
export type Histogram = Map<number, number>;

export function addToHistogram(histogram: Histogram, value: number, calls: number): void {
  histogram.set(value, (histogram.get(value) ?? 0) + calls);
}

export function histogramCalls(histogram: Histogram | undefined): number {
  let calls = 0;
  for (const n of histogram?.values() ?? []) if (n > 0) calls += n;
  return calls;
}

/** Nearest-rank percentiles (as per call: quality/measure.ts) in one pass; null for no calls. */
export function histogramPercentiles(
  histogram: Histogram | undefined,
  qs: readonly number[],
): (number | null)[] {
  const values = [...(histogram ?? new Map<number, number>()).entries()]
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => a - b);
  const total = values.reduce((sum, [, n]) => sum + n, 0);
  return qs.map((q) => {
    if (total === 0) return null;
    const rank = Math.max(1, Math.ceil(q * total));
    let seen = 0;
    for (const [value, calls] of values) {
      seen += calls;
      if (seen >= rank) return value;
    }
    return values[values.length - 1]?.[0] ?? null;
  });
}

export function histogramPercentile(histogram: Histogram | undefined, q: number): number | null {
  return histogramPercentiles(histogram, [q])[0] ?? null;
}
