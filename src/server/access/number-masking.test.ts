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
  it("finds it with / _ , separators, Unicode dashes and spaces, and any script's digits", () => {
    for (const written of [
      '212/867/0100',
      '212_867_0100',
      '212, 867, 0100',
      '212\u2013867\u20140100',
      '212\u2011867\u22120100',
      '212\u2009867\u3000\u200b0100',
      '\uff12\uff11\uff12\uff18\uff16\uff17\uff10\uff11\uff10\uff10',
      '\uff08\uff12\uff11\uff12\uff09\uff18\uff16\uff17\uff0d\uff10\uff11\uff10\uff10',
      '\u0662\u0661\u0662\u0668\u0666\u0667\u0660\u0661\u0660\u0660',
      '\u{1d7d0}\u{1d7cf}\u{1d7d0}\u{1d7d6}\u{1d7d4}\u{1d7d5}\u{1d7ce}\u{1d7cf}\u{1d7ce}\u{1d7ce}',
    ])
      expect(mask(`call ${written} now`), written).not.toMatch(/8\D{0,3}6\D{0,3}7/);
    expect(mask('call 212/867/0100 now')).toBe('call +1 212 ••• 0100 now');
  });
  it('finds it spelled in words, mixed with digits, or in parts', () => {
    for (const said of [
      'two one two eight six seven zero one zero zero',
      'Two-one-two, eight-six-seven, oh-one-oh-oh',
      '212 eight six seven oh one hundred',
      'two twelve, eighty six seven, zero one double oh',
    ])
      expect(mask(`it is ${said}, thanks`), said).toMatch(/^it is (\+1 212 ••• 0100|•••)/);
    // In parts: the digits the mask hides are hidden wherever they stand.
    expect(mask('the area code is 212')).toBe('the area code is 212');
    expect(mask('then 867, and the last four 0100')).toBe('then •••, and the last four 0100');
    expect(mask('then eight six seven')).toBe('then •••');
    expect(mask('[{"text":"212 867"},{"text":"0100"}]')).toBe('[{"text":"•••"},{"text":"0100"}]');
    // Number words that are not this number stay as they were.
    expect(mask('I have two dogs and one cat')).toBe('I have two dogs and one cat');
    expect(mask('twenty one items for ５ dollars')).toBe('twenty one items for ５ dollars');
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
      reference: 'call2128',
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
      variables: { caller_2128670100: 'yes', '+1 212 867 0100': 'caller', '+12128670100': 'again' },
      snippet: [
        { text: 'call me at 212 ', match: false },
        { text: '867', match: true },
        { text: ' 0100', match: false },
      ],
    };
    const masked = maskCall(call);
    expect(masked).toMatchObject({ id: call.id, fromNumber: '+1 212 ••• 0100', toNumber: '+1 310 ••• 0142' });
    expect(JSON.parse(masked.transcript ?? '')[0].text).toBe('It is +1 212 ••• 0100.');
    // Keys too, and two keys masked alike both stay.
    expect(masked.variables).toEqual({
      'caller_+1 212 ••• 0100': 'yes',
      '+1 212 ••• 0100': 'caller',
      '+1 212 ••• 0100 (2)': 'again',
    });
    expect(masked.snippet).toEqual([{ text: 'call me at +1 212 ••• 0100', match: false }]);
    expect(JSON.parse(maskLiveCall(JSON.stringify({ fromNumber: '+12128670100', toNumber: '' })))).toEqual({
      fromNumber: '+1 212 ••• 0100',
      toNumber: '',
    });
  });
});
