/** National identity numbers: a further country's only when the client names it. */
import { describe, expect, it } from 'vitest';
import { ALL_ON } from '../../../../tests/fixtures/redaction-options';
import { redactText } from './engine';

describe('redactText', () => {
  it("looks for another country's national ID only when the client selects that country", () => {
    const text = 'my social insurance number is 130 692 544';
    expect(redactText(text, ALL_ON).text).toBe(text);
    const withCanada = redactText(text, { ...ALL_ON, nationalIdCountries: ['CA'] });
    expect(withCanada.text).toBe('my social insurance number is [NATIONAL_ID]');
    expect(withCanada.found).toMatchObject({ nationalId: 1, ssn: 0 });
    // written 3-3-3 without a name: only when the Luhn check passes
    expect(redactText('it is 130 692 545', { ...ALL_ON, nationalIdCountries: ['ca'] }).text).toBe(
      'it is 130 692 545',
    );
  });
});
