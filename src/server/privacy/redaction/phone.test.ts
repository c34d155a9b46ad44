/** Phones: the call's own numbers kept, however said; the fictional 555-01xx redacted. */
import { describe, expect, it } from 'vitest';
import { ALL_ON } from '../../../../tests/fixtures/redaction-options';
import { redactText } from './engine';

describe('redactText', () => {
  it('never redacts the call’s own numbers, however they are said, but does redact others', () => {
    const keepNumbers = ['+14155552671', '+442079460958'];
    const text = 'I’m on +1 415-555-2671, the office is 020 7946 0958, my wife is on 212 555 0199';
    expect(redactText(text, { ...ALL_ON, keepNumbers }).text).toBe(
      'I’m on +1 415-555-2671, the office is 020 7946 0958, my wife is on [PHONE]',
    );
  });

  it('redacts the fictional 555-01xx numbers like real ones, however written, but keeps the call’s own', () => {
    for (const said of ['(555) 555-0123', '555-0199', '555 555 0123', '1 (555) 555-0100', '212.555.0142'])
      expect(redactText(`Jane, ${said}, wants a quote`, ALL_ON).text).toBe('Jane, [PHONE], wants a quote');
    expect(redactText('Jane, 555-0199, wants a quote', { ...ALL_ON, phones: false }).text).toBe(
      'Jane, 555-0199, wants a quote',
    );
    expect(
      redactText('I am on (555) 555-0123, she is on 555-0199', { ...ALL_ON, keepNumbers: ['+15555550123'] })
        .text,
    ).toBe('I am on (555) 555-0123, she is on [PHONE]');
    // A word naming another kind of number still keeps it; a longer run is not this shape.
    expect(redactText('ticket 5550199 is closed', ALL_ON).text).toBe('ticket 5550199 is closed');
    expect(redactText('it weighs 55501990 grams', ALL_ON).text).toBe('it weighs 55501990 grams');
  });
});
