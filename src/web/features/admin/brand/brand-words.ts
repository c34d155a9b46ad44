/**
 * The contrast guard's changes in plain words for the admin ("Adjusted for
 * readability"): which pair was hard to read, how hard, and what the product draws instead.
 * Pure: the Brand tab's preview calls it on every keystroke, without a request.
 */
import { clampChroma, oklch, parse } from 'culori';
import { AA_TEXT, type BrandPalette, contrastRatio } from '../../../../contract/brand-contrast';

export interface ReadabilityNote {
  /** Stable per pair, for React keys and tests. */
  id: string;
  /** What the admin reads, e.g. "White text on #ffd400 is hard to read (1.4:1), so text on it is black (14.7:1)". */
  text: string;
  from: string;
  to: string;
  /** The contrast of what is drawn instead, x:1. */
  ratio: number;
}

const WHITE = '#ffffff';
const BLACK = '#000000';
/** The dark theme's card surface (brand-contrast.ts's DARK_SURFACES), where dark-theme text sits. */
const DARK_CARD = '#0f172b';

/** Ratios are shown rounded down, so a pair is never said to pass that does not. */
export function formatRatio(ratio: number): string {
  return `${(Math.floor(ratio * 10) / 10).toFixed(1)}:1`;
}

const HUES: readonly [number, string][] = [
  [45, 'Red'],
  [75, 'Orange'],
  [115, 'Yellow'],
  [165, 'Green'],
  [220, 'Teal'],
  [275, 'Blue'],
  [315, 'Purple'],
  [350, 'Pink'],
  [360, 'Red'],
];

/** A colour's everyday name ("Yellow", "Dark blue", "Grey"), from its OKLCH hue and lightness. */
export function colourName(color: string): string {
  const parsed = parse(color);
  const c = parsed ? oklch(clampChroma(parsed, 'oklch')) : undefined;
  if (!c) return color;
  if (c.c < 0.03 || c.h === undefined) {
    if (c.l > 0.95) return 'White';
    if (c.l < 0.2) return 'Black';
    return 'Grey';
  }
  const hue = ((c.h % 360) + 360) % 360;
  let name = HUES.find(([upTo]) => hue < upTo)?.[1] ?? 'Red';
  if ((name === 'Orange' || name === 'Yellow') && c.l < 0.55) name = 'Brown';
  return c.l < 0.35 && name !== 'Brown' ? `Dark ${name.toLowerCase()}` : name;
}

/** Why each pair the guard changed was changed: the words for the pairs brand-contrast.ts names. */
function adjustmentNote(adjusted: BrandPalette['adjusted'][number]): ReadabilityNote {
  const name = colourName(adjusted.from);
  const to = `${adjusted.to} (${formatRatio(adjusted.ratio)})`;
  const base = { from: adjusted.from, to: adjusted.to, ratio: adjusted.ratio };
  switch (adjusted.pair) {
    case 'Primary colour as text on white':
      return {
        ...base,
        id: 'primary-text',
        text: `${name} text on white is hard to read (${formatRatio(contrastRatio(adjusted.from, WHITE))}), so links and text in the primary colour use ${to}`,
      };
    case 'Primary colour as text on the dark theme':
      return {
        ...base,
        id: 'primary-dark',
        text: `${name} text on the dark theme is hard to read (${formatRatio(contrastRatio(adjusted.from, DARK_CARD))}), so the dark theme uses ${to}`,
      };
    case 'Accent colour as lines and icons on white':
      return {
        ...base,
        id: 'accent',
        text: `${name} lines and icons on white are hard to see (${formatRatio(contrastRatio(adjusted.from, WHITE))}), so the accent uses ${to}`,
      };
    default:
      return {
        ...base,
        id: adjusted.pair,
        text: `${adjusted.pair}: ${adjusted.from} is hard to read, so we use ${to}`,
      };
  }
}

/**
 * Every pair the guard changed, in words. The text on the primary fill comes first: the guard
 * keeps the fill and picks black or white for it, which the admin should know when white fails.
 */
export function readabilityNotes(palette: BrandPalette): ReadabilityNote[] {
  const notes: ReadabilityNote[] = [];
  const whiteOnPrimary = contrastRatio(WHITE, palette.primary);
  if (palette.primaryForeground === BLACK && whiteOnPrimary < AA_TEXT) {
    const ratio = contrastRatio(BLACK, palette.primary);
    notes.push({
      id: 'primary-foreground',
      text: `White text on ${palette.primary} is hard to read (${formatRatio(whiteOnPrimary)}), so text on it is black (${formatRatio(ratio)})`,
      from: WHITE,
      to: BLACK,
      ratio,
    });
  }
  return [...notes, ...palette.adjusted.map(adjustmentNote)];
}
