/**
 * The Security tab (SPEC §2, DESIGN §6 [4]): password, the voice provider API key, the webhook URL
 * and the secret its deliveries are signed with.
 */
import { Check, Copy, KeyRound, Link2, Lock, ShieldCheck } from 'lucide-react';
import type { ClientSession } from '../../../contract/auth';
import { VOICE_PLATFORMS } from '../../../contract/providers';
import { RotateWebhookUrl } from '../../components/rotate-webhook-url';
import { TwoFactorCard } from '../../components/two-factor/two-factor-card';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { useCan } from '../../lib/permissions';
import { useShowPlatformDetails } from '../../lib/platform-details';
import { useCopyToClipboard } from '../../lib/use-copy-to-clipboard';
import { cn } from '../../lib/utils';
import { ApiKeyDialog } from './api-key-dialog';
import { ChangePasswordDialog } from './change-password-dialog';
import { useRotateProviderWebhook } from './mutations';
import { SessionsCard } from './sessions-card';
import { WebhookSecretDialog } from './webhook-secret-dialog';

export function SecurityTab({ client }: { client: ClientSession }) {
  const connected = client.apiKeyStatus === 'valid';
  const canKeys = useCan('keys');
  // The rule for every user of the account is the Owners' (the `users` permission).
  const canRequireTwoFactor = useCan('users');
  // SPEC's texts name the platform; a client the agency does not name it to reads them without.
  const showPlatform = useShowPlatformDetails();
  const rotateWebhook = useRotateProviderWebhook();
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Lock className="size-4" aria-hidden="true" />
            Password
          </CardTitle>
          <CardDescription>Change the password you sign in with.</CardDescription>
        </CardHeader>
        <CardContent>
          <ChangePasswordDialog />
        </CardContent>
      </Card>
      <TwoFactorCard
        api="/api/client/2fa"
        requireLabel={canRequireTwoFactor ? 'Require two-factor sign-in for everyone' : undefined}
      />
      <SessionsCard />

      {/* The voice API key, the inbound webhook URL and its signing secret are the keys' holders' (Owners). */}
      {canKeys && (
        <>
          <Card>
            <CardHeader>
              <CardTitle className="flex items-center gap-2">
                <KeyRound className="size-4" aria-hidden="true" />
                {showPlatform ? `${VOICE_PLATFORMS[client.provider].name} API Key` : 'API Key'}
              </CardTitle>
              <CardDescription>Used to sync your calls and play recordings.</CardDescription>
            </CardHeader>
            <CardContent className="flex flex-wrap items-center gap-3">
              <span className="text-sm">Status:</span>
              <Badge
                data-testid="api-key-status"
                variant={connected ? 'default' : 'secondary'}
                className={cn(connected && 'bg-success text-white')}
              >
                {connected ? 'Connected' : 'Not Connected'}
              </Badge>
              <div className="w-full sm:ml-auto sm:w-auto">
                {client.clientManagesApiKey ? (
                  <ApiKeyDialog provider={client.provider} showPlatform={showPlatform} />
                ) : (
                  <AgencyManagedKey />
                )}
              </div>
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle className="flex items-center gap-2">
                <Link2 className="size-4" aria-hidden="true" />
                Webhook URL
              </CardTitle>
              <CardDescription>
                {showPlatform
                  ? `Your unique address for ${VOICE_PLATFORMS[client.provider].name}'s post-call webhooks. Keep it private.`
                  : 'Your unique address for post-call webhooks. Keep it private.'}
              </CardDescription>
            </CardHeader>
            <CardContent className="grid gap-3">
              {client.webhookUrl ? (
                <WebhookUrl url={client.webhookUrl} />
              ) : (
                <p className="text-muted-foreground text-sm">No webhook URL configured</p>
              )}
              <RotateWebhookUrl
                rotate={() => rotateWebhook.mutateAsync()}
                platform={showPlatform ? VOICE_PLATFORMS[client.provider].name : null}
              />
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle className="flex items-center gap-2">
                <ShieldCheck className="size-4" aria-hidden="true" />
                Webhook Signing Secret
              </CardTitle>
              <CardDescription>
                {!showPlatform
                  ? 'With a secret set, only deliveries signed with it are accepted.'
                  : (VOICE_PLATFORMS[client.provider].securityTabSigning ??
                    VOICE_PLATFORMS[client.provider].signing)}
              </CardDescription>
            </CardHeader>
            {/* A platform signing with the API key above has no separate secret to set. */}
            {VOICE_PLATFORMS[client.provider].signingSecret !== null && (
              <CardContent className="flex flex-wrap items-center gap-3">
                <span className="text-sm">Status:</span>
                <Badge
                  data-testid="signing-secret-status"
                  variant={client.hasWebhookSigningSecret ? 'default' : 'secondary'}
                  className={cn(client.hasWebhookSigningSecret && 'bg-success text-white')}
                >
                  {client.hasWebhookSigningSecret ? 'Set' : 'Not Set'}
                </Badge>
                <div className="w-full sm:ml-auto sm:w-auto">
                  <WebhookSecretDialog
                    isSet={client.hasWebhookSigningSecret}
                    provider={client.provider}
                    showPlatform={showPlatform}
                  />
                </div>
              </CardContent>
            )}
          </Card>
        </>
      )}
    </div>
  );
}

/**
 * SPEC's Update API Key button, for a client whose key the agency keeps: the button cannot be used
 * and says why (the server answers 403 to a change anyway).
 */
function AgencyManagedKey() {
  return (
    <div className="flex flex-col gap-1 sm:items-end">
      <Button type="button" variant="outline" disabled aria-describedby="api-key-managed">
        Update API Key
      </Button>
      <p id="api-key-managed" className="text-muted-foreground text-xs" data-testid="api-key-managed">
        Your agency manages this key.
      </p>
    </div>
  );
}

function WebhookUrl({ url }: { url: string }) {
  const { copied, copy } = useCopyToClipboard();

  return (
    <div className="flex flex-col gap-2 sm:flex-row">
      <Input
        aria-label="Webhook URL"
        value={url}
        readOnly
        className="font-mono text-xs"
        onFocus={(e) => e.currentTarget.select()}
      />
      <Button type="button" variant="outline" onClick={() => copy(url)} className="sm:w-28">
        {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
        {copied ? 'Copied!' : 'Copy'}
      </Button>
    </div>
  );
}
