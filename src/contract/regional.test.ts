import { describe, expect, it } from 'vitest';
import { isValidTimezone } from './admin';
import { DEFAULT_LOCALE, localeOf, suggestTimeZone } from './regional';

describe('suggestTimeZone', () => {
  it('takes a US state’s zone, by code or name, however the country is spelled', () => {
    expect(suggestTimeZone({ country: 'United States', state: 'California' })).toBe('America/Los_Angeles');
    expect(suggestTimeZone({ country: 'U.S.A.', state: 'tx' })).toBe('America/Chicago');
    expect(suggestTimeZone({ country: 'US', state: ' New  York ' })).toBe('America/New_York');
    expect(suggestTimeZone({ country: 'usa', state: 'AZ' })).toBe('America/Phoenix');
    expect(suggestTimeZone({ country: 'United States of America', state: 'Hawaii' })).toBe(
      'Pacific/Honolulu',
    );
  });

  it('reads a US state without a country as the US', () => {
    expect(suggestTimeZone({ state: 'Colorado' })).toBe('America/Denver');
    expect(suggestTimeZone({ country: '', state: 'WA' })).toBe('America/Los_Angeles');
  });

  it('gives a country’s most populous zone, and the US’s without a known state', () => {
    expect(suggestTimeZone({ country: 'Germany' })).toBe('Europe/Berlin');
    expect(suggestTimeZone({ country: 'DE' })).toBe('Europe/Berlin');
    expect(suggestTimeZone({ country: 'UK', state: 'Kent' })).toBe('Europe/London');
    expect(suggestTimeZone({ country: 'Australia', state: 'WA' })).toBe('Australia/Sydney');
    expect(suggestTimeZone({ country: 'Brazil' })).toBe('America/Sao_Paulo');
    expect(suggestTimeZone({ country: 'United States', state: 'Nowhere' })).toBe('America/New_York');
  });

  it('suggests nothing when neither says', () => {
    expect(suggestTimeZone({})).toBeNull();
    expect(suggestTimeZone({ country: 'Atlantis', state: 'Texas' })).toBeNull();
    expect(suggestTimeZone({ country: '  ', state: '' })).toBeNull();
  });

  it('suggests only zones every browser and the server accept', () => {
    const countries = [
      'US',
      'CA',
      'MX',
      'GB',
      'DE',
      'FR',
      'IN',
      'JP',
      'AU',
      'NZ',
      'BR',
      'AR',
      'UA',
      'ZA',
      'SG',
    ];
    const states = ['AL', 'AK', 'ID', 'IN', 'MI', 'PR', 'DC', 'KY', 'TN'];
    const zones = [
      ...countries.map((country) => suggestTimeZone({ country })),
      ...states.map((state) => suggestTimeZone({ country: 'US', state })),
    ];
    for (const zone of zones) expect(zone !== null && isValidTimezone(zone), String(zone)).toBe(true);
  });
});

describe('localeOf', () => {
  it('writes dates as the country does, and as en-US when the country is unknown', () => {
    expect(localeOf('United States')).toBe('en-US');
    expect(localeOf('United Kingdom')).toBe('en-GB');
    expect(localeOf('Deutschland')).toBe('de-DE');
    expect(localeOf('fr')).toBe('fr-FR');
    expect(localeOf('Atlantis')).toBe(DEFAULT_LOCALE);
    expect(localeOf(null)).toBe('en-US');
  });
});
