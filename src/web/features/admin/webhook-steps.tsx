/**
 * Wizard steps 2 and 3 (SPEC §4): show the webhook URL to paste into the voice agent, then wait
 * (polling every 2 s) until a real test call reaches it.
 */
import { ArrowLeft, CheckCircle2, PhoneCall } from 'lucide-react';
import { type FormEvent, Fragment, useEffect, useRef, useState } from 'react';
import { webhookSigningSecretField } from '../../../contract/common';
import { type HmacSetting, VOICE_PLATFORMS, type VoiceProviderId } from '../../../contract/providers';
import { CopyField } from '../../components/copy-field';
import { Button } from '../../components/ui/button';
import { DialogFooter } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Spinner } from '../../components/ui/spinner';
import { serverMessageOf } from '../../lib/api';
import { failureToast } from '../../lib/failure-toast';
import { useSetDraftWebhookSecret } from './mutations';
import { useWebhookStatus } from './queries';
import { isPolling, type WizardState } from './wizard-state';

export function WebhookConfigurationStep({
  provider,
  clientId,
  webhookUrl,
  onBack,
  onTest,
}: {
  provider: VoiceProviderId;
  clientId: string;
  webhookUrl: string;
  onBack: () => void;
  onTest: () => void;
}) {
  const platform = VOICE_PLATFORMS[provider];
  const { name, signingSecret } = platform;
  return (
    <div className="grid gap-5">
      <CopyField id="wizard-webhook-url" label="Webhook URL" value={webhookUrl} />
      {/* A platform signing with the client's API key (entered in the edit dialog) has no secret. */}
      {signingSecret === null ? (
        <p className="text-muted-foreground text-sm">{platform.signing}</p>
      ) : (
        <SigningSecretField clientId={clientId} name={name} hint={signingSecret.wizardHint} />
      )}
      {signingSecret?.hmacSettings && <HmacSettings name={name} settings={signingSecret.hmacSettings} />}
      <div className="rounded-lg border bg-muted/50 p-4 text-sm">
        <p className="font-medium">Connect the client’s voice agent on {name}</p>
        <ol className="mt-2 list-decimal space-y-1 pl-5 text-muted-foreground">
          <li>Copy the webhook URL above.</li>
          {platform.setupSteps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onBack}>
          <ArrowLeft /> Back
        </Button>
        <Button type="button" onClick={onTest}>
          <PhoneCall /> Test Webhook Connection
        </Button>
      </DialogFooter>
    </div>
  );
}

/** The platform's HMAC credential as the server checks it: the settings to choose there. */
function HmacSettings({ name, settings }: { name: string; settings: HmacSetting[] }) {
  return (
    <section aria-labelledby="hmac-title" className="rounded-lg border p-4 text-sm">
      <p id="hmac-title" className="font-medium">
        To sign deliveries: an HMAC credential on the server URL, at {name}’s defaults
      </p>
      <dl className="mt-2 grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
        {settings.map(([setting, value, literal]) => (
          <Fragment key={setting}>
            <dt className="text-muted-foreground">{setting}</dt>
            <dd className={literal ? 'whitespace-nowrap font-mono' : undefined}>{value}</dd>
          </Fragment>
        ))}
      </dl>
      <p className="mt-2 text-muted-foreground">
        A delivery whose timestamp is more than 5 minutes from our clock is refused.
      </p>
    </section>
  );
}

/** Optional: the secret the platform signs deliveries with, so a forged one is refused from the start. */
function SigningSecretField({ clientId, name, hint }: { clientId: string; name: string; hint: string }) {
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useSetDraftWebhookSecret();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = webhookSigningSecretField.safeParse(secret);
    if (!checked.success || !checked.data) {
      setError(checked.success ? `Paste the signing secret from ${name}` : checked.error.issues[0].message);
      return;
    }
    setError(null);
    save.mutate(
      { clientId, secret: checked.data },
      {
        onSuccess: () => {
          setSaved(true);
          setSecret('');
        },
        onError: (failure) => setError(serverMessageOf(failure, 'The secret could not be saved')),
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate className="grid gap-1.5" aria-label="Webhook signing secret">
      <Label htmlFor="wizard-signing-secret">Webhook Signing Secret (optional)</Label>
      <div className="flex gap-2">
        <Input
          id="wizard-signing-secret"
          type="password"
          autoComplete="new-password"
          spellCheck={false}
          value={secret}
          aria-invalid={error ? true : undefined}
          aria-describedby="wizard-signing-secret-hint"
          onChange={(event) => setSecret(event.target.value)}
        />
        <Button type="submit" variant="outline" disabled={save.isPending}>
          Save Secret
        </Button>
      </div>
      <p
        id="wizard-signing-secret-hint"
        className={error ? 'text-destructive text-sm' : 'text-muted-foreground text-sm'}
      >
        {error ?? (saved ? 'Saved: deliveries without a valid signature are refused.' : hint)}
      </p>
    </form>
  );
}

export function WebhookTestingStep({
  state,
  onSucceeded,
  onBack,
  onContinue,
}: {
  state: WizardState;
  onSucceeded: () => void;
  onBack: () => void;
  onContinue: () => void;
}) {
  const status = useWebhookStatus(state.clientId, isPolling(state));
  const errorShown = useRef(false);

  useEffect(() => {
    if (status.data?.isTestSuccessful) onSucceeded();
  }, [status.data?.isTestSuccessful, onSucceeded]);

  // One toast per run of failures, not one every two seconds.
  useEffect(() => {
    if (status.isError && !errorShown.current) {
      errorShown.current = true;
      failureToast('Failed to check webhook status', status.error, 'Still trying…');
    }
    if (status.isSuccess) errorShown.current = false;
  }, [status.isError, status.isSuccess, status.error]);

  return (
    <div className="grid gap-5">
      {state.testSucceeded ? (
        <div
          role="status"
          className="flex items-start gap-3 rounded-lg border border-success/40 bg-success/10 p-4"
        >
          <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-success" />
          <div>
            <p className="font-medium">Test call received!</p>
            <p className="text-muted-foreground text-sm">
              The webhook is connected. Continue to create the client account.
            </p>
          </div>
        </div>
      ) : (
        <div role="status" className="flex items-start gap-3 rounded-lg border bg-muted/50 p-4">
          <Spinner className="mt-0.5 size-5 shrink-0 text-primary-text" />
          <div>
            <p className="font-medium">Waiting for a test call…</p>
            <p className="text-muted-foreground text-sm">
              Place a test call through the client’s voice agent. This step continues on its own as soon as
              the call reaches the webhook (checked every 2 seconds).
            </p>
          </div>
        </div>
      )}
      <p className="break-all font-mono text-muted-foreground text-xs">{state.webhookUrl}</p>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onBack}>
          <ArrowLeft /> Back
        </Button>
        <Button type="button" onClick={onContinue} disabled={!state.testSucceeded}>
          Continue
        </Button>
      </DialogFooter>
    </div>
  );
}
