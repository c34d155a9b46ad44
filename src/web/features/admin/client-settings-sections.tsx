/**
 * The edit dialog's admin-only sections (SPEC §5, DESIGN §6 [6]): how the client is billed and
 * shown, and how their calls reach us. They read the form from the dialog's FormProvider.
 */
import { Controller, useFormContext } from 'react-hook-form';
import type { ClientConfig, EditClientFormInput } from '../../../contract/admin';
import { VOICE_PLATFORMS } from '../../../contract/providers';
import { CopyField } from '../../components/copy-field';
import { FormSection, SelectField, TextField } from '../../components/form-fields';
import { RotateWebhookUrl } from '../../components/rotate-webhook-url';
import { TimeZoneField } from '../../components/time-zone-field';
import { Button } from '../../components/ui/button';
import { Label } from '../../components/ui/label';
import { Switch } from '../../components/ui/switch';
import { ApiKeyStatusBadge } from './api-key-badge';
import { useRotateWebhook } from './mutations';
import { ACCOUNT_TYPE_OPTIONS, PROVIDER_OPTIONS } from './options';

export function AccountSettingsSection() {
  const {
    register,
    control,
    formState: { errors },
  } = useFormContext<EditClientFormInput>();
  return (
    <FormSection title="Account Settings">
      <SelectField
        id="edit-accountType"
        label="Account Type"
        control={control}
        name="accountType"
        options={ACCOUNT_TYPE_OPTIONS}
        error={errors.accountType?.message}
      />
      <TextField
        id="edit-perMinuteRate"
        label="Per Minute Rate ($)"
        type="number"
        step="0.01"
        min="0"
        max="100"
        inputMode="decimal"
        registration={register('perMinuteRate', { valueAsNumber: true })}
        error={errors.perMinuteRate?.message}
        hint="Applies to calls that arrive from now on."
      />
      <TimeZoneField
        id="edit-timezone"
        label="Timezone"
        registration={register('timezone')}
        error={errors.timezone?.message}
        hint="The client's e-mails, reports and exports tell times in this zone."
      />
      <div className="grid gap-1.5">
        <Label htmlFor="edit-isActive">Account Status</Label>
        <Controller
          control={control}
          name="isActive"
          render={({ field }) => (
            <div className="flex h-9 items-center gap-3">
              <Switch id="edit-isActive" checked={field.value ?? true} onCheckedChange={field.onChange} />
              <span className="text-sm">{field.value === false ? 'Inactive' : 'Active'}</span>
            </div>
          )}
        />
      </div>
    </FormSection>
  );
}

/** The API key shows masked: left as is it is kept, cleared it is removed, a new one is checked. */
export function ApiIntegrationSection({ config }: { config: ClientConfig }) {
  const {
    register,
    control,
    setValue,
    watch,
    formState: { errors },
  } = useFormContext<EditClientFormInput>();
  const removingSecret = watch('webhookSigningSecret') === null;
  const provider = watch('provider') ?? config.provider;
  const platform = VOICE_PLATFORMS[provider];
  const { name, signingSecret } = platform;
  const rotateWebhook = useRotateWebhook();
  const moved = provider !== config.provider;
  return (
    <FormSection
      title="API Integration"
      description="The voice provider API key is stored encrypted and only ever shown masked."
    >
      <SelectField
        id="edit-provider"
        label="Voice Platform"
        control={control}
        name="provider"
        options={PROVIDER_OPTIONS}
        error={errors.provider?.message}
      />
      <p className="self-end text-muted-foreground text-sm sm:pb-2" data-testid="provider-hint">
        {moved
          ? `Paste the client’s ${name} key below: calls are synced from ${name} from now on.`
          : `Calls, recordings and sync come from ${name}.`}
      </p>
      <TextField
        id="edit-blandApiKey"
        label={`${name} API Key`}
        autoComplete="off"
        spellCheck={false}
        registration={register('blandApiKey')}
        error={errors.blandApiKey?.message}
        hint={
          <span className="flex flex-wrap items-center gap-2">
            Status: <ApiKeyStatusBadge status={config.apiKeyStatus} />
            {config.blandApiKey
              ? 'Leave as is to keep the key; clear it to remove it.'
              : `Paste the client’s key; it is checked with ${name} when you save.`}
          </span>
        }
      />
      <TextField
        id="edit-clientIdentifier"
        label="Client Identifier"
        registration={register('clientIdentifier')}
        error={errors.clientIdentifier?.message}
      />
      <TextField
        id="edit-organizationId"
        label="Organization ID"
        registration={register('organizationId')}
        error={errors.organizationId?.message}
      />
      {signingSecret === null ? (
        <p className="text-muted-foreground text-sm sm:col-span-2">{platform.signing}</p>
      ) : (
        <TextField
          id="edit-webhookSigningSecret"
          label="Webhook Signing Secret"
          type="password"
          autoComplete="new-password"
          spellCheck={false}
          placeholder={config.hasWebhookSigningSecret ? '••••••••' : 'Not set'}
          // Write-only: an empty field keeps what is stored; removing it is the button's job.
          registration={register('webhookSigningSecret', { setValueAs: (v) => (v === '' ? undefined : v) })}
          error={errors.webhookSigningSecret?.message}
          hint={
            <span className="flex flex-wrap items-center gap-2" data-testid="signing-secret-state">
              {removingSecret
                ? 'Will be removed when you save: unsigned deliveries will be accepted again.'
                : config.hasWebhookSigningSecret
                  ? 'Set: deliveries without a valid signature are refused. Type a new one to replace it.'
                  : signingSecret.adminHint}
              {config.hasWebhookSigningSecret && !removingSecret && (
                <Button
                  type="button"
                  variant="link"
                  size="sm"
                  className="h-auto p-0"
                  onClick={() => setValue('webhookSigningSecret', null, { shouldDirty: true })}
                >
                  Remove secret
                </Button>
              )}
            </span>
          }
        />
      )}
      <CopyField id="edit-webhookUrl" label="Webhook URL" value={config.webhookUrl} />
      <RotateWebhookUrl
        rotate={() => rotateWebhook.mutateAsync(config.id)}
        platform={VOICE_PLATFORMS[config.provider].name}
        size="sm"
      />
      <DisclosureSwitch
        name="showPlatformDetails"
        label="Show platform details to the client"
        hint="Off: the client's screens and its callers' receipts never name the voice platform or its terms."
      />
      <DisclosureSwitch
        name="clientManagesApiKey"
        label="Client may change the API key"
        hint="Off: the agency manages the key; the client's Update API Key button says so."
      />
    </FormSection>
  );
}

/** One of the two per-client choices of what the client sees of, and may do with, the platform. */
function DisclosureSwitch({
  name,
  label,
  hint,
}: {
  name: 'showPlatformDetails' | 'clientManagesApiKey';
  label: string;
  hint: string;
}) {
  const { control } = useFormContext<EditClientFormInput>();
  const id = `edit-${name}`;
  return (
    <div className="grid gap-1.5">
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <div className="flex min-h-9 items-center gap-3">
            <Switch
              id={id}
              checked={field.value === true}
              onCheckedChange={field.onChange}
              aria-describedby={`${id}-hint`}
            />
            <Label htmlFor={id}>{label}</Label>
          </div>
        )}
      />
      <p id={`${id}-hint`} className="text-muted-foreground text-xs">
        {hint}
      </p>
    </div>
  );
}
