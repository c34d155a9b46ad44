/**
 * The quality thresholds a client starts with, as plain values: the browser's first bundle reads
 * them for the log's filters and must not carry zod (see log-options.ts). quality.ts re-exports them.
 */
/** quality.ts's QualityThresholds (its schema satisfies this shape). */
export interface QualityThresholdValues {
  responseLatencyP90Ms: number | null;
  deadAirMs: number | null;
  interruptionsCaller: number | null;
}

export const DEFAULT_QUALITY_THRESHOLDS: QualityThresholdValues = {
  responseLatencyP90Ms: 3500,
  deadAirMs: 5000,
  interruptionsCaller: 3,
};
