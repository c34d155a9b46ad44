/**
 * "Conversation quality" in the call drawer, in one line: a verdict in plain words
 * against the client's thresholds and two or three figures. "Details" opens every figure the
 * call's timing could measure, how precisely it was timed, and why a figure is missing (a figure
 * that could not be measured is left out, never shown as "—").
 */
import { ChevronRight } from 'lucide-react';
import type { CallQuality } from '../../../../contract/quality';
import {
  DEFAULT_QUALITY_THRESHOLDS,
  type QualityThresholdValues,
} from '../../../../contract/quality-metrics';
import { useShowPlatformDetails } from '../../../lib/platform-details';
import { cn } from '../../../lib/utils';
import { callQualityFigures, qualityLine, VERDICT_WORDS } from './call-quality-figures';
import { precisionExplanation } from './quality-format';

export const NOT_MEASURED_TEXT = 'Not measured: this call has no transcript lines to measure.';

const VERDICT_CLASS = {
  good: 'text-green-700',
  fair: 'text-amber-800',
  poor: 'text-red-700',
  untimed: 'text-muted-foreground',
} as const;

export function CallQualitySection({
  quality,
  thresholds = DEFAULT_QUALITY_THRESHOLDS,
}: {
  quality: CallQuality | null;
  /** The client's thresholds (what puts a call in Needs attention); the defaults until known. */
  thresholds?: QualityThresholdValues;
}) {
  return (
    <section
      aria-labelledby="call-quality-heading"
      className="flex flex-col gap-1 rounded-md border p-3"
      data-testid="call-quality"
    >
      <h3 id="call-quality-heading" className="font-medium text-sm">
        Conversation quality
      </h3>
      {quality ? (
        <Measured quality={quality} thresholds={thresholds} />
      ) : (
        <p className="text-muted-foreground text-sm">{NOT_MEASURED_TEXT}</p>
      )}
    </section>
  );
}

function Measured({ quality, thresholds }: { quality: CallQuality; thresholds: QualityThresholdValues }) {
  const line = qualityLine(quality, thresholds);
  return (
    <>
      <p className="text-sm" data-testid="call-quality-line" data-verdict={line.verdict}>
        <span className={cn('font-medium', VERDICT_CLASS[line.verdict])}>{VERDICT_WORDS[line.verdict]}</span>
        {line.figures.map((f) => (
          <span key={f}> · {f}</span>
        ))}
      </p>
      <details className="group text-sm" data-testid="call-quality-details">
        <summary className="inline-flex min-h-9 cursor-pointer list-none items-center gap-1 rounded-sm font-medium text-primary-text outline-none focus-visible:ring-2 focus-visible:ring-ring [&::-webkit-details-marker]:hidden">
          <ChevronRight className="size-4 transition-transform group-open:rotate-90" aria-hidden="true" />
          Details
        </summary>
        <Figures quality={quality} />
      </details>
    </>
  );
}

function Figures({ quality }: { quality: CallQuality }) {
  const { figures, note } = callQualityFigures(quality);
  const showPlatform = useShowPlatformDetails();
  return (
    <div className="mt-2 flex flex-col gap-2">
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 sm:grid-cols-3">
        {figures.map((f) => (
          <div key={f.key} className="min-w-0" data-testid={`call-quality-${f.key}`}>
            <dt className="text-muted-foreground text-xs">{f.label}</dt>
            <dd className="break-words tabular-nums">{f.value}</dd>
          </div>
        ))}
      </dl>
      {note && (
        <p className="text-muted-foreground text-xs" data-testid="call-quality-note">
          {note}
        </p>
      )}
      {/* An order-only call's note says the same already. */}
      {quality.precision !== 'approx' && (
        <p className="text-muted-foreground text-xs" data-testid="call-quality-precision">
          {precisionExplanation(quality.precision, showPlatform)}
        </p>
      )}
    </div>
  );
}
