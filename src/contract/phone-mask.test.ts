import { describe, expect, it } from 'vitest';
import { isMaskedPhoneNumber, maskPhoneNumber } from './phone-mask';

describe('maskPhoneNumber', () => {
  it('keeps the country code, the area code and the last four digits', () => {
    expect(maskPhoneNumber('+12125550100')).toBe('+1 212 ••• 0100');
    expect(maskPhoneNumber('+442079460958')).toBe('+44 20 ••• 0958');
  });

  it('keeps only the last four digits of what does not parse', () => {
    expect(maskPhoneNumber('5550100')).toBe('••• 0100');
    expect(maskPhoneNumber('anonymous')).toBe('•••');
    expect(maskPhoneNumber('12')).toBe('•••');
  });

  it('never shows the hidden digits', () => {
    const masked = maskPhoneNumber('+14155550123');
    expect(masked).not.toContain('555');
    expect(isMaskedPhoneNumber(masked)).toBe(true);
    expect(isMaskedPhoneNumber('+14155550123')).toBe(false);
  });

  it('leaves an empty number empty', () => {
    expect(maskPhoneNumber('')).toBe('');
    expect(maskPhoneNumber(null)).toBe('');
  });
});
