/**
 * Wizard step 1 (SPEC §4, §5): the new client's details. Submitting issues the webhook URL;
 * coming back with nothing changed keeps the one already issued.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Webhook } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Controller, FormProvider, useForm } from 'react-hook-form';
import {
  CreateClientForm,
  type CreateClientFormInput,
  type CreateClientForm as CreateClientValues,
} from '../../../contract/admin';
import { suggestTimeZone } from '../../../contract/regional';
import { FormDialogFooter } from '../../components/form-dialog-footer';
import { FormSection, SelectField, TextAreaField } from '../../components/form-fields';
import { browserTimeZone, TimeZoneField } from '../../components/time-zone-field';
import { Label } from '../../components/ui/label';
import { Switch } from '../../components/ui/switch';
import { ApiError, serverMessageOf } from '../../lib/api';
import { failureToast } from '../../lib/failure-toast';
import { toast } from '../../lib/use-toast';
import { ClientProfileSections } from './client-profile-sections';
import { useGenerateWebhook } from './mutations';
import { INDUSTRY_OPTIONS, PROVIDER_OPTIONS, SIZE_OPTIONS } from './options';
import { EMPTY_CLIENT_FORM, sameForm, type WizardState } from './wizard-state';

export function ClientInformationStep({
  state,
  onGenerated,
  onReuse,
  onCancel,
}: {
  state: WizardState;
  onGenerated: (form: CreateClientFormInput, clientId: string, webhookUrl: string) => void;
  onReuse: () => void;
  onCancel: () => void;
}) {
  const generate = useGenerateWebhook();
  const form = useForm<CreateClientFormInput, unknown, CreateClientValues>({
    resolver: zodResolver(CreateClientForm),
    defaultValues: state.form ?? EMPTY_CLIENT_FORM,
  });
  const [country, region] = form.watch(['country', 'state']);
  const fromAddress = suggestTimeZone({ country, state: region });
  const suggested = fromAddress ?? browserTimeZone();
  // The zone follows the country and state until the admin picks one (kept when coming Back).
  const [zoneChosen, setZoneChosen] = useState(() => {
    const kept = state.form?.timezone;
    return !!kept && kept !== (suggestTimeZone(state.form ?? {}) ?? browserTimeZone());
  });
  useEffect(() => {
    if (!zoneChosen && form.getValues('timezone') !== suggested)
      form.setValue('timezone', suggested, { shouldValidate: form.formState.isSubmitted });
  }, [zoneChosen, suggested, form]);
  // Any edit is the admin's choice, an emptied field too (it is then UTC): the suggestion must not
  // refill the field under someone deleting it to type another zone.
  const zoneField = form.register('timezone', { onChange: () => setZoneChosen(true) });
  const zoneHint = zoneChosen
    ? 'E-mails, reports and exports tell the client times in this zone.'
    : fromAddress
      ? 'Suggested from the country and state; e-mails, reports and exports tell times in it.'
      : 'Suggested from your browser; enter the country or state for the client’s own.';

  const submit = form.handleSubmit((values) => {
    const entered = form.getValues();
    // Back and forward again with nothing changed keeps the webhook URL already issued.
    if (state.clientId && sameForm(state.form, entered)) return onReuse();
    generate.mutate(values, {
      onSuccess: (result) => {
        toast({
          title: 'Webhook Generated',
          description: 'Copy the webhook URL into the client’s voice agent settings.',
        });
        onGenerated(entered, result.id, result.webhookUrl);
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 409)
          form.setError('email', { message: serverMessageOf(error, '') });
        failureToast('Failed to generate webhook', error);
      },
    });
  });

  return (
    <FormProvider {...form}>
      <form onSubmit={submit} noValidate className="grid gap-5">
        <FormSection
          title="Voice Platform"
          description="Where the client's AI agents run: its calls, recordings and sync come from there."
        >
          <SelectField
            id="create-provider"
            label="Voice Platform"
            control={form.control}
            name="provider"
            options={PROVIDER_OPTIONS}
            error={form.formState.errors.provider?.message}
          />
        </FormSection>
        <ClientProfileSections
          idPrefix="create"
          industryOptions={INDUSTRY_OPTIONS}
          sizeOptions={SIZE_OPTIONS}
          nameAutoComplete="off"
        />
        <FormSection
          title="Dates and Times"
          description="The zone the client's e-mails, monthly report and exports tell times in."
        >
          <TimeZoneField
            id="create-timezone"
            label="Time Zone"
            registration={zoneField}
            error={form.formState.errors.timezone?.message}
            hint={zoneHint}
          />
        </FormSection>
        <TextAreaField
          id="create-notes"
          label="Notes"
          registration={form.register('notes')}
          error={form.formState.errors.notes?.message}
          placeholder="Anything the team should know about this client"
        />
        <FormSection
          title="Notifications"
          description="Alerts are only ever about calls that just ended, never about the history a first sync brings in."
        >
          <Controller
            control={form.control}
            name="notifyNow"
            render={({ field }) => (
              <div className="flex min-h-11 items-center gap-3">
                <Switch
                  id="create-notifyNow"
                  checked={field.value ?? false}
                  onCheckedChange={field.onChange}
                  aria-describedby="create-notifyNow-hint"
                />
                <div className="grid gap-0.5">
                  <Label htmlFor="create-notifyNow">Start digests now</Label>
                  <span id="create-notifyNow-hint" className="text-muted-foreground text-sm">
                    Off: the client's digest e-mails start when someone of the client first signs in.
                  </span>
                </div>
              </div>
            )}
          />
        </FormSection>
        <FormDialogFooter
          onCancel={onCancel}
          pending={generate.isPending}
          submitLabel="Generate Webhook"
          pendingLabel="Generating..."
          submitIcon={<Webhook />}
        />
      </form>
    </FormProvider>
  );
}
