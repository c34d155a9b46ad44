/**
 * The values a client's quality rollups keep (quality_rollups_daily.value): each per-call figure
 * snapped to a grid, so a month of calls is a few hundred rows per metric, not one per call. The
 * summary's medians are those of the snapped values (nearest-rank, as per call): times to 50 ms
 * under 5 s, 250 ms under 30 s, then whole seconds; percentages to whole points; counts exact;
 * the talk/listen ratio to 0.05 (kept ×100 as an integer). Each metric's unit comes from the
 * contract's metric table.
 */
import { QUALITY_METRIC_TABLE, type QualityMetric } from '../../contract/quality';

const MAX_MS = 3_600_000;
const MAX_COUNT = 100_000;

function snapMs(ms: number): number {
  const v = Math.min(Math.max(0, ms), MAX_MS);
  const step = v < 5000 ? 50 : v < 30_000 ? 250 : 1000;
  return Math.round(v / step) * step;
}

/** The stored grid value of a figure (an integer). */
export function gridValue(metric: QualityMetric, value: number): number {
  switch (QUALITY_METRIC_TABLE[metric].unit) {
    case 'ms':
      return snapMs(value);
    case 'count':
      return Math.min(Math.max(0, Math.round(value)), MAX_COUNT);
    case 'pct':
      return Math.min(Math.max(0, Math.round(value)), 100);
    case 'ratio':
      return Math.min(Math.round(Math.max(0, value) * 20) * 5, MAX_COUNT);
  }
}

/** A grid value as the API shows it (the ratio back to a number). */
export function shownValue(metric: QualityMetric, grid: number): number {
  return QUALITY_METRIC_TABLE[metric].unit === 'ratio' ? grid / 100 : grid;
}
