/**
 * What each voice platform offers for its own copy of a call: we redact and delete what
 * we store; the platform keeps its own, under its own settings. Plain words, the client's platform
 * first.
 */
import { Server } from 'lucide-react';
import { VOICE_PLATFORMS, VOICE_PROVIDERS, type VoiceProviderId } from '../../../contract/providers';
import { useShowPlatformDetails } from '../../lib/platform-details';
import { Badge } from '../ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';

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
                {VOICE_PLATFORMS[id].name}
                {id === provider && <Badge variant="secondary">Your platform</Badge>}
              </dt>
              <dd className="text-muted-foreground text-sm">{VOICE_PLATFORMS[id].ownCopy}</dd>
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
