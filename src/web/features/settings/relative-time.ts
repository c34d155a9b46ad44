/** "Just now", "5 minutes ago", "3 hours ago", "2 days ago": how long ago a session was last seen. */
const UNITS: [limitMs: number, unitMs: number, name: string][] = [
  [60 * 60_000, 60_000, 'minute'],
  [24 * 60 * 60_000, 60 * 60_000, 'hour'],
  [Number.POSITIVE_INFINITY, 24 * 60 * 60_000, 'day'],
];

export function timeAgo(iso: string, now: number = Date.now()): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const elapsed = Math.max(0, now - at);
  if (elapsed < 60_000) return 'Just now';
  for (const [limit, unit, name] of UNITS) {
    if (elapsed < limit) {
      const n = Math.floor(elapsed / unit);
      return `${n} ${name}${n === 1 ? '' : 's'} ago`;
    }
  }
  return iso;
}
