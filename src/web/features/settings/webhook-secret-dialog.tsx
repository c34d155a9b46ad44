/**
 * The webhook signing secret: the secret Bland signs each delivery with, so a forged
 * delivery to the webhook URL is refused. Write-only: the page only ever knows whether one is set.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { webhookSigningSecretField } from '../../../contract/common';
import { VOICE_PLATFORMS, type VoiceProviderId } from '../../../contract/providers';
import { FormDialogFooter } from '../../components/form-dialog-footer';
import { TextField } from '../../components/form-fields';
import { Button } from '../../components/ui/button';
import { serverFieldErrors, serverMessageOf } from '../../lib/api';
import { failureToast } from '../../lib/failure-toast';
import { toast } from '../../lib/use-toast';
import { useSetWebhookSecret } from './mutations';
import { SettingsDialog } from './settings-dialog';

const SecretForm = z.object({
  secret: webhookSigningSecretField.refine((v) => !!v, 'Paste the signing secret'),
});
type SecretForm = z.infer<typeof SecretForm>;

export function WebhookSecretDialog({
  isSet,
  provider,
  showPlatform,
}: {
  isSet: boolean;
  provider: VoiceProviderId;
  showPlatform: boolean;
}) {
  const [open, setOpen] = useState(false);
  const form = useForm<SecretForm>({ resolver: zodResolver(SecretForm), defaultValues: { secret: '' } });
  const save = useSetWebhookSecret();

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) form.reset({ secret: '' });
  }

  const submit = form.handleSubmit(({ secret }) =>
    save.mutate(secret, {
      onSuccess: () => {
        toast({ title: 'Signing Secret Saved', description: 'Unsigned webhook deliveries are now refused.' });
        onOpenChange(false);
      },
      onError: (error) => {
        const message =
          serverFieldErrors(error).secret ?? serverMessageOf(error, 'The secret could not be saved.');
        form.setError('secret', { message });
      },
    }),
  );

  const remove = () =>
    save.mutate(null, {
      onSuccess: () =>
        toast({
          title: 'Signing Secret Removed',
          description: 'Webhook deliveries are accepted unsigned again.',
        }),
      onError: (error) => failureToast('Failed to remove the signing secret', error),
    });

  return (
    <div className="flex flex-wrap items-center gap-2">
      <SettingsDialog
        title={isSet ? 'Replace Signing Secret' : 'Set Signing Secret'}
        description={
          !showPlatform
            ? 'Paste the secret your deliveries are signed with, as set where your calls are configured.'
            : (VOICE_PLATFORMS[provider].signingSecret?.clientDialog ?? '')
        }
        open={open}
        onOpenChange={onOpenChange}
      >
        <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Webhook signing secret">
          <TextField
            id="webhook-signing-secret"
            label="Signing Secret"
            type="password"
            autoComplete="new-password"
            spellCheck={false}
            registration={form.register('secret')}
            error={form.formState.errors.secret?.message}
          />
          <FormDialogFooter
            onCancel={() => onOpenChange(false)}
            pending={save.isPending}
            submitLabel="Save Secret"
            pendingLabel="Saving..."
          />
        </form>
      </SettingsDialog>
      {isSet && (
        <Button variant="ghost" onClick={remove} disabled={save.isPending}>
          Remove
        </Button>
      )}
    </div>
  );
}
