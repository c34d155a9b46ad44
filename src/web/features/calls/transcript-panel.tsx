/** An expanded call's transcript: speaker, optional time, text; scrolls above its maximum height. */
import { cn } from '../../lib/utils';
import { RedactedText } from './redacted-text';
import { formatTranscriptTime, type TranscriptLine } from './transcript';

export function TranscriptPanel({ lines }: { lines: TranscriptLine[] }) {
  return (
    <section
      className="max-h-72 overflow-y-auto rounded-md border bg-muted/40 p-3 sm:p-4"
      data-testid="transcript"
      // Keyboard users can scroll it too.
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable
      tabIndex={0}
      aria-label="Transcript"
    >
      <ol className="flex flex-col gap-3">
        {lines.map((line, i) => (
          <li key={i} className="flex flex-col gap-0.5 text-sm">
            <div className="flex items-baseline gap-2">
              <span
                className={cn(
                  'font-semibold',
                  line.speaker === 'AI Agent' ? 'text-primary-text' : 'text-foreground',
                )}
              >
                {line.speaker}
              </span>
              {line.timestamp && (
                <span className="text-muted-foreground text-xs">{formatTranscriptTime(line.timestamp)}</span>
              )}
            </div>
            <p className="whitespace-pre-wrap break-words text-foreground/90">
              <RedactedText text={line.text} />
            </p>
          </li>
        ))}
      </ol>
    </section>
  );
}
