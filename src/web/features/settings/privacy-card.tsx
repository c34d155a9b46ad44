/**
 * The Privacy card at the top of Settings › Privacy, for Owners (`privacy`): "hide
 * callers' numbers until shown" masks every caller's number for everyone; those allowed to see
 * full numbers use "Show number" on one call at a time, and each time is recorded. The
 * redaction, retention and erasure settings follow it in the tab (components/privacy/).
 */
import { EyeOff } from 'lucide-react';
import { PRIVACY_TEXTS } from '../../../contract/privacy';
import { CLIENT_PRIVACY_API } from '../../components/privacy/privacy-api';
import { usePrivacySettings, useSavePrivacySettings } from '../../components/privacy/privacy-queries';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Label } from '../../components/ui/label';
import { Skeleton } from '../../components/ui/skeleton';
import { Switch } from '../../components/ui/switch';
import { failureToast } from '../../lib/failure-toast';
import { toast } from '../../lib/use-toast';

export function PrivacyCard() {
  const settings = usePrivacySettings(CLIENT_PRIVACY_API);
  const save = useSavePrivacySettings(CLIENT_PRIVACY_API);
  const hide = settings.data?.hideNumbersUntilShown ?? false;

  function change(hideNumbersUntilShown: boolean) {
    save.mutate(
      { hideNumbersUntilShown },
      {
        onSuccess: () =>
          toast({
            title: 'Privacy Saved',
            description: hideNumbersUntilShown
              ? 'Callers’ numbers are hidden until someone shows one.'
              : 'People allowed to see full numbers see them again.',
          }),
        onError: (error) => failureToast('Privacy Not Saved', error),
      },
    );
  }

  return (
    <Card data-testid="privacy-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <EyeOff className="size-4" aria-hidden="true" />
          {PRIVACY_TEXTS.card}
        </CardTitle>
        <CardDescription id="privacy-hide-numbers-help">{PRIVACY_TEXTS.hideNumbersHelp}</CardDescription>
      </CardHeader>
      <CardContent>
        {settings.isPending ? (
          <Skeleton className="h-6 w-64" />
        ) : (
          <div className="flex items-center gap-3">
            <Switch
              id="privacy-hide-numbers"
              checked={hide}
              disabled={save.isPending || settings.isError}
              onCheckedChange={change}
              aria-describedby="privacy-hide-numbers-help"
            />
            <Label htmlFor="privacy-hide-numbers">{PRIVACY_TEXTS.hideNumbersLabel}</Label>
          </div>
        )}
        {settings.isError && (
          <p className="mt-2 text-destructive text-sm" role="alert">
            The privacy settings could not be loaded.
          </p>
        )}
      </CardContent>
    </Card>
  );
}
