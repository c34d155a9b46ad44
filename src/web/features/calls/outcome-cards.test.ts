import { describe, expect, it } from 'vitest';
import { buildOutcomeCards, valueHeadline } from './outcome-cards';

const item = (
  name: string,
  count: number,
  previousCount: number,
  value: number | null,
  change = 0,
  goodWhen: 'up' | 'down' | null = 'up',
) => ({
  name,
  color: '#16a34a',
  count,
  previousCount,
  value,
  change,
  goodWhen,
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
        trend: 'good',
      }),
      expect.objectContaining({
        name: 'Voicemail',
        share: '25% of calls',
        value: null,
        change: '-50.0%',
        trend: 'bad',
      }),
    ]);
  });

  it('says "new" for a rise from none, not +100%', () => {
    const [card] = buildOutcomeCards([item('Booked appointment', 2, 0, 240, 100)]);
    expect(card).toMatchObject({ change: 'new', changeLabel: 'vs last period', trend: 'none' });
  });

  it('colours a change by what it means: more failures is bad news, fewer unanswered calls good', () => {
    const cards = buildOutcomeCards([
      item('Failed', 5, 2, null, 150, 'down'),
      item('No answer', 0, 3, null, -100, 'down'),
      item('Reached a person', 4, 4, null, 0, 'up'),
      item('Other', 2, 1, null, 100, null),
    ]);
    expect(cards.map((c) => [c.name, c.change, c.trend])).toEqual([
      ['Failed', '+150.0%', 'bad'],
      ['No answer', '-100.0%', 'good'],
      ['Reached a person', '+0.0%', 'flat'],
      ['Other', '+100.0%', 'none'],
    ]);
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
