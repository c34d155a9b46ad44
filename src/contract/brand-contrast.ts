/**
 * The contrast guard: from the two colours an agency saves, every colour the product
 * draws, each checked against WCAG 2.x AA with culori's `wcagContrast`. Where the saved colour
 * fails a pair, the guard keeps its hue and chroma and moves its OKLCH lightness, one step at a
 * time, until the pair passes, and reports what it changed so the admin sees why.
 *
 * Shared by the server (the PUT answer, e-mails, the PDF, the first HTML) and the browser (the
 * live preview), so both derive the same palette. Pure: no I/O.
 */
import { clampChroma, formatHex, oklch, parse, wcagContrast } from 'culori';

/** WCAG 2.x AA: body text, and large text or UI parts (icons, lines, focus rings). */
export const AA_TEXT = 4.5;
export const AA_UI = 3;

/**
 * The light surfaces primary-coloured text and links sit on: cards (white), the page background,
 * the muted and secondary panels, and the transcript's highlighted match (amber-100). Text must
 * pass on the darkest of them.
 */
const LIGHT_SURFACES = ['#ffffff', '#f8fafc', '#f1f5f9', '#fef3c7'];
/** The dark theme's page, card and muted surfaces. */
const DARK_SURFACES = ['#020618', '#0f172b', '#1d293d'];
const WHITE = '#ffffff';
const BLACK = '#000000';

export interface ContrastAdjustment {
  /** Which pair, in words the admin reads ("Primary colour as text on white"). */
  pair: string;
  from: string;
  to: string;
  /** The adjusted pair's contrast ratio, two decimals. */
  ratio: number;
}

export interface BrandPalette {
  /** Buttons and filled badges: the saved colour, unless no text colour is readable on it. */
  primary: string;
  /** Text and icons on `primary`: white or black, whichever reads better. */
  primaryForeground: string;
  /** `primary` on hover: moved away from the foreground, so hovering never loses contrast. */
  primaryHover: string;
  /** Primary as text and links on the light surfaces. */
  primaryText: string;
  /** Primary as text, links and fills in the dark theme. */
  primaryDark: string;
  primaryDarkForeground: string;
  /** The accent as lines, icons and focus rings on white (3:1). */
  accent: string;
  accentForeground: string;
  adjusted: ContrastAdjustment[];
}

const round2 = (n: number) => Math.floor(n * 100) / 100;

function minContrast(color: string, surfaces: readonly string[]): number {
  return Math.min(...surfaces.map((s) => wcagContrast(color, s)));
}

function hex(color: string): string {
  const parsed = parse(color);
  if (!parsed) throw new Error(`Not a colour: ${color}`);
  return formatHex(parsed);
}

/**
 * The nearest shade of `color` (same hue, lightness moved toward black or white) that reaches
 * `ratio` on every one of `surfaces`. Steps of 0.01 in OKLCH lightness: at most 100 tries.
 */
function shadeReaching(
  color: string,
  surfaces: readonly string[],
  ratio: number,
  direction: 'darker' | 'lighter',
) {
  const start = oklch(parse(color));
  if (!start) throw new Error(`Not a colour: ${color}`);
  for (let step = 1; step <= 100; step++) {
    const l = direction === 'darker' ? start.l - step * 0.01 : start.l + step * 0.01;
    const candidate = formatHex(clampChroma({ ...start, l: Math.min(1, Math.max(0, l)) }, 'oklch'));
    if (minContrast(candidate, surfaces) >= ratio) return candidate;
  }
  return direction === 'darker' ? BLACK : WHITE;
}

/** Keeps `color` when it reaches `ratio` on every surface; otherwise the nearest shade that does. */
function guard(
  pair: string,
  color: string,
  surfaces: readonly string[],
  ratio: number,
  direction: 'darker' | 'lighter',
  adjusted: ContrastAdjustment[],
): string {
  if (minContrast(color, surfaces) >= ratio) return color;
  const to = shadeReaching(color, surfaces, ratio, direction);
  adjusted.push({ pair, from: color, to, ratio: round2(minContrast(to, surfaces)) });
  return to;
}

/** White or black, whichever reads better on `fill`. */
function foregroundOn(fill: string): string {
  return wcagContrast(WHITE, fill) >= wcagContrast(BLACK, fill) ? WHITE : BLACK;
}

/**
 * Every colour the product draws from a brand. Black or white text always reaches 4.5:1 on some
 * side of any sRGB colour, so the fill itself is kept; what moves are the uses of the colour as
 * text or lines on the product's own surfaces.
 */
export function brandPalette(primaryColor: string, accentColor: string): BrandPalette {
  const adjusted: ContrastAdjustment[] = [];
  const primary = hex(primaryColor);
  const accentSaved = hex(accentColor);
  const primaryForeground = foregroundOn(primary);
  const primaryHover = shadeReaching(
    primary,
    [primaryForeground],
    Math.min(wcagContrast(primary, primaryForeground) + 0.6, 21),
    primaryForeground === WHITE ? 'darker' : 'lighter',
  );
  const primaryText = guard(
    'Primary colour as text on white',
    primary,
    LIGHT_SURFACES,
    AA_TEXT,
    'darker',
    adjusted,
  );
  const primaryDark = guard(
    'Primary colour as text on the dark theme',
    primary,
    DARK_SURFACES,
    AA_TEXT,
    'lighter',
    adjusted,
  );
  const accent = guard(
    'Accent colour as lines and icons on white',
    accentSaved,
    LIGHT_SURFACES,
    AA_UI,
    'darker',
    adjusted,
  );
  return {
    primary,
    primaryForeground,
    primaryHover,
    primaryText,
    primaryDark,
    primaryDarkForeground: foregroundOn(primaryDark),
    accent,
    accentForeground: foregroundOn(accent),
    adjusted,
  };
}

/** The contrast of two colours, two decimals (for the admin's preview). */
export function contrastRatio(a: string, b: string): number {
  return round2(wcagContrast(a, b));
}
