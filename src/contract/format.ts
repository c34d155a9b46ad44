/**
 * Display formats shared by every view (SPEC §9 "Display formats"). Pure functions, US English,
 * no dependence on the machine's locale; only formatCallCreated uses a time zone (the viewer's,
 * unless one is given).
 */

const countFormat = new Intl.NumberFormat('en-US');
const moneyFormat = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const chartDateFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

function finiteOrZero(n: number): number {
  return Number.isFinite(n) ? n : 0;
}

/** Seconds as minutes:seconds, seconds zero-padded: 0 → "0:00", 65 → "1:05", 3725 → "62:05". */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(finiteOrZero(seconds)));
  const minutes = Math.floor(total / 60);
  return `${minutes}:${String(total % 60).padStart(2, '0')}`;
}

/** Dollars with a dollar sign, thousands separators and exactly two decimals: "$1,234.50". */
export function formatMoney(dollars: number): string {
  return moneyFormat.format(finiteOrZero(dollars));
}

/** The change rounded as it is shown, so the sign and the colour never disagree (-0.04 is "+0.0%"). */
function roundedChange(percent: number): number {
  const rounded = Number(Math.abs(finiteOrZero(percent)).toFixed(1));
  return percent < 0 && rounded !== 0 ? -rounded : rounded;
}

/** Percent change with one decimal and an explicit plus at zero or above: "+12.5%", "-3.2%". */
export function formatPercentChange(percent: number): string {
  const rounded = roundedChange(percent);
  return `${rounded >= 0 ? '+' : '-'}${Math.abs(rounded).toFixed(1)}%`;
}

/** Whether a change shows as non-negative (green) rather than negative (red). */
export function isNonNegativeChange(percent: number): boolean {
  return roundedChange(percent) >= 0;
}

/** What a rise of a figure means for the business: good (calls, revenue) or bad (cost, failures). */
export type GoodWhen = 'up' | 'down';

/**
 * The colour a change means beyond SPEC's four cards (which keep green for zero or above): good
 * news, bad news, or flat when it shows as +0.0%. The agency's Analytics and the outcome cards
 * both read it, so "Failed +150%" is never green.
 */
export function changeMeaning(percent: number, goodWhen: GoodWhen): 'good' | 'bad' | 'flat' {
  const rounded = roundedChange(percent);
  if (rounded === 0) return 'flat';
  return rounded > 0 === (goodWhen === 'up') ? 'good' : 'bad';
}

/** Shown in place of a percentage when the earlier period had none: no percentage against zero. */
export const CHANGE_FROM_NOTHING = 'new';

/** Whether a figure rose from nothing: its change is CHANGE_FROM_NOTHING, not "+100.0%". */
export function isChangeFromNothing(current: number, previous: number | null | undefined): boolean {
  return previous === 0 && current !== 0;
}

/** A count with US thousands separators: 12345 → "12,345". */
export function formatCount(n: number): string {
  return countFormat.format(finiteOrZero(n));
}

/**
 * A chart day "YYYY-MM-DD" as short month and day: "2026-03-05" → "Mar 5". The day is a
 * calendar date, so it is formatted as such, never shifted by the viewer's time zone.
 */
export function formatChartDate(date: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  if (!match) return date;
  const [, year, month, day] = match;
  const utc = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return Number.isNaN(utc.getTime()) ? date : chartDateFormat.format(utc);
}

/**
 * A call's creation time as a short date with 12-hour time: "3/5/2026, 2:07 PM", in the viewer's
 * time zone unless one is given. Unparseable input is returned as it came.
 */
export function formatCallCreated(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return (
    date
      .toLocaleString('en-US', {
        month: 'numeric',
        day: 'numeric',
        year: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
        hour12: true,
        timeZone,
      })
      // Newer ICU puts a narrow no-break space before AM/PM; text searches expect a plain one.
      .replace(/\u202f/g, ' ')
  );
}
