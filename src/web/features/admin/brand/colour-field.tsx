/**
 * A brand colour: a native colour picker and a #rrggbb text field for the same value, each with
 * its own label (the picker for the eye, the text for a colour copied from a style guide).
 * The text field is the form's value; the picker writes into it.
 */
import { type Control, type FieldPath, useController } from 'react-hook-form';
import { FieldShell } from '../../../components/form-fields';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import type { BrandFormInput } from './brand-form-values';

const HEX = /^#[0-9a-fA-F]{6}$/;

export function ColourField({
  id,
  label,
  name,
  control,
  error,
}: {
  id: string;
  label: string;
  name: FieldPath<BrandFormInput>;
  control: Control<BrandFormInput>;
  error?: string;
}) {
  const { field } = useController({ control, name });
  const text = typeof field.value === 'string' ? field.value : '';
  // The picker only holds a complete colour; while the text is half typed it shows the last one.
  const picked = HEX.test(text.trim()) ? text.trim().toLowerCase() : '#000000';
  return (
    <FieldShell id={id} label={label} error={error} hint="As #rrggbb, e.g. #155dfc">
      <div className="flex items-center gap-2">
        <Label htmlFor={`${id}-picker`} className="sr-only">
          {label} picker
        </Label>
        <input
          id={`${id}-picker`}
          type="color"
          value={picked}
          onChange={(e) => field.onChange(e.target.value)}
          onBlur={field.onBlur}
          className="h-9 w-12 shrink-0 cursor-pointer rounded-md border border-input bg-card p-1"
        />
        <Input
          id={id}
          ref={field.ref}
          name={field.name}
          value={text}
          onChange={(e) => field.onChange(e.target.value)}
          onBlur={field.onBlur}
          spellCheck={false}
          autoComplete="off"
          maxLength={7}
          className="font-mono"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
      </div>
    </FieldShell>
  );
}
