/** The Notifications tab: the four preferences (SPEC §2, §3 defaults), saved to the server. */
import { useEffect, useState } from 'react';
import { NOTIFICATION_LABELS, type NotificationPrefs } from '../../../contract/account';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Checkbox } from '../../components/ui/checkbox';
import { Label } from '../../components/ui/label';
import { Skeleton } from '../../components/ui/skeleton';
import { failureToast } from '../../lib/failure-toast';
import { toast } from '../../lib/use-toast';
import { LoadFailed } from './load-failed';
import { useSaveNotifications } from './mutations';
import { useNotificationPrefs } from './queries';
import { SaveFooter } from './save-footer';

const KEYS = Object.keys(NOTIFICATION_LABELS) as (keyof NotificationPrefs)[];

export function NotificationsForm() {
  const prefs = useNotificationPrefs();
  const save = useSaveNotifications();
  const [draft, setDraft] = useState<NotificationPrefs | null>(null);
  useEffect(() => {
    if (prefs.data) setDraft(prefs.data);
  }, [prefs.data]);

  function submit() {
    if (!draft) return;
    save.mutate(draft, {
      onSuccess: () =>
        toast({
          title: 'Notifications Updated',
          description: 'Your notification preferences have been saved.',
        }),
      onError: (error) => failureToast('Update Failed', error, 'Your preferences could not be saved.'),
    });
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Notification Preferences</CardTitle>
        <CardDescription>Choose how we keep you informed about your calls and account.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {prefs.isError && !draft ? (
          <LoadFailed onRetry={() => prefs.refetch()}>Your preferences could not be loaded.</LoadFailed>
        ) : !draft ? (
          <div className="grid gap-3">
            {KEYS.map((k) => (
              <Skeleton key={k} className="h-10 w-full" />
            ))}
          </div>
        ) : (
          <ul className="grid gap-1">
            {KEYS.map((key) => (
              <li key={key} className="flex items-start gap-3 rounded-md p-2 hover:bg-muted/50">
                <Checkbox
                  id={`notify-${key}`}
                  checked={draft[key]}
                  onCheckedChange={(checked) => setDraft({ ...draft, [key]: checked === true })}
                  className="mt-0.5"
                />
                <div className="grid gap-0.5">
                  <Label htmlFor={`notify-${key}`}>{NOTIFICATION_LABELS[key].label}</Label>
                  <p className="text-muted-foreground text-xs">{NOTIFICATION_LABELS[key].description}</p>
                </div>
              </li>
            ))}
          </ul>
        )}
        <SaveFooter label="Save Preferences" onClick={submit} disabled={!draft} pending={save.isPending} />
      </CardContent>
    </Card>
  );
}
