/**
 * "Keep personal data": days for transcripts, recordings and whole calls, empty to keep.
 * A client sees the agency's limit under each; the server's 400 shows under its field. Controlled;
 * the card around it saves.
 */
import { PRIVACY_TEXTS, type Retention, type RetentionField } from '../../../contract/privacy';
import { Input } from '../ui/input';
import { Label } from '../ui/label';
import { RETENTION_FIELDS, retentionHint } from './privacy-draft';

interface RetentionFieldsProps {
  idPrefix: string;
  values: Record<RetentionField, string>;
  errors: Partial<Record<RetentionField, string>>;
  /** The agency's limits, for a client; undefined for the agency's own defaults. */
  limits?: Retention;
  disabled?: boolean;
  onChange: (field: RetentionField, value: string) => void;
}

export function RetentionFields({
  idPrefix,
  values,
  errors,
  limits,
  disabled,
  onChange,
}: RetentionFieldsProps) {
  return (
    <fieldset className="grid gap-4 sm:grid-cols-3" disabled={disabled}>
      <legend className="sr-only">{PRIVACY_TEXTS.retentionHeading}</legend>
      {RETENTION_FIELDS.map((field) => {
        const id = `${idPrefix}-retention-${field}`;
        const limit = limits?.[field] ?? null;
        const error = errors[field];
        return (
          <div key={field} className="grid content-start gap-1.5">
            <Label htmlFor={id}>{PRIVACY_TEXTS.retentionFields[field]}</Label>
            <div className="flex items-center gap-2">
              <Input
                id={id}
                inputMode="numeric"
                autoComplete="off"
                placeholder={limit === null ? PRIVACY_TEXTS.keepForever : undefined}
                value={values[field]}
                aria-invalid={error ? true : undefined}
                aria-describedby={`${id}-${error ? 'error' : 'hint'}`}
                onChange={(e) => onChange(field, e.target.value)}
                className="w-28"
              />
              <span className="text-muted-foreground text-sm" aria-hidden="true">
                days
              </span>
            </div>
            {error ? (
              <p id={`${id}-error`} role="alert" className="text-destructive text-xs">
                {error}
              </p>
            ) : (
              <p id={`${id}-hint`} className="text-muted-foreground text-xs">
                {retentionHint(limit, limits !== undefined)}
              </p>
            )}
          </div>
        );
      })}
    </fieldset>
  );
}
