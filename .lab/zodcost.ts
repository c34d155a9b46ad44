import { AdminAnalytics } from '../src/contract/agency';
const fig = { calls: 100, minutes: 12.5, revenueCents: 1234, costCents: 800, marginCents: 434, marginPercent: 35.2, answerRate: 80.1, failureRate: 5.2 };
const changes = { calls: 10.5, minutes: 2.1, revenueCents: 3.3, costCents: 4.4, marginCents: 1.1 };
const data = {
  range: { from: '2026-10-27', to: '2026-11-25', days: 30 }, previous: { from: '2026-09-27', to: '2026-10-26' },
  totals: fig, changes, series: Array.from({ length: 30 }, (_, i) => ({ date: `2026-11-${String(i + 1).padStart(2, '0')}`, calls: 100, revenueCents: 1000, costCents: 600 })),
  clients: Array.from({ length: 1000 }, (_, i) => ({ clientId: `bench-${i}`, name: `Bench Co ${i}`, email: `bench-${i}@bench.invalid`, isActive: true, ...fig, changes, lastCallAt: new Date().toISOString() })),
};
for (let k = 0; k < 5; k++) {
  let t = performance.now(); const parsed = AdminAnalytics.parse(data); const a = performance.now() - t;
  t = performance.now(); const s = JSON.stringify(parsed); const b = performance.now() - t;
  console.log('zod parse', a.toFixed(2), 'stringify', b.toFixed(2), s.length);
}
