/**
 * The time zone picker of the wizard, the edit dialog and Settings: a text field that searches
 * every IANA zone the browser knows as it is typed (a datalist), checked by the form's schema.
 */
import type * as React from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from './form-fields';

/** Every IANA zone the browser knows (UTC first). */
export function timeZoneOptions(): string[] {
  // Older browsers lack supportedValuesOf, which the DOM types always declare
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: 'timeZone') => string[] };
  const zones = intl.supportedValuesOf?.('timeZone') ?? [];
  return ['UTC', ...zones.filter((z) => z !== 'UTC')];
}

/** The zone of the browser the form is filled in (the admin's), UTC when it does not say. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

const ZONES = timeZoneOptions();

export function TimeZoneField({
  id,
  label,
  registration,
  error,
  hint,
}: {
  id: string;
  label: string;
  registration: UseFormRegisterReturn;
  error?: string;
  hint?: React.ReactNode;
}) {
  return (
    <>
      <TextField
        id={id}
        label={label}
        list={`${id}-options`}
        autoComplete="off"
        spellCheck={false}
        placeholder="Type to search, e.g. New York"
        registration={registration}
        error={error}
        hint={hint}
      />
      <datalist id={`${id}-options`}>
        {ZONES.map((zone) => (
          <option key={zone} value={zone} />
        ))}
      </datalist>
    </>
  );
}
