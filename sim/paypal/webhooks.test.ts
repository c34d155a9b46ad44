import { describe, expect, it } from 'vitest';
import { addMonths, isoTime } from './state';
import { crc32 } from './webhooks';

describe('PayPal signing helpers', () => {
  it('crc32 is the IEEE checksum PayPal signs', () => {
    expect(crc32('123456789')).toBe(0xcbf43926);
    expect(crc32('')).toBe(0);
  });

  it('times look like PayPal\u2019s and months are calendar months', () => {
    const jan31 = Date.UTC(2025, 0, 31, 9, 30);
    expect(isoTime(jan31)).toBe('2025-01-31T09:30:00Z');
    expect(isoTime(addMonths(jan31, 1))).toBe('2025-02-28T09:30:00Z');
  });
});
