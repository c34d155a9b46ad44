/**
 * Labelled form controls wired to react-hook-form, shared by the admin client forms and the
 * settings forms so a field reads the same everywhere: the label names the input (for screen
 * readers and tests) and the field's message shows beneath it.
 */
import type * as React from 'react';
import {
  type Control,
  Controller,
  type FieldPath,
  type FieldValues,
  type UseFormRegisterReturn,
} from 'react-hook-form';
import { cn } from '../lib/utils';
import { Input } from './ui/input';
import { Label } from './ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from './ui/select';
import { Textarea } from './ui/textarea';

/** Radix Select cannot hold '' as an item value; this stands for "not specified". */
const NONE = '__none__';

interface FieldShellProps {
  id: string;
  label: string;
  required?: boolean;
  error?: string;
  hint?: React.ReactNode;
  className?: string;
  children: React.ReactNode;
}

export function FieldShell({ id, label, required, error, hint, className, children }: FieldShellProps) {
  return (
    <div className={cn('grid content-start gap-1.5', className)}>
      <Label htmlFor={id}>
        {label}
        {required && (
          <span aria-hidden className="text-destructive">
            *
          </span>
        )}
      </Label>
      {children}
      {hint && !error && <p className="text-muted-foreground text-xs">{hint}</p>}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-destructive text-xs">
          {error}
        </p>
      )}
    </div>
  );
}

interface TextFieldProps extends Omit<React.ComponentProps<'input'>, 'id'> {
  id: string;
  label: string;
  registration: UseFormRegisterReturn;
  error?: string;
  hint?: React.ReactNode;
  required?: boolean;
  className?: string;
}

export function TextField({
  id,
  label,
  registration,
  error,
  hint,
  required,
  className,
  ...input
}: TextFieldProps) {
  return (
    <FieldShell id={id} label={label} required={required} error={error} hint={hint} className={className}>
      <Input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...input}
        {...registration}
      />
    </FieldShell>
  );
}

interface TextAreaFieldProps {
  id: string;
  label: string;
  registration: UseFormRegisterReturn;
  error?: string;
  placeholder?: string;
  className?: string;
}

export function TextAreaField({
  id,
  label,
  registration,
  error,
  placeholder,
  className,
}: TextAreaFieldProps) {
  return (
    <FieldShell id={id} label={label} error={error} className={className}>
      <Textarea
        id={id}
        rows={4}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        {...registration}
      />
    </FieldShell>
  );
}

interface SelectFieldProps<T extends FieldValues> {
  id: string;
  label: string;
  control: Control<T>;
  name: FieldPath<T>;
  options: readonly { value: string; label: string }[];
  placeholder?: string;
  /** Offer "Not specified" (the empty value). */
  optional?: boolean;
  error?: string;
  className?: string;
}

export function SelectField<T extends FieldValues>({
  id,
  label,
  control,
  name,
  options,
  placeholder = 'Select…',
  optional = false,
  error,
  className,
}: SelectFieldProps<T>) {
  return (
    <FieldShell id={id} label={label} error={error} className={className}>
      <Controller
        control={control}
        name={name}
        render={({ field }) => {
          const value = typeof field.value === 'string' ? field.value : '';
          // A stored value the list no longer offers (created with the other form) stays visible.
          const list =
            value && !options.some((o) => o.value === value)
              ? [...options, { value, label: value }]
              : options;
          return (
            <Select
              value={value || (optional ? NONE : '')}
              onValueChange={(v) => field.onChange(v === NONE ? '' : v)}
            >
              <SelectTrigger
                id={id}
                className="w-full"
                aria-invalid={error ? true : undefined}
                onBlur={field.onBlur}
              >
                <SelectValue placeholder={placeholder} />
              </SelectTrigger>
              <SelectContent>
                {optional && <SelectItem value={NONE}>Not specified</SelectItem>}
                {list.map((o) => (
                  <SelectItem key={o.value} value={o.value}>
                    {o.label}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          );
        }}
      />
    </FieldShell>
  );
}

export function FormSection({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: React.ReactNode;
}) {
  return (
    <section className="grid gap-3" aria-label={title}>
      <div>
        <h3 className="font-semibold text-sm">{title}</h3>
        {description && <p className="text-muted-foreground text-xs">{description}</p>}
      </div>
      <div className="grid gap-3 sm:grid-cols-2">{children}</div>
    </section>
  );
}
