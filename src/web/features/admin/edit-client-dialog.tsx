/**
 * The edit-client dialog (SPEC §2, §5; DESIGN §6 [6]): six sections over the full client
 * configuration: the three the create wizard asks too (client-profile-sections), the admin-only
 * account and API sections (client-settings-sections), and the admin notes.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { FormProvider, type Path, useForm } from 'react-hook-form';
import {
  ACCOUNT_TYPES,
  type ClientConfig,
  clientDisplayName,
  DEFAULT_PER_MINUTE_RATE,
  DEFAULT_TIMEZONE,
  EditClientForm,
  type EditClientFormInput,
  type EditClientForm as EditClientValues,
} from '../../../contract/admin';
import { FormDialogFooter } from '../../components/form-dialog-footer';
import { TextAreaField } from '../../components/form-fields';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { Spinner } from '../../components/ui/spinner';
import { ApiError, serverFieldErrors, serverMessageOf } from '../../lib/api';
import { failureToast } from '../../lib/failure-toast';
import { toast } from '../../lib/use-toast';
import { ClientProfileSections } from './client-profile-sections';
import { AccountSettingsSection, ApiIntegrationSection } from './client-settings-sections';
import { useUpdateClientConfig } from './mutations';
import { INDUSTRY_OPTIONS, sizeOptionsFor } from './options';
import { useClientConfig } from './queries';

export function EditClientDialog({ clientId, onClose }: { clientId: string | null; onClose: () => void }) {
  const config = useClientConfig(clientId);

  useEffect(() => {
    if (!config.isError) return;
    failureToast('Failed to fetch client config', config.error);
    onClose();
  }, [config.isError, config.error, onClose]);

  return (
    <Dialog open={clientId !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-3xl" onInteractOutside={(e) => e.preventDefault()}>
        <DialogHeader>
          <DialogTitle>Edit Client</DialogTitle>
          <DialogDescription>
            {config.data
              ? `${clientDisplayName(config.data)} · ${config.data.email}`
              : 'Loading the client configuration…'}
          </DialogDescription>
        </DialogHeader>
        {config.data ? (
          <EditClientFormBody key={config.data.id} config={config.data} onDone={onClose} />
        ) : (
          <div className="flex items-center justify-center gap-2 py-12 text-muted-foreground text-sm">
            <Spinner className="size-5" /> Loading...
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

function toFormValues(config: ClientConfig): EditClientFormInput {
  return {
    provider: config.provider,
    firstName: config.firstName,
    lastName: config.lastName,
    email: config.email,
    jobTitle: config.jobTitle ?? '',
    companyName: config.companyName ?? '',
    companyWebsite: config.companyWebsite ?? '',
    // Stored values are text; one from an older list is kept and offered as it is
    industry: (config.industry ?? '') as EditClientFormInput['industry'],
    companySize: (config.companySize ?? '') as EditClientFormInput['companySize'],
    phoneNumber: config.phoneNumber ?? '',
    address: config.address ?? '',
    city: config.city ?? '',
    state: config.state ?? '',
    zipCode: config.zipCode ?? '',
    country: config.country ?? '',
    // includes takes only AccountType; the check narrows what the cast states
    accountType: (ACCOUNT_TYPES as readonly string[]).includes(config.accountType)
      ? (config.accountType as EditClientFormInput['accountType'])
      : 'individual',
    perMinuteRate: config.perMinuteRate ?? DEFAULT_PER_MINUTE_RATE,
    timezone: config.timezone || DEFAULT_TIMEZONE,
    isActive: config.isActive ?? true,
    showPlatformDetails: config.showPlatformDetails ?? false,
    clientManagesApiKey: config.clientManagesApiKey ?? false,
    blandApiKey: config.blandApiKey ?? '',
    clientIdentifier: config.clientIdentifier ?? '',
    organizationId: config.organizationId ?? '',
    notes: config.notes ?? '',
  };
}

function EditClientFormBody({ config, onDone }: { config: ClientConfig; onDone: () => void }) {
  const update = useUpdateClientConfig();
  const form = useForm<EditClientFormInput, unknown, EditClientValues>({
    resolver: zodResolver(EditClientForm),
    defaultValues: toFormValues(config),
  });

  const submit = form.handleSubmit(() => {
    // Send what was entered: the masked key must reach the server unchanged to mean "keep".
    const values = form.getValues();
    update.mutate(
      { clientId: config.id, values },
      {
        onSuccess: (result) => {
          if (result.apiKeyCheck === 'invalid') {
            // The rest is saved; the refused key is the admin's to fix, so the dialog stays open
            // with the reason at the key, the saved values its new starting point.
            form.reset({ ...toFormValues(result.client), blandApiKey: values.blandApiKey });
            form.setError('blandApiKey', { message: result.message }, { shouldFocus: true });
            toast({
              title: 'API key refused',
              description: 'The other changes are saved; replace the key or clear it.',
              variant: 'destructive',
            });
            return;
          }
          toast({
            title: 'Client configuration updated',
            description: result.apiKeyCheck === 'unchanged' ? undefined : result.message,
          });
          onDone();
        },
        onError: (error) => {
          for (const [name, message] of Object.entries(serverFieldErrors(error))) {
            // `name in values` checked the server's field name is one of the form's
            if (name in values) form.setError(name as Path<EditClientFormInput>, { message });
          }
          if (error instanceof ApiError && error.status === 409)
            form.setError('email', { message: serverMessageOf(error, '') });
          failureToast('Failed to update configuration', error);
        },
      },
    );
  });

  return (
    <FormProvider {...form}>
      <form onSubmit={submit} noValidate className="grid gap-6">
        <ClientProfileSections
          idPrefix="edit"
          industryOptions={INDUSTRY_OPTIONS}
          sizeOptions={sizeOptionsFor(config.companySize)}
        />
        <AccountSettingsSection />
        <ApiIntegrationSection config={config} />
        <section className="grid gap-3" aria-label="Admin Notes">
          <h3 className="font-semibold text-sm">Admin Notes</h3>
          <TextAreaField
            id="edit-notes"
            label="Notes"
            registration={form.register('notes')}
            error={form.formState.errors.notes?.message}
            placeholder="Internal notes about this client"
          />
        </section>
        <FormDialogFooter
          onCancel={onDone}
          pending={update.isPending}
          submitLabel="Save Changes"
          pendingLabel="Saving..."
        />
      </form>
    </FormProvider>
  );
}
