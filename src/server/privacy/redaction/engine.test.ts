/** The engine: only the chosen categories, and text without findings left as it was. */
import { describe, expect, it } from 'vitest';
import { ALL_ON } from '../../../../tests/fixtures/redaction-options';
import { redactText } from './engine';

describe('redactText', () => {
  it('redacts only the categories chosen', () => {
    const text = 'card 4242 4242 4242 4242, email jo@example.com, phone 212 555 0199';
    const cardsOnly = redactText(text, {
      ...ALL_ON,
      emails: false,
      phones: false,
      dates: false,
      addresses: false,
      nationalIds: false,
    });
    expect(cardsOnly.text).toBe('card [CARD], email jo@example.com, phone 212 555 0199');
    expect(cardsOnly.found).toMatchObject({ card: 1, cardLuhnValid: 1, email: 0, phone: 0 });
  });

  it('leaves empty text and text without findings unchanged', () => {
    expect(redactText('', ALL_ON).text).toBe('');
    expect(redactText('hello there', ALL_ON).found.card).toBe(0);
  });
});
