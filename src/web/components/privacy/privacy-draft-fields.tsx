/**
 * The two parts of a privacy form, "Redact on arrival" and "Keep personal data", on a
 * `PrivacyDraft`: the client's (with the agency's limits and the re-redaction progress) and the
 * agency's defaults render the same fields.
 */
import type { ReactNode } from 'react';
import { PRIVACY_TEXTS, type Retention, type RetentionField } from '../../../contract/privacy';
import type { PrivacyDraft } from './privacy-draft';
import { RedactionFields } from './redaction-fields';
import { RetentionFields } from './retention-fields';

export type PrivacyFormErrors = Partial<Record<RetentionField | '_', string>>;

interface PrivacyDraftFieldsProps {
  idPrefix: string;
  draft: PrivacyDraft;
  onDraft: (draft: PrivacyDraft) => void;
  errors: PrivacyFormErrors;
  onErrors: (errors: PrivacyFormErrors) => void;
  /** The agency's limits, for a client. */
  limits?: Retention;
  disabled: boolean;
  /** Above the categories: how far redacting the stored calls again got. */
  progress?: ReactNode;
}

export function PrivacyDraftFields({
  idPrefix,
  draft,
  onDraft,
  errors,
  onErrors,
  limits,
  disabled,
  progress,
}: PrivacyDraftFieldsProps) {
  return (
    <>
      <section className="grid gap-3" aria-labelledby={`${idPrefix}-redaction-heading`}>
        <div>
          <h3 id={`${idPrefix}-redaction-heading`} className="font-semibold text-sm">
            {PRIVACY_TEXTS.redactionHeading}
          </h3>
          <p className="text-muted-foreground text-sm">{PRIVACY_TEXTS.redactionHelp}</p>
        </div>
        {progress}
        <RedactionFields
          idPrefix={idPrefix}
          redaction={draft.redaction}
          countries={draft.nationalIdCountries}
          keepCallerNumber={draft.keepCallerNumber}
          disabled={disabled}
          onChange={(redaction, nationalIdCountries) => onDraft({ ...draft, redaction, nationalIdCountries })}
          onKeepCallerNumber={(keepCallerNumber) => onDraft({ ...draft, keepCallerNumber })}
        />
      </section>
      <section className="grid gap-3 border-t pt-6" aria-labelledby={`${idPrefix}-retention-heading`}>
        <div>
          <h3 id={`${idPrefix}-retention-heading`} className="font-semibold text-sm">
            {PRIVACY_TEXTS.retentionHeading}
          </h3>
          <p className="text-muted-foreground text-sm">{PRIVACY_TEXTS.retentionHelp}</p>
        </div>
        <RetentionFields
          idPrefix={idPrefix}
          values={draft.retention}
          errors={errors}
          limits={limits}
          disabled={disabled}
          onChange={(field, value) => {
            onDraft({ ...draft, retention: { ...draft.retention, [field]: value } });
            if (errors[field]) onErrors({ ...errors, [field]: undefined });
          }}
        />
        {errors._ && (
          <p role="alert" className="text-destructive text-sm">
            {errors._}
          </p>
        )}
      </section>
    </>
  );
}
