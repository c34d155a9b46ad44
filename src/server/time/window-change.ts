/** Percent change against the earlier window: 0 when both are 0, 100 when only the earlier is 0. */
export function percentChange(current: number, previous: number): number {
  if (previous === 0) return current === 0 ? 0 : 100;
  return Math.round(((current - previous) / previous) * 1000) / 10;
}
