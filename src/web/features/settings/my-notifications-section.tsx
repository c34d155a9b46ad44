/**
 * "My notifications": what the signed-in person receives themselves, for every user
 * whatever their role. Each channel follows the account-wide switch ("Account default", saying
 * what it is now), or is on or off for this person; texts go to their own mobile number, once
 * verified with a code texted to it, and only for people holding `receive_texts` (others see
 * e-mail only). A section of the one Notifications panel (notifications-form.tsx), which holds the
 * draft and saves it; verifying a number acts at once, as it texts a code.
 */
import { useId, useState } from 'react';
import {
  type MyNotifications,
  NOTIFICATION_CHOICES,
  type NotificationChoice,
  SMS_NUMBER_MESSAGES,
} from '../../../contract/notification-choices';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Skeleton } from '../../components/ui/skeleton';
import { serverFieldErrors } from '../../lib/api';
import { failureToast } from '../../lib/failure-toast';
import { toast } from '../../lib/use-toast';
import { LoadFailed } from './load-failed';
import { useConfirmSmsCode, useSendSmsCode } from './mutations';

type Channel = 'email' | 'sms';
const CHANNEL_LABELS: Record<Channel, string> = { email: 'E-mail', sms: 'Text messages (SMS)' };

export interface MyNotificationsDraft {
  email: NotificationChoice;
  sms: NotificationChoice;
  smsNumber: string;
}

export const myDraftOf = (mine: MyNotifications): MyNotificationsDraft => ({
  email: mine.email,
  sms: mine.sms,
  smsNumber: mine.smsNumber ?? '',
});

/** What this person's save sends: without receive_texts only e-mail is theirs to choose. */
export const myBodyOf = (draft: MyNotificationsDraft, mine: MyNotifications) =>
  mine.smsAllowed ? draft : { email: draft.email };

export const isMyDraftChanged = (draft: MyNotificationsDraft, mine: MyNotifications) =>
  JSON.stringify(myBodyOf(draft, mine)) !== JSON.stringify(myBodyOf(myDraftOf(mine), mine));

/** The person's own choices, drafted by the panel that saves them with the account's switches. */
export function MyNotificationsSection({
  mine,
  loadFailed,
  onRetry,
  draft,
  numberError,
  onChange,
}: {
  mine: MyNotifications | undefined;
  loadFailed: boolean;
  onRetry: () => void;
  draft: MyNotificationsDraft | null;
  numberError: string | null;
  onChange: (draft: MyNotificationsDraft) => void;
}) {
  const headingId = useId();
  return (
    <section className="grid gap-4" aria-labelledby={headingId} data-testid="my-notifications">
      <div className="grid gap-1">
        <h3 id={headingId} className="font-semibold">
          My notifications
        </h3>
        <p className="text-muted-foreground text-sm">
          What you receive yourself. "Account default" follows the account-wide switches.
        </p>
      </div>
      {loadFailed && !draft ? (
        <LoadFailed onRetry={onRetry}>Your choices could not be loaded.</LoadFailed>
      ) : !draft || !mine ? (
        <div className="grid gap-3">
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-16 w-full" />
        </div>
      ) : (
        <>
          <div className="grid gap-4 sm:grid-cols-2">
            {(mine.smsAllowed ? (['email', 'sms'] as const) : (['email'] as const)).map((channel) => (
              <ChoiceGroup
                key={channel}
                channel={channel}
                value={draft[channel]}
                accountDefault={mine.defaults[channel]}
                onChange={(value) => onChange({ ...draft, [channel]: value })}
              />
            ))}
          </div>
          {mine.smsAllowed ? (
            <>
              <SmsNumberField
                value={draft.smsNumber}
                choice={draft.sms}
                error={numberError}
                mine={mine}
                onChange={(smsNumber) => onChange({ ...draft, smsNumber })}
              />
              <SmsVerification mine={mine} unsaved={draft.smsNumber !== (mine.smsNumber ?? '')} />
            </>
          ) : (
            <p className="text-muted-foreground text-sm">
              Text messages are for people whose role allows them; ask an Owner if you need them.
            </p>
          )}
        </>
      )}
    </section>
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

/**
 * Whether texts can reach the number: verified, or a button that texts a code and a field to
 * confirm it. Texts go nowhere until then.
 */
function SmsVerification({ mine, unsaved }: { mine: MyNotifications; unsaved: boolean }) {
  const send = useSendSmsCode();
  const confirm = useConfirmSmsCode();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const statusId = useId();
  if (!mine.channels.sms || !mine.smsTo) return null;
  if (mine.smsVerified && !unsaved)
    return (
      <p className="text-green-700 text-sm" data-testid="sms-verified">
        {mine.smsTo} is verified: texts can go to it.
      </p>
    );

  function sendCode() {
    setCodeError(null);
    send.mutate(undefined, {
      onSuccess: () => toast({ title: 'Code Sent', description: SMS_NUMBER_MESSAGES.codeSent }),
      onError: (error) => failureToast('Code Not Sent', error, 'The code could not be sent.'),
    });
  }
  function confirmCode() {
    setCodeError(null);
    confirm.mutate(code.trim(), {
      onSuccess: () => {
        setCode('');
        toast({ title: 'Number Verified', description: SMS_NUMBER_MESSAGES.verified });
      },
      onError: (error) => {
        const field = serverFieldErrors(error).code;
        if (field) setCodeError(field);
        else failureToast('Not Verified', error, 'The code could not be checked.');
      },
    });
  }

  return (
    <div className="grid gap-2 rounded-md border p-3" data-testid="sms-verification">
      <p id={statusId} className="text-sm">
        {unsaved
          ? 'Save your new number, then verify it with a code.'
          : `Not verified yet: no texts go to ${mine.smsTo} until you enter the code we text to it.`}
      </p>
      {!unsaved && (
        <div className="flex flex-wrap items-end gap-2">
          <Button type="button" variant="outline" onClick={sendCode} disabled={send.isPending}>
            {mine.smsCodePending ? 'Text me a new code' : 'Text me a code'}
          </Button>
          {mine.smsCodePending && (
            <>
              <div className="grid gap-1.5">
                <Label htmlFor="my-sms-code">Code from the text</Label>
                <Input
                  id="my-sms-code"
                  className="w-36"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={6}
                  value={code}
                  onChange={(e) => setCode(e.target.value)}
                  aria-invalid={codeError ? true : undefined}
                  aria-describedby={statusId}
                />
              </div>
              <Button type="button" onClick={confirmCode} disabled={confirm.isPending || code.trim() === ''}>
                Confirm
              </Button>
            </>
          )}
        </div>
      )}
      {codeError && (
        <p className="text-destructive text-xs" role="alert">
          {codeError}
        </p>
      )}
    </div>
  );
}
