/** The Notifications tab: the four preferences (SPEC §2, §3 defaults), saved to the server. */
import { useEffect, useState } from 'react';
import {
  NOTIFICATION_LABELS,
  type NotificationChannels,
  type NotificationPrefs,
} from '../../../contract/account';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Checkbox } from '../../components/ui/checkbox';
import { Label } from '../../components/ui/label';
import { Skeleton } from '../../components/ui/skeleton';
import { failureToast } from '../../lib/failure-toast';
import { toast } from '../../lib/use-toast';
import { LoadFailed } from './load-failed';
import { useSaveNotifications } from './mutations';
import { useNotificationChannels, useNotificationPrefs } from './queries';
import { SaveFooter } from './save-footer';

const KEYS = Object.keys(NOTIFICATION_LABELS) as (keyof NotificationPrefs)[];

export function NotificationsForm() {
  const prefs = useNotificationPrefs();
  const channels = useNotificationChannels().data;
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
                  <ChannelNote channel={key} channels={channels} />
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

/** Why a switched-on channel would still send nothing: said beside the switch, not discovered later. */
function ChannelNote({
  channel,
  channels,
}: {
  channel: keyof NotificationPrefs;
  channels: NotificationChannels | undefined;
}) {
  if (!channels) return null;
  const note =
    (channel === 'emailNotifications' || channel === 'monthlyReports') && !channels.email
      ? 'E-mail is not set up on this server yet: messages wait until it is.'
      : channel === 'smsNotifications' && !channels.sms
        ? 'Texting is not set up on this server yet: texts wait until it is.'
        : channel === 'smsNotifications' && !channels.smsTo
          ? 'Add a phone number in Account to receive texts.'
          : channel === 'smsNotifications'
            ? `Texts go to ${channels.smsTo}, not between 9 PM and 8 AM your time.`
            : null;
  return note ? (
    <p className="text-amber-800 text-xs" data-testid={`channel-note-${channel}`}>
      {note}
    </p>
  ) : null;
}
