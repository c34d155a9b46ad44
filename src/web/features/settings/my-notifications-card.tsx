/**
 * "My notifications" (issue 36): what the signed-in person receives themselves, for every user
 * whatever their role. Each channel follows the account-wide switch ("Account default", saying
 * what it is now), or is on or off for this person; texts go to their own mobile number. The
 * account-wide switches stay below for users holding `notifications`.
 */
import { useEffect, useId, useState } from 'react';
import {
  MY_NOTIFICATION_MESSAGES,
  type MyNotifications,
  NOTIFICATION_CHOICES,
  type NotificationChoice,
} from '../../../contract/notification-choices';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Skeleton } from '../../components/ui/skeleton';
import { serverFieldErrors } from '../../lib/api';
import { failureToast } from '../../lib/failure-toast';
import { toast } from '../../lib/use-toast';
import { LoadFailed } from './load-failed';
import { useSaveMyNotifications } from './mutations';
import { useMyNotifications } from './queries';
import { SaveFooter } from '../../components/save-footer';

type Channel = 'email' | 'sms';
const CHANNEL_LABELS: Record<Channel, string> = { email: 'E-mail', sms: 'Text messages (SMS)' };

interface Draft {
  email: NotificationChoice;
  sms: NotificationChoice;
  smsNumber: string;
}

const draftOf = (mine: MyNotifications): Draft => ({
  email: mine.email,
  sms: mine.sms,
  smsNumber: mine.smsNumber ?? '',
});

export function MyNotificationsCard() {
  const mine = useMyNotifications();
  const save = useSaveMyNotifications();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [numberError, setNumberError] = useState<string | null>(null);
  useEffect(() => {
    if (mine.data) setDraft(draftOf(mine.data));
  }, [mine.data]);

  function submit() {
    if (!draft) return;
    setNumberError(null);
    save.mutate(draft, {
      onSuccess: () => toast({ title: 'Notifications Updated', description: MY_NOTIFICATION_MESSAGES.saved }),
      onError: (error) => {
        // A refused number is said under the field; anything else in a toast.
        const field = serverFieldErrors(error).smsNumber;
        if (field) setNumberError(field);
        else failureToast('Update Failed', error, 'Your choices could not be saved.');
      },
    });
  }

  return (
    <Card data-testid="my-notifications">
      <CardHeader>
        <CardTitle>My notifications</CardTitle>
        <CardDescription>
          What you receive yourself. "Account default" follows the account-wide switches.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {mine.isError && !draft ? (
          <LoadFailed onRetry={() => mine.refetch()}>Your choices could not be loaded.</LoadFailed>
        ) : !draft || !mine.data ? (
          <div className="grid gap-3">
            <Skeleton className="h-16 w-full" />
            <Skeleton className="h-16 w-full" />
          </div>
        ) : (
          <>
            <div className="grid gap-4 sm:grid-cols-2">
              {(['email', 'sms'] as const).map((channel) => (
                <ChoiceGroup
                  key={channel}
                  channel={channel}
                  value={draft[channel]}
                  accountDefault={mine.data.defaults[channel]}
                  onChange={(value) => setDraft({ ...draft, [channel]: value })}
                />
              ))}
            </div>
            <SmsNumberField
              value={draft.smsNumber}
              choice={draft.sms}
              error={numberError}
              mine={mine.data}
              onChange={(smsNumber) => setDraft({ ...draft, smsNumber })}
            />
          </>
        )}
        <SaveFooter label="Save my choices" onClick={submit} disabled={!draft} pending={save.isPending} />
      </CardContent>
    </Card>
  );
}

function ChoiceGroup({
  channel,
  value,
  accountDefault,
  onChange,
}: {
  channel: Channel;
  value: NotificationChoice;
  accountDefault: boolean;
  onChange: (value: NotificationChoice) => void;
}) {
  const name = useId();
  const labels: Record<NotificationChoice, string> = {
    default: `Account default (${accountDefault ? 'on' : 'off'})`,
    on: 'On',
    off: 'Off',
  };
  return (
    <fieldset className="grid gap-1.5 rounded-md border p-3">
      <legend className="px-1 font-medium text-sm">{CHANNEL_LABELS[channel]}</legend>
      {NOTIFICATION_CHOICES.map((choice) => {
        const id = `${name}-${choice}`;
        return (
          <div key={choice} className="flex items-center gap-2">
            <input
              type="radio"
              id={id}
              name={name}
              value={choice}
              checked={value === choice}
              onChange={() => onChange(choice)}
              className="size-4 accent-primary-text"
              data-testid={`my-${channel}-${choice}`}
            />
            <Label htmlFor={id} className="font-normal">
              {labels[choice]}
            </Label>
          </div>
        );
      })}
    </fieldset>
  );
}

function SmsNumberField({
  value,
  choice,
  error,
  mine,
  onChange,
}: {
  value: string;
  /** The SMS choice as drafted: whether texts would be on. */
  choice: NotificationChoice;
  error: string | null;
  mine: MyNotifications;
  onChange: (value: string) => void;
}) {
  const hintId = useId();
  const textsOn = choice === 'on' || (choice === 'default' && mine.defaults.sms);
  const hint = !mine.channels.sms
    ? 'Texting is not set up on this server yet: texts wait until it is.'
    : textsOn && !mine.smsTo
      ? 'Add your mobile number to get texts.'
      : mine.smsTo && !mine.smsNumber
        ? `Without a number of your own, texts go to the account's number, ${mine.smsTo}.`
        : 'Texts come outside the account\u2019s quiet hours.';
  return (
    <div className="grid gap-1.5 sm:max-w-sm">
      <Label htmlFor="my-sms-number">Mobile number for texts</Label>
      <Input
        id="my-sms-number"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        placeholder="+14155550123"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={hintId}
      />
      <p id={hintId} className={error ? 'text-destructive text-xs' : 'text-muted-foreground text-xs'}>
        {error ?? hint}
      </p>
    </div>
  );
}
