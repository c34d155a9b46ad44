/**
 * The account-wide switches (SPEC §2, §3 defaults; the defaults each person's choices follow), the
 * e-mail digest, the quiet hours for texts and how recent a call must be to alert: for
 * users holding `notifications`. A section of the one Notifications panel (notifications-form.tsx),
 * which holds the draft and saves it.
 */
import { useId } from 'react';
import {
  DIGEST_FREQUENCIES,
  type DigestFrequency,
  NOTIFICATION_LABELS,
  type NotificationChannels,
  type NotificationPrefs,
  type NotificationSwitches,
} from '../../../contract/account';
import { NativeSelect } from '../../components/native-select';
import { Checkbox } from '../../components/ui/checkbox';
import { Label } from '../../components/ui/label';
import { Skeleton } from '../../components/ui/skeleton';
import { LoadFailed } from './load-failed';

// Object.keys is string[]; NOTIFICATION_LABELS is keyed by the switches
const KEYS = Object.keys(NOTIFICATION_LABELS) as (keyof NotificationSwitches)[];
const DIGEST_LABELS: Record<DigestFrequency, string> = {
  off: 'No digest',
  daily: 'Daily, at 8 AM',
  weekly: 'Weekly, Mondays at 8 AM',
};
const HOURS = Array.from({ length: 24 }, (_, h) => h);
/** How long after a call ended it may still alert: a few choices within what the server accepts. */
const ALERT_WINDOWS = [15, 30, 60, 120, 240, 720, 1440];
const windowLabel = (m: number) =>
  m < 60 ? `${m} minutes` : m === 60 ? '1 hour' : m % 60 === 0 ? `${m / 60} hours` : `${m} minutes`;
const hourLabel = (h: number) => `${h % 12 === 0 ? 12 : h % 12}:00 ${h < 12 ? 'AM' : 'PM'}`;

export function AccountNotificationsSection({
  draft,
  channels,
  loadFailed,
  onRetry,
  onChange,
}: {
  draft: NotificationPrefs | null;
  channels: NotificationChannels | undefined;
  loadFailed: boolean;
  onRetry: () => void;
  onChange: (draft: NotificationPrefs) => void;
}) {
  const headingId = useId();
  return (
    <section
      className="grid gap-4 border-t pt-6"
      aria-labelledby={headingId}
      data-testid="account-notifications"
    >
      <div className="grid gap-1">
        <h3 id={headingId} className="font-semibold">
          Notification Preferences
        </h3>
        <p className="text-muted-foreground text-sm">
          Choose how we keep you informed about your calls and account: the account-wide switches.
        </p>
      </div>
      {loadFailed && !draft ? (
        <LoadFailed onRetry={onRetry}>Your preferences could not be loaded.</LoadFailed>
      ) : !draft ? (
        <div className="grid gap-3">
          {KEYS.map((k) => (
            <Skeleton key={k} className="h-10 w-full" />
          ))}
        </div>
      ) : (
        <>
          <ul className="grid gap-1">
            {KEYS.map((key) => (
              <li key={key} className="flex items-start gap-3 rounded-md p-2 hover:bg-muted/50">
                <Checkbox
                  id={`notify-${key}`}
                  checked={draft[key]}
                  onCheckedChange={(checked) => onChange({ ...draft, [key]: checked === true })}
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
          <div className="grid gap-4 border-t pt-4 sm:grid-cols-2">
            <div className="grid gap-1.5">
              <Label htmlFor="notify-digest">E-mail digest</Label>
              <NativeSelect
                id="notify-digest"
                value={draft.digest}
                // The options are DIGEST_LABELS' keys, each a DigestFrequency
                onChange={(e) => onChange({ ...draft, digest: e.target.value as DigestFrequency })}
              >
                {DIGEST_FREQUENCIES.map((d) => (
                  <option key={d} value={d}>
                    {DIGEST_LABELS[d]}
                  </option>
                ))}
              </NativeSelect>
              <p className="text-muted-foreground text-xs">
                The period's calls, outcomes and calls needing attention, in your time zone. Needs e-mail
                notifications on.
              </p>
            </div>
            <fieldset className="grid gap-1.5">
              <legend className="mb-1.5 font-medium text-sm">Quiet hours for texts</legend>
              <div className="flex items-center gap-2">
                <label htmlFor="quiet-start" className="sr-only">
                  Quiet from
                </label>
                <NativeSelect
                  id="quiet-start"
                  value={draft.quietHours.start}
                  onChange={(e) =>
                    onChange({ ...draft, quietHours: { ...draft.quietHours, start: Number(e.target.value) } })
                  }
                >
                  {HOURS.map((h) => (
                    <option key={h} value={h}>
                      {hourLabel(h)}
                    </option>
                  ))}
                </NativeSelect>
                <span className="text-muted-foreground text-sm">to</span>
                <label htmlFor="quiet-end" className="sr-only">
                  Quiet until
                </label>
                <NativeSelect
                  id="quiet-end"
                  value={draft.quietHours.end}
                  onChange={(e) =>
                    onChange({ ...draft, quietHours: { ...draft.quietHours, end: Number(e.target.value) } })
                  }
                >
                  {HOURS.map((h) => (
                    <option key={h} value={h}>
                      {hourLabel(h)}
                    </option>
                  ))}
                </NativeSelect>
              </div>
              <p className="text-muted-foreground text-xs">
                Texts that would arrive then wait until it ends. The same hour twice: never held.
              </p>
            </fieldset>
            <div className="grid gap-1.5">
              <Label htmlFor="notify-alert-window">Alert about calls that ended within</Label>
              <NativeSelect
                id="notify-alert-window"
                value={draft.alertWindowMinutes}
                onChange={(e) => onChange({ ...draft, alertWindowMinutes: Number(e.target.value) })}
              >
                {[...new Set([...ALERT_WINDOWS, draft.alertWindowMinutes])]
                  .sort((a, b) => a - b)
                  .map((m) => (
                    <option key={m} value={m}>
                      {windowLabel(m)}
                    </option>
                  ))}
              </NativeSelect>
              <p className="text-muted-foreground text-xs">
                E-mails and texts are about calls that just happened: calls brought in later by a sync, or
                ended longer ago, show on the dashboard without an alert.
              </p>
            </div>
          </div>
        </>
      )}
    </section>
  );
}

/** Why a switched-on channel would still send nothing: said beside the switch, not discovered later. */
function ChannelNote({
  channel,
  channels,
}: {
  channel: keyof NotificationSwitches;
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
            ? `Texts go to ${channels.smsTo}, outside your quiet hours.`
            : null;
  return note ? (
    <p className="text-amber-800 text-xs" data-testid={`channel-note-${channel}`}>
      {note}
    </p>
  ) : null;
}
