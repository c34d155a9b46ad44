/**
 * What each voice platform offers for its own copy of a call: we redact and delete what
 * we store; the platform keeps its own, under its own settings. Plain words, the client's platform
 * first.
 */
import { Server } from 'lucide-react';
import { VOICE_PROVIDERS, VOICE_PROVIDER_NAMES, type VoiceProviderId } from '../../../contract/providers';
import { useShowPlatformDetails } from '../../lib/platform-details';
import { Badge } from '../ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';

const PLATFORM_SETTINGS: Record<VoiceProviderId, string> = {
  vapi: 'Each assistant has a compliance plan: PCI mode keeps card details out of what Vapi stores, and the transcript and the recording can be redacted or not kept at all. Set it per assistant in Vapi’s dashboard.',
  retell:
    'Each agent has PII redaction, with the categories Retell removes from its transcripts and recordings, and a data storage retention: how long Retell keeps calls. Set them per agent in Retell’s dashboard.',
  bland:
    'Each call can be started with a recording lifespan: how long Bland keeps its recording. Bland has no way to delete a call afterwards, so an erasure here says on its receipt that Bland’s copy was kept.',
};

export function PlatformSettingsCard({ provider }: { provider?: VoiceProviderId }) {
  const showPlatform = useShowPlatformDetails();
  if (!showPlatform) return <UnnamedPlatformCard />;
  const order = provider
    ? [provider, ...VOICE_PROVIDERS.filter((p) => p !== provider)]
    : [...VOICE_PROVIDERS];
  return (
    <Card data-testid="platform-settings">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Server className="size-4" aria-hidden="true" />
          <h2>The voice platform’s own copy</h2>
        </CardTitle>
        <CardDescription>
          The settings above cover what is stored here. The voice platform keeps its own copy of each call,
          under its own settings:
        </CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-4">
          {order.map((id) => (
            <div key={id} className="grid gap-1">
              <dt className="flex items-center gap-2 font-medium text-sm">
                {VOICE_PROVIDER_NAMES[id]}
                {id === provider && <Badge variant="secondary">Your platform</Badge>}
              </dt>
              <dd className="text-muted-foreground text-sm">{PLATFORM_SETTINGS[id]}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}

/** The same fact for a client the agency does not name its supplier to: no platform, no vendor. */
function UnnamedPlatformCard() {
  return (
    <Card data-testid="platform-settings">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Server className="size-4" aria-hidden="true" />
          <h2>Copies kept by the call service</h2>
        </CardTitle>
        <CardDescription>
          The settings above cover what is stored here. The service that places and answers your calls keeps
          its own copy of each call, under settings your agency manages: ask your agency about them.
        </CardDescription>
      </CardHeader>
    </Card>
  );
}
