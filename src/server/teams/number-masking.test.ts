import { describe, expect, it } from 'vitest';
import { maskCall, maskLiveCall, masksNumbersFor, numberMasker } from './number-masking';

const viewer = { role: 'viewer' as const, permissions: '[]' };
const trusted = { role: 'viewer' as const, permissions: '["unmask_numbers"]' };
const owner = { role: 'owner' as const, permissions: '[]' };

describe('masksNumbersFor', () => {
  it('masks for a user without unmask_numbers, and for everyone while the client hides numbers', () => {
    const open = { hide_numbers_until_shown: 0 };
    const hidden = { hide_numbers_until_shown: 1 };
    expect(masksNumbersFor(open, viewer)).toBe(true);
    expect(masksNumbersFor(open, trusted)).toBe(false);
    expect(masksNumbersFor(open, owner)).toBe(false);
    expect(masksNumbersFor(hidden, owner)).toBe(true);
    // No client user: an admin's or the demo's read.
    expect(masksNumbersFor(hidden, null)).toBe(false);
  });
});

describe('numberMasker', () => {
  const mask = numberMasker(['+12128670100']);
  it('finds the number however it is written, and its last seven digits alone', () => {
    for (const written of [
      '+12128670100',
      '+1 (212) 867-0100',
      '(212) 867-0100',
      '212.867.0100',
      '1 212 867 0100',
    ])
      expect(mask(`call ${written} now`), written).toBe('call +1 212 ••• 0100 now');
    expect(mask('locally 867-0100')).toBe('locally +1 212 ••• 0100');
  });
  it('masks any other number in international form, and leaves other digits', () => {
    expect(mask('or +447911123456')).toBe('or +44 7911 ••• 3456');
    expect(mask('on 2026-11-27 at 10:30, ticket 4821')).toBe('on 2026-11-27 at 10:30, ticket 4821');
  });
});

describe('maskCall and maskLiveCall', () => {
  it('keeps ids and links, masks the numbers and the transcript inside its JSON', () => {
    const call = {
      id: 'call-2128670100',
      providerCallId: 'p-1',
      fromNumber: '+12128670100',
      toNumber: '+13105550142',
      duration: 60,
      status: 'completed' as const,
      pathway: 'Sales',
      createdAt: '2026-11-27T10:00:00.000Z',
      transcript: JSON.stringify([{ role: 'user', text: 'It is 212 867 0100.' }]),
      cost: 0.5,
      isSample: false,
      outcome: null,
      needsAttention: false,
      snippet: [
        { text: 'call me at 212 ', match: false },
        { text: '867', match: true },
        { text: ' 0100', match: false },
      ],
    };
    const masked = maskCall(call);
    expect(masked).toMatchObject({ id: call.id, fromNumber: '+1 212 ••• 0100', toNumber: '+1 310 ••• 0142' });
    expect(JSON.parse(masked.transcript ?? '')[0].text).toBe('It is +1 212 ••• 0100.');
    expect(masked.snippet).toEqual([{ text: 'call me at +1 212 ••• 0100', match: false }]);
    expect(JSON.parse(maskLiveCall(JSON.stringify({ fromNumber: '+12128670100', toNumber: '' })))).toEqual({
      fromNumber: '+1 212 ••• 0100',
      toNumber: '',
    });
  });
});
