/**
 * "Redact on arrival" (issue 38): the six kinds of personal data as checkboxes, with the Canadian
 * SIN under national IDs while those are on. Controlled; the card around it saves. Used by a
 * client's settings and the agency's defaults.
 */
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
  disabled?: boolean;
  onChange: (redaction: RedactionCategories, countries: NationalIdCountry[]) => void;
}

export function RedactionFields({
  idPrefix,
  redaction,
  countries,
  disabled,
  onChange,
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
