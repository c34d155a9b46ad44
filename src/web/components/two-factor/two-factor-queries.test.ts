import { describe, expect, it } from 'vitest';
import { manualKeyOf, svgDataUrl } from './two-factor-queries';

describe('two-factor set-up helpers', () => {
  it('shows the otpauth secret in groups of four for typing by hand', () => {
    const url = 'otpauth://totp/Call%20Analytics:a%40b.c?secret=MF3C5SGKWAVFULO2WSXK&issuer=Call%20Analytics';
    expect(manualKeyOf(url)).toBe('MF3C 5SGK WAVF ULO2 WSXK');
  });

  it('makes the QR code an image source, escaped', () => {
    const src = svgDataUrl('<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0h1"/></svg>');
    expect(src.startsWith('data:image/svg+xml;charset=utf-8,%3Csvg')).toBe(true);
    expect(src).not.toContain('<');
  });
});
