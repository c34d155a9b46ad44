/**
 * Which day or hour labels a dashboard chart shows under its x axis. Recharts picks
 * them by measuring every label's text in the page (a span in the body and getBoundingClientRect
 * for each), which forces the browser to lay out the whole page once per label: most of the
 * demo's longest task on a slowed phone. Labels here are short ("Nov 28", "11 PM"), so a fixed
 * width per label decides instead, the same way: the last label (today, or this hour) always,
 * then every step-th going back.
 */

/** A label's width with the gap Recharts kept between labels (minTickGap 16). */
export const LABEL_WIDTH_PX = 64;

/** Every how many points a label shows, for `count` points over `plotWidth` pixels. */
export function labelStep(count: number, plotWidth: number): number {
  return Math.max(1, Math.ceil((count * LABEL_WIDTH_PX) / Math.max(1, plotWidth)));
}

/** Whether the point at `index` of `count` carries its label. */
export function showsLabel(index: number, count: number, step: number): boolean {
  return (count - 1 - index) % step === 0;
}
