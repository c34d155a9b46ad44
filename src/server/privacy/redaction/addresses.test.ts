/** Street addresses: a house number with its street (and flat), a UK postcode; not a distance. */
import { describe, expect, it } from 'vitest';
import { NONE } from '../../../../tests/fixtures/redaction-options';
import { redactText } from './engine';

describe('redactText', () => {
  it('finds a street address with its flat and a postcode, and leaves a distance down the road', () => {
    const addresses = { ...NONE, addresses: true };
    const r = redactText('flat 4, 12 High Road, London SW1A 1AA', addresses);
    expect(r.text).toBe('[ADDRESS], London [ADDRESS]');
    expect(r.found.address).toBe(2);
    expect(redactText('it is 5 minutes down the road', addresses).text).toBe('it is 5 minutes down the road');
  });
});
