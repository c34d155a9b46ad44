/**
 * A call's text with the labels redaction left in it (`[CARD]`, `[EMAIL]`, …) shown as chips, each
 * named for screen readers ("card number removed"). The one way the call views show a transcript
 * line, a summary, a collected value or a search snippet's passage.
 */
import { ShieldCheck } from 'lucide-react';
import { Fragment } from 'react';
import {
  REDACTION_LABEL_NAMES,
  REDACTION_LABEL_WORDS,
  type RedactionLabel,
  splitRedactions,
} from './redaction-labels';

export function RedactionChip({ label }: { label: RedactionLabel }) {
  const name = REDACTION_LABEL_NAMES[label];
  return (
    <span
      role="img"
      aria-label={name}
      title={name}
      data-testid="redaction-chip"
      data-label={label}
      className="mx-0.5 inline-flex items-center gap-1 whitespace-nowrap rounded-sm border border-border bg-secondary px-1.5 align-baseline font-medium text-secondary-foreground text-xs leading-5"
    >
      <ShieldCheck className="size-3 shrink-0" aria-hidden="true" />
      {REDACTION_LABEL_WORDS[label]}
    </span>
  );
}

/** The text as it is, with each redaction label drawn as a chip. */
export function RedactedText({ text }: { text: string }) {
  return (
    <>
      {splitRedactions(text).map((part, i) => (
        <Fragment key={i}>{part.kind === 'text' ? part.text : <RedactionChip label={part.label} />}</Fragment>
      ))}
    </>
  );
}
