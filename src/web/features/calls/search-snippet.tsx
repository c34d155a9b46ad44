/** The passage of a call a word search matched, its matching words marked. */
import type { SnippetPart } from '../../../contract/calls';
import { cn } from '../../lib/utils';
import { RedactedText } from './redacted-text';

export function SearchSnippet({ parts, className }: { parts: SnippetPart[]; className?: string }) {
  return (
    <p className={cn('text-muted-foreground text-sm', className)} data-testid="search-snippet">
      {parts.map((part, i) =>
        part.match ? (
          <mark key={i} className="rounded-sm bg-yellow-200 px-0.5 text-foreground dark:bg-yellow-700">
            <RedactedText text={part.text} />
          </mark>
        ) : (
          <span key={i}>
            <RedactedText text={part.text} />
          </span>
        ),
      )}
    </p>
  );
}
