import { wcagContrast } from 'culori';
import { describe, expect, it } from 'vitest';
import { AA_TEXT, AA_UI, brandPalette } from './brand-contrast';

describe('brandPalette', () => {
  it('keeps a yellow fill, puts black text on it and darkens it where it is text on white', () => {
    const p = brandPalette('#ffd400', '#0e7490');
    expect(p.primary).toBe('#ffd400');
    expect(p.primaryForeground).toBe('#000000');
    expect(wcagContrast(p.primaryText, '#ffffff')).toBeGreaterThanOrEqual(AA_TEXT);
    expect(wcagContrast(p.primaryText, '#fef3c7')).toBeGreaterThanOrEqual(AA_TEXT);
    expect(p.adjusted).toEqual([
      expect.objectContaining({
        pair: 'Primary colour as text on white',
        from: '#ffd400',
        to: p.primaryText,
      }),
    ]);
    expect(p.adjusted[0].ratio).toBeGreaterThanOrEqual(AA_TEXT);
  });

  it('changes nothing for a dark blue that passes on white, and lightens it for the dark theme', () => {
    const p = brandPalette('#1e3a8a', '#0e7490');
    expect(p.primaryText).toBe('#1e3a8a');
    expect(p.primaryForeground).toBe('#ffffff');
    expect(wcagContrast(p.primaryDark, '#1d293d')).toBeGreaterThanOrEqual(AA_TEXT);
    expect(p.adjusted.map((a) => a.pair)).toEqual(['Primary colour as text on the dark theme']);
  });

  it('holds every pair at AA for colours across the wheel', () => {
    for (const c of [
      '#ffffff',
      '#000000',
      '#777777',
      '#ff0000',
      '#00ff00',
      '#00ffff',
      '#ff00ff',
      '#123456',
      '#fafafa',
    ]) {
      const p = brandPalette(c, c);
      expect(wcagContrast(p.primaryForeground, p.primary)).toBeGreaterThanOrEqual(AA_TEXT);
      expect(wcagContrast(p.primaryForeground, p.primaryHover)).toBeGreaterThanOrEqual(AA_TEXT);
      expect(wcagContrast(p.primaryText, '#f1f5f9')).toBeGreaterThanOrEqual(AA_TEXT);
      expect(wcagContrast(p.primaryDark, '#1d293d')).toBeGreaterThanOrEqual(AA_TEXT);
      expect(wcagContrast(p.primaryDarkForeground, p.primaryDark)).toBeGreaterThanOrEqual(AA_TEXT);
      expect(wcagContrast(p.accent, '#fef3c7')).toBeGreaterThanOrEqual(AA_UI);
      expect(wcagContrast(p.accentForeground, p.accent)).toBeGreaterThanOrEqual(AA_TEXT);
    }
  });

  it('refuses something that is not a colour', () => {
    expect(() => brandPalette('not-a-colour', '#000000')).toThrow();
  });
});
