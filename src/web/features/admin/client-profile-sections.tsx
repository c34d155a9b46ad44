/**
 * The three sections both client forms ask (SPEC §5): personal, company and contact details. The
 * create wizard and the edit dialog each keep their own schema and option lists and pass the
 * lists in; the form itself comes from the surrounding react-hook-form FormProvider.
 */
import type * as React from 'react';
import { useFormContext } from 'react-hook-form';
import type { CreateClientFormInput, EditClientFormInput } from '../../../contract/admin';
import { FormSection, SelectField, TextField } from '../../components/form-fields';

/** Fields both forms carry (notes too, but each form places and words its own). */
type ProfileField = Exclude<keyof CreateClientFormInput & keyof EditClientFormInput, 'notes'>;
type ClientProfileInput = Record<ProfileField, string | undefined>;
type Option = { value: string; label: string };

interface ClientProfileSectionsProps {
  /** Input ids are `${idPrefix}-${field}`, so the two forms never share an id. */
  idPrefix: string;
  industryOptions: readonly Option[];
  sizeOptions: readonly Option[];
  /** The wizard keeps the browser from filling in the admin's own name and e-mail. */
  nameAutoComplete?: 'off';
}

export function ClientProfileSections({
  idPrefix,
  industryOptions,
  sizeOptions,
  nameAutoComplete,
}: ClientProfileSectionsProps) {
  const {
    register,
    control,
    formState: { errors },
  } = useFormContext<ClientProfileInput>();

  const text = (name: ProfileField, label: string, input: React.ComponentProps<'input'> = {}) => (
    <TextField
      id={`${idPrefix}-${name}`}
      label={label}
      registration={register(name)}
      error={errors[name]?.message}
      {...input}
    />
  );
  const select = (name: ProfileField, label: string, options: readonly Option[], placeholder: string) => (
    <SelectField
      id={`${idPrefix}-${name}`}
      label={label}
      control={control}
      name={name}
      options={options}
      optional
      placeholder={placeholder}
      error={errors[name]?.message}
    />
  );
  const nameField = { required: true, autoComplete: nameAutoComplete };

  return (
    <>
      <FormSection title="Personal Information">
        {text('firstName', 'First Name', nameField)}
        {text('lastName', 'Last Name', nameField)}
        {text('email', 'Email', { ...nameField, type: 'email' })}
        {text('jobTitle', 'Job Title')}
      </FormSection>
      <FormSection title="Company Information">
        {text('companyName', 'Company Name')}
        {text('companyWebsite', 'Company Website', { type: 'url', placeholder: 'https://example.com' })}
        {select('industry', 'Industry', industryOptions, 'Select industry')}
        {select('companySize', 'Company Size', sizeOptions, 'Select company size')}
      </FormSection>
      <FormSection title="Contact Information">
        {text('phoneNumber', 'Phone Number', { type: 'tel', placeholder: '+14155550123' })}
        {text('address', 'Address')}
        {text('city', 'City')}
        {text('state', 'State')}
        {text('zipCode', 'Zip Code')}
        {text('country', 'Country')}
      </FormSection>
    </>
  );
}
