/** Update API Key (DESIGN §6 [4]): the key is checked with the voice provider before it is saved. */
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ApiKeyBody } from '../../../contract/account';
import { VOICE_PLATFORMS, type VoiceProviderId } from '../../../contract/providers';
import { FormDialogFooter } from '../../components/form-dialog-footer';
import { TextField } from '../../components/form-fields';
import { serverFieldErrors, serverMessageOf } from '../../lib/api';
import { toast } from '../../lib/use-toast';
import { useUpdateApiKey } from './mutations';
import { SettingsDialog } from './settings-dialog';

export function ApiKeyDialog({
  provider,
  showPlatform,
}: {
  provider: VoiceProviderId;
  showPlatform: boolean;
}) {
  const name = VOICE_PLATFORMS[provider].name;
  const [open, setOpen] = useState(false);
  const form = useForm<ApiKeyBody>({ resolver: zodResolver(ApiKeyBody), defaultValues: { blandApiKey: '' } });
  const update = useUpdateApiKey();

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) form.reset({ blandApiKey: '' });
  }

  const submit = form.handleSubmit(({ blandApiKey }) =>
    update.mutate(blandApiKey, {
      onSuccess: () => {
        toast({
          title: 'API Key Updated',
          description: showPlatform
            ? `Your ${name} API key was verified and saved.`
            : 'Your API key was verified and saved.',
        });
        onOpenChange(false);
      },
      onError: (error) => {
        // The field and the toast say the same: the provider's reason when it gave one.
        const message =
          serverFieldErrors(error).blandApiKey ?? serverMessageOf(error, 'The API key could not be saved.');
        form.setError('blandApiKey', { message });
        toast({ title: 'API Key Not Saved', description: message, variant: 'destructive' });
      },
    }),
  );

  return (
    <SettingsDialog
      title="Update API Key"
      description={
        showPlatform
          ? `Paste your ${name} API key. We check it with ${name} before saving it, and store it encrypted.`
          : 'Paste your API key. We check it before saving it, and store it encrypted.'
      }
      open={open}
      onOpenChange={onOpenChange}
    >
      <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Update API key">
        <TextField
          id="api-key"
          label={showPlatform ? `${name} API Key` : 'API Key'}
          type="password"
          autoComplete="off"
          spellCheck={false}
          registration={form.register('blandApiKey')}
          error={form.formState.errors.blandApiKey?.message}
        />
        <FormDialogFooter
          onCancel={() => onOpenChange(false)}
          pending={update.isPending}
          submitLabel="Save API Key"
          pendingLabel="Checking key..."
        />
      </form>
    </SettingsDialog>
  );
}
