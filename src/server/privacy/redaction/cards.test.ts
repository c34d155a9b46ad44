/** Cards: a card failing the Luhn check is still redacted, and labelled so. */
import { describe, expect, it } from 'vitest';
import { ALL_ON } from '../../../../tests/fixtures/redaction-options';
import { luhnValid } from './cards';
import { redactText } from './engine';

describe('redactText', () => {
  it('labels a card that fails the Luhn check but still redacts it', () => {
    const r = redactText('card 4242 4242 4242 4241', ALL_ON);
    expect(r.text).toBe('card [CARD]');
    expect(r.found.card).toBe(1);
    expect(r.found.cardLuhnValid).toBe(0);
    expect(luhnValid('4242424242424242')).toBe(true);
  });
});
