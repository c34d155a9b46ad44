import { describe, expect, it } from 'vitest';
import { buildOutcomeCards, valueHeadline } from './outcome-cards';

const item = (name: string, count: number, previousCount: number, value: number | null, change = 0) => ({
  name,
  color: '#16a34a',
  count,
  previousCount,
  value,
  change,
});

describe('outcome cards', () => {
  it('gives each outcome its share of the calls, value and change; Other only when it has calls', () => {
    const cards = buildOutcomeCards([
      item('Booked appointment', 3, 1, 360, 200),
      item('Voicemail', 1, 2, null, -50),
      item('Other', 0, 0, null),
    ]);
    expect(cards).toEqual([
      expect.objectContaining({
        name: 'Booked appointment',
        count: '3',
        share: '75% of calls',
        value: '$360.00',
        change: '+200.0%',
        trend: 'up',
      }),
      expect.objectContaining({
        name: 'Voicemail',
        share: '25% of calls',
        value: null,
        change: '-50.0%',
        trend: 'down',
      }),
    ]);
  });

  it('says "no earlier data" for a rise from none, not +100%', () => {
    const [card] = buildOutcomeCards([item('Booked appointment', 2, 0, 240, 100)]);
    expect(card).toMatchObject({ change: '—', changeLabel: 'no earlier data', trend: 'none' });
  });

  it('sums the value of the window in words', () => {
    expect(valueHeadline([item('Booked appointment', 36, 30, 4320), item('Voicemail', 9, 9, null)])).toEqual({
      total: '$4,320.00',
      text: 'in booked appointments',
    });
    expect(
      valueHeadline([
        item('Booked appointment', 2, 0, 240),
        item('Qualified lead', 12, 0, 480),
        item('Sales', 1, 0, 10),
      ])?.text,
    ).toBe('in value: $240.00 in booked appointments, $480.00 in qualified leads and $10.00 in sales');
    expect(valueHeadline([item('Voicemail', 9, 9, null)])).toBeNull();
  });
});
