/** The Account tab (SPEC §2, §5): the client's name, e-mail and contact details, validated as SPEC §5 says. */
import { zodResolver } from '@hookform/resolvers/zod';
import type { ComponentProps } from 'react';
import { useForm } from 'react-hook-form';
import { AccountForm, type AccountFormInput } from '../../../contract/account';
import type { ClientSession } from '../../../contract/auth';
import { TextField } from '../../components/form-fields';
import { SaveFooter } from '../../components/save-footer';
import { TimeZoneField } from '../../components/time-zone-field';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { serverFieldErrors } from '../../lib/api';
import { failureToast } from '../../lib/failure-toast';
import { toast } from '../../lib/use-toast';
import { useUpdateAccount } from './mutations';

type AccountField = keyof AccountFormInput;
type FieldSpec = Omit<ComponentProps<typeof TextField>, 'name' | 'registration' | 'error'> & {
  name: AccountField;
};

/** In the order the form shows them. */
const FIELDS: FieldSpec[] = [
  {
    name: 'firstName',
    id: 'account-first-name',
    label: 'First Name',
    required: true,
    autoComplete: 'given-name',
  },
  {
    name: 'lastName',
    id: 'account-last-name',
    label: 'Last Name',
    required: true,
    autoComplete: 'family-name',
  },
  {
    name: 'email',
    id: 'account-email',
    label: 'Email',
    type: 'email',
    required: true,
    autoComplete: 'email',
    className: 'sm:col-span-2',
  },
  { name: 'companyName', id: 'account-company', label: 'Company Name', autoComplete: 'organization' },
  { name: 'jobTitle', id: 'account-job-title', label: 'Job Title', autoComplete: 'organization-title' },
  {
    name: 'phoneNumber',
    id: 'account-phone',
    label: 'Phone Number',
    type: 'tel',
    autoComplete: 'tel',
    placeholder: '+14155550123',
    hint: 'International format, e.g. +14155550123',
  },
];

function valuesOf(client: ClientSession): AccountFormInput {
  return {
    firstName: client.firstName ?? '',
    lastName: client.lastName ?? '',
    email: client.email ?? '',
    companyName: client.companyName ?? '',
    phoneNumber: client.phoneNumber ?? '',
    jobTitle: client.jobTitle ?? '',
    timezone: client.timezone,
  };
}

export function AccountSettingsForm({ client }: { client: ClientSession }) {
  const form = useForm<AccountFormInput, unknown, AccountForm>({
    resolver: zodResolver(AccountForm),
    defaultValues: valuesOf(client),
  });
  const update = useUpdateAccount();
  const { errors } = form.formState;

  const submit = form.handleSubmit((values) =>
    update.mutate(values, {
      onSuccess: (result) => {
        toast({
          title: 'Account Updated',
          description: 'Your account information has been saved successfully.',
        });
        form.reset(valuesOf(result.client));
      },
      onError: (error) => {
        for (const [field, message] of Object.entries(serverFieldErrors(error))) {
          if (field === 'timezone' || FIELDS.some(({ name }) => name === field))
            // The check above leaves only the form's field names and 'timezone'
            form.setError(field as AccountField, { message });
        }
        failureToast('Update Failed', error, 'Your account could not be saved.');
      },
    }),
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Account Information</CardTitle>
        <CardDescription>
          Your name, contact details and time zone. Your email address is also your login.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Account information">
          <div className="grid gap-4 sm:grid-cols-2">
            {FIELDS.map(({ name, ...field }) => (
              <TextField
                key={name}
                {...field}
                registration={form.register(name)}
                error={errors[name]?.message}
              />
            ))}
            <TimeZoneField
              id="account-timezone"
              label="Time Zone"
              registration={form.register('timezone')}
              error={errors.timezone?.message}
              hint="Your e-mails, monthly reports and exports tell times in this zone."
            />
          </div>
          <SaveFooter label="Save Changes" type="submit" pending={update.isPending} />
        </form>
      </CardContent>
    </Card>
  );
}
