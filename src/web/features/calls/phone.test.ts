import { describe, expect, it } from 'vitest';
import { formatPhone } from './phone';

describe('formatPhone', () => {
  it('groups E.164 numbers the way their country writes them', () => {
    expect(formatPhone('+14155550123')).toBe('+1 415 555 0123');
    expect(formatPhone('+442079460958')).toBe('+44 20 7946 0958');
  });

  it('leaves what it cannot read as it came, and shows a dash for nothing', () => {
    expect(formatPhone('anonymous')).toBe('anonymous');
    expect(formatPhone('+1234')).toBe('+1234');
    expect(formatPhone('')).toBe('—');
  });

  it('shows a masked number as the server gave it', () => {
    expect(formatPhone('+1 212 ••• 0100')).toBe('+1 212 ••• 0100');
    expect(formatPhone('••• 0100')).toBe('••• 0100');
  });
});
