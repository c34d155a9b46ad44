/** Dates: a date read where it is said, and a date of birth only after a word naming one. */
import { describe, expect, it } from 'vitest';
import { NONE } from '../../../../tests/fixtures/redaction-options';
import { readDate } from './dates';
import { redactText } from './engine';
import { tokenize } from './tokens';

describe('dates', () => {
  it('reads a spoken date after its lead-in words, and a birth date only when one is named', () => {
    const tokens = tokenize('it was oh four twenty-seven, thanks');
    expect(readDate(tokens, 0, 4)).toEqual({ first: 2, last: 6 });
    expect(readDate(tokenize('thanks a lot'), 0, 4)).toBeNull();
    const dates = { ...NONE, dates: true };
    expect(redactText('born on March 12th, 1985, and I will be there in 3 days', dates).text).toBe(
      'born on [DOB], and I will be there in 3 days',
    );
    expect(redactText('she was born in 3 days', dates).text).toBe('she was born in 3 days');
  });
});
