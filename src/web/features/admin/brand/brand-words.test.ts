import { describe, expect, it } from 'vitest';
import { brandPalette } from '../../../../contract/brand-contrast';
import { colourName, formatRatio, readabilityNotes } from './brand-words';

describe('colourName', () => {
  it('names everyday colours by hue and lightness', () => {
    expect(colourName('#ffd400')).toBe('Yellow');
    expect(colourName('#155dfc')).toBe('Blue');
    expect(colourName('#ff0000')).toBe('Red');
    expect(colourName('#00a651')).toBe('Green');
    expect(colourName('#0a0a40')).toBe('Dark blue');
    expect(colourName('#846d00')).toBe('Brown');
    expect(colourName('#ffffff')).toBe('White');
    expect(colourName('#777777')).toBe('Grey');
  });
});

describe('formatRatio', () => {
  it('rounds down so a failing pair never reads as passing', () => {
    expect(formatRatio(4.49)).toBe('4.4:1');
    expect(formatRatio(1.43)).toBe('1.4:1');
    expect(formatRatio(21)).toBe('21.0:1');
  });
});

describe('readabilityNotes', () => {
  it('says why a yellow primary gets black text and a darker shade as text on white', () => {
    const notes = readabilityNotes(brandPalette('#ffd400', '#0e7490'));
    expect(notes.map((n) => n.id)).toEqual(['primary-foreground', 'primary-text']);
    expect(notes[0].text).toBe(
      'White text on #ffd400 is hard to read (1.4:1), so text on it is black (14.6:1)',
    );
    expect(notes[1].text).toMatch(
      /^Yellow text on white is hard to read \(1\.4:1\), so links and text in the primary colour use #[0-9a-f]{6} \(4\.5:1\)$/,
    );
    expect(notes[1].from).toBe('#ffd400');
  });

  it('says nothing about the fill when white text reads on it', () => {
    const notes = readabilityNotes(brandPalette('#155dfc', '#0e7490'));
    expect(notes.map((n) => n.id)).toEqual(['primary-dark']);
    expect(notes[0].text).toMatch(/^Blue text on the dark theme is hard to read/);
  });

  it('names a pale accent', () => {
    const notes = readabilityNotes(brandPalette('#0a0a40', '#ffee00'));
    expect(notes.find((n) => n.id === 'accent')?.text).toMatch(
      /^Yellow lines and icons on white are hard to see \(1\.\d:1\), so the accent uses #[0-9a-f]{6} \(3\.0:1\)$/,
    );
  });
});
