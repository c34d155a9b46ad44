/**
 * "Redact on arrival": the six kinds of personal data as checkboxes, with the Canadian
 * SIN under national IDs while those are on, and under phone numbers (while on) the warning that
 * call-back numbers disappear from transcripts and summaries, with a client's "Keep the caller's
 * own number". Controlled; the card around it saves. Used by a client's settings and the
 * agency's defaults (which have no "keep" of their own: it is each client's choice).
 */
import { TriangleAlert } from 'lucide-react';
import {
  NATIONAL_ID_COUNTRIES,
  PRIVACY_TEXTS,
  REDACTION_CATEGORIES,
  type RedactionCategories,
} from '../../../contract/privacy';
import { Checkbox } from '../ui/checkbox';
import { Label } from '../ui/label';
import type { NationalIdCountry } from './privacy-draft';

interface RedactionFieldsProps {
  /** Makes the ids unique on a page showing two forms. */
  idPrefix: string;
  redaction: RedactionCategories;
  countries: readonly NationalIdCountry[];
  /** A client's "Keep the caller's own number"; undefined: not offered (the agency's defaults). */
  keepCallerNumber?: boolean;
  disabled?: boolean;
  onChange: (redaction: RedactionCategories, countries: NationalIdCountry[]) => void;
  onKeepCallerNumber?: (keep: boolean) => void;
}

export function RedactionFields({
  idPrefix,
  redaction,
  countries,
  keepCallerNumber,
  disabled,
  onChange,
  onKeepCallerNumber,
}: RedactionFieldsProps) {
  return (
    <fieldset className="grid gap-3" disabled={disabled}>
      <legend className="sr-only">{PRIVACY_TEXTS.redactionHeading}</legend>
      {REDACTION_CATEGORIES.map((category) => {
        const id = `${idPrefix}-redact-${category}`;
        return (
          <div key={category} className="grid gap-2">
            <div className="flex items-start gap-3">
              <Checkbox
                id={id}
                className="mt-0.5"
                checked={redaction[category]}
                onCheckedChange={(checked) =>
                  onChange(
                    { ...redaction, [category]: checked === true },
                    // Countries only mean something while national IDs are looked for.
                    category === 'nationalIds' && checked !== true ? [] : [...countries],
                  )
                }
              />
              <Label htmlFor={id} className="font-normal leading-snug">
                {PRIVACY_TEXTS.categories[category]}
              </Label>
            </div>
            {category === 'phones' && redaction.phones && (
              <PhonesWarning
                id={`${idPrefix}-keep-caller-number`}
                keep={keepCallerNumber}
                onKeep={onKeepCallerNumber}
              />
            )}
            {category === 'nationalIds' && redaction.nationalIds && (
              <div className="grid gap-2 pl-7">
                {NATIONAL_ID_COUNTRIES.map((country) => {
                  const countryId = `${idPrefix}-country-${country}`;
                  return (
                    <div key={country} className="flex items-start gap-3">
                      <Checkbox
                        id={countryId}
                        className="mt-0.5"
                        checked={countries.includes(country)}
                        onCheckedChange={(checked) =>
                          onChange(
                            redaction,
                            checked === true
                              ? [...countries.filter((c) => c !== country), country]
                              : countries.filter((c) => c !== country),
                          )
                        }
                      />
                      <Label htmlFor={countryId} className="font-normal leading-snug">
                        {PRIVACY_TEXTS.countries[country]}
                      </Label>
                    </div>
                  );
                })}
              </div>
            )}
          </div>
        );
      })}
    </fieldset>
  );
}

/** What phone redaction costs, said where it is turned on, and the client's way to soften it. */
function PhonesWarning({
  id,
  keep,
  onKeep,
}: {
  id: string;
  keep: boolean | undefined;
  onKeep?: (keep: boolean) => void;
}) {
  return (
    <div
      className="ml-7 grid gap-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-950 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-100"
      data-testid="phones-warning"
    >
      <p className="flex items-start gap-2 text-sm">
        <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>{PRIVACY_TEXTS.phonesWarning}</span>
      </p>
      {keep !== undefined && onKeep && (
        <div className="flex items-start gap-3">
          <Checkbox
            id={id}
            className="mt-0.5"
            checked={keep}
            aria-describedby={`${id}-help`}
            onCheckedChange={(checked) => onKeep(checked === true)}
          />
          <div className="grid gap-1">
            <Label htmlFor={id} className="leading-snug">
              {PRIVACY_TEXTS.keepCallerNumberLabel}
            </Label>
            <p id={`${id}-help`} className="text-xs opacity-90">
              {PRIVACY_TEXTS.keepCallerNumberHelp}
            </p>
          </div>
        </div>
      )}
    </div>
  );
}
