/**
 * JSON values: texts inside payloads, cards sent as numbers, keys naming secrets, cards across
 * transcript lines.
 */
import { describe, expect, it } from 'vitest';
import { ALL_ON } from '../../../../tests/fixtures/redaction-options';
import { crossTurnFixes } from './engine';
import { redactValue } from './json-values';

describe('redactValue', () => {
  it('walks objects and arrays, keeps keys and non-strings, and adds up what it found', () => {
    const payload = {
      transcript: 'my card is 4242 4242 4242 4242',
      variables: { email: 'jo@example.com', attempts: 2, ok: true, none: null },
      messages: [{ role: 'user', message: 'call me on 212 555 0199' }, 'j o at gmail dot com'],
    };
    const { value, found } = redactValue(payload, ALL_ON);
    expect(value).toEqual({
      transcript: 'my card is [CARD]',
      variables: { email: '[EMAIL]', attempts: 2, ok: true, none: null },
      messages: [{ role: 'user', message: 'call me on [PHONE]' }, '[EMAIL]'],
    });
    expect(found).toMatchObject({ card: 1, email: 2, phone: 1 });
  });

  it("keeps a provider's epoch-millisecond timestamp string, but not a card sent as a field", () => {
    const { value } = redactValue(
      { startedAt: '1764239999000', card: '4242424242424242', n: 1764239999000 },
      ALL_ON,
    );
    expect(value).toEqual({ startedAt: '1764239999000', card: '[CARD]', n: 1764239999000 });
  });

  it('redacts a card sent as a JSON number, but no other long number', () => {
    const { value, found } = redactValue(
      {
        variables: { nested: { total: 5555555555554444 } },
        analysis: {
          structuredData: { amount: 4000056655665556, startedAt: 1764239999000, id: 1234567890123456 },
        },
      },
      ALL_ON,
    );
    expect(value).toEqual({
      variables: { nested: { total: '[CARD]' } },
      analysis: { structuredData: { amount: '[CARD]', startedAt: 1764239999000, id: 1234567890123456 } },
    });
    expect(found).toMatchObject({ card: 2, cardLuhnValid: 2 });
  });

  it('redacts whatever a key naming a secret holds, per category', () => {
    const payload = {
      variables: {
        pan: 5555555555554444,
        cvv: '739',
        ssn: '219099999',
        cardNumber: '4000 0566',
        card_expiry: '04/27',
        iban: 'GB82 WEST 1234 5698 7654 32',
        card: { brand: 'visa', exp_month: 4 },
        card_type: 'visa',
        cc: 'ops@example.com',
        panel: 'left',
        security_code: 314,
        ok: true,
        none: null,
      },
    };
    const cardsOnly = redactValue(payload, { ...ALL_ON, nationalIds: false, emails: false }).value;
    expect(cardsOnly).toEqual({
      variables: {
        pan: '[CARD]',
        cvv: '[CVC]',
        ssn: '219099999',
        cardNumber: '[CARD]',
        card_expiry: '[EXPIRY]',
        iban: '[CARD]',
        card: { brand: '[CARD]', exp_month: '[CARD]' },
        card_type: 'visa',
        cc: 'ops@example.com',
        panel: 'left',
        security_code: '[CVC]',
        ok: true,
        none: null,
      },
    });
    const withIds = redactValue(payload, ALL_ON);
    expect((withIds.value as { variables: { ssn: string } }).variables.ssn).toBe('[SSN]');
    // a payload redacted before: labels are not counted again
    expect(redactValue(withIds.value, ALL_ON).found).toEqual(redactValue({}, ALL_ON).found);
  });

  it('finds a card a speaker read across two lines in a row, in any shape of transcript', () => {
    const bland = [
      { user: 'assistant', text: 'What is the card number?' },
      { user: 'user', text: 'number 4000 0566' },
      { user: 'user', text: '5566 5556 done' },
    ];
    const vapi = [
      { role: 'bot', message: 'Go ahead.' },
      { role: 'user', message: 'five one oh five, one oh five one' },
      { role: 'user', message: 'oh five one oh, five one oh oh' },
    ];
    const { value, found } = redactValue({ transcripts: bland, artifact: { messages: vapi } }, ALL_ON);
    expect(value).toEqual({
      transcripts: [bland[0], { user: 'user', text: 'number [CARD]' }, { user: 'user', text: '[CARD] done' }],
      artifact: {
        messages: [vapi[0], { role: 'user', message: '[CARD]' }, { role: 'user', message: '[CARD]' }],
      },
    });
    expect(found).toMatchObject({ card: 2, phone: 0 });
    // Another speaker between, or two numbers that are no card: nothing joined.
    expect(crossTurnFixes(['number 4000 0566', '5566 5556 done'], ['user', 'agent'], ALL_ON).size).toBe(0);
    expect(crossTurnFixes(['order 4000 0566', '5566 5557 done'], ['user', 'user'], ALL_ON).size).toBe(0);
    expect(crossTurnFixes(['room 12', '4 people'], ['user', 'user'], ALL_ON).size).toBe(0);
  });

  it('redacts a card past 2^53 sent as a number by its scheme (its last digits are lost to parsing)', () => {
    const parsed = JSON.parse('{"pan19": 4000056655665556123, "id": 12345678901234567890, "n": 3}');
    expect(redactValue(parsed, ALL_ON).value).toEqual({ pan19: '[CARD]', id: parsed.id, n: 3 });
  });
});
