import { describe, expect, it } from 'vitest';
import { maskPhoneNumber } from '../../contract/phone-mask';
import { numberFor, textFor } from './call-reader';

const call = { from_number: '+12125550100', to_number: '+13105550000' };

describe('what a call message shows its reader', () => {
  it('masks the caller’s number for a reader without unmask_numbers, not for one with it', () => {
    expect(numberFor({ masked: true }, call.from_number)).toBe(maskPhoneNumber(call.from_number));
    expect(numberFor({ masked: false }, call.from_number)).toBe(call.from_number);
  });

  it('masks the call’s numbers said in free text, however they are written, and leaves the rest', () => {
    const text = 'Call back at (212) 555-0100 or +1 212 555 0100 before 2026-06-10; quote was 1234.50.';
    const masked = textFor({ masked: true }, call)(text);
    expect(masked).not.toMatch(/555.?0100|555 0100/);
    expect(masked).toContain(maskPhoneNumber(call.from_number));
    expect(masked).toContain('2026-06-10');
    expect(masked).toContain('1234.50');
    expect(textFor({ masked: false }, call)(text)).toBe(text);
  });
});
