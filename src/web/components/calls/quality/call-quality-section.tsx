/**
 * "Conversation quality" in the call drawer (issue 39): the call's figures, how precisely it was
 * timed and what that allows, who ended it, whether it was escalated, the platform's sentiment.
 * A figure the timing cannot support shows "—", with the reason under the figures.
 */
import type { CallQuality } from '../../../../contract/quality';
import { callQualityFigures } from './call-quality-figures';
import { useShowPlatformDetails } from '../../../lib/platform-details';
import { precisionExplanation } from './quality-format';

export const NOT_MEASURED_TEXT = 'Not measured: this call has no transcript lines to measure.';

export function CallQualitySection({ quality }: { quality: CallQuality | null }) {
  return (
    <section
      aria-labelledby="call-quality-heading"
      className="flex flex-col gap-2 rounded-md border p-3"
      data-testid="call-quality"
    >
      <h3 id="call-quality-heading" className="font-medium text-sm">
        Conversation quality
      </h3>
      {quality ? (
        <Figures quality={quality} />
      ) : (
        <p className="text-muted-foreground text-sm">{NOT_MEASURED_TEXT}</p>
      )}
    </section>
  );
}

function Figures({ quality }: { quality: CallQuality }) {
  const { figures, note } = callQualityFigures(quality);
  const showPlatform = useShowPlatformDetails();
  return (
    <>
      <p className="text-muted-foreground text-xs" data-testid="call-quality-precision">
        {precisionExplanation(quality.precision, showPlatform)}
      </p>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-3">
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
    </>
  );
}
