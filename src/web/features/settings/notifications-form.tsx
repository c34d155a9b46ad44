/**
 * The Notifications tab's one panel: "My notifications" for every signed-in user,
 * then, for users holding `notifications`, the account-wide switches. One Save sends what changed
 * to each part's own endpoint; the tab is open to everyone, what each part needs is decided here.
 */
import { useEffect, useState } from 'react';
import type { NotificationPrefs } from '../../../contract/account';
import { MY_NOTIFICATION_MESSAGES } from '../../../contract/notification-choices';
import { SaveFooter } from '../../components/save-footer';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { serverFieldErrors } from '../../lib/api';
import { failureToast } from '../../lib/failure-toast';
import { useCan } from '../../lib/permissions';
import { toast } from '../../lib/use-toast';
import { AccountNotificationsSection } from './account-notifications-section';
import { useSaveMyNotifications, useSaveNotifications } from './mutations';
import {
  isMyDraftChanged,
  type MyNotificationsDraft,
  MyNotificationsSection,
  myBodyOf,
  myDraftOf,
} from './my-notifications-section';
import { useMyNotifications, useNotificationChannels, useNotificationPrefs } from './queries';

/** SPEC's confirmation for the account's switches; the person's own choices have their own words. */
const ACCOUNT_SAVED = 'Your notification preferences have been saved.';

export function NotificationsForm() {
  const canManage = useCan('notifications');
  const mine = useMyNotifications();
  const saveMine = useSaveMyNotifications();
  const [myDraft, setMyDraft] = useState<MyNotificationsDraft | null>(null);
  const [numberError, setNumberError] = useState<string | null>(null);
  useEffect(() => {
    if (mine.data) setMyDraft(myDraftOf(mine.data));
  }, [mine.data]);

  // The account's switches are only asked for by those who may change them.
  const prefs = useNotificationPrefs(canManage);
  const channels = useNotificationChannels(canManage).data;
  const saveAccount = useSaveNotifications();
  const [accountDraft, setAccountDraft] = useState<NotificationPrefs | null>(null);
  useEffect(() => {
    if (prefs.data) setAccountDraft(prefs.data);
  }, [prefs.data]);

  const ready = myDraft !== null && (!canManage || accountDraft !== null);
  const pending = saveMine.isPending || saveAccount.isPending;

  async function submit() {
    if (!ready) return;
    setNumberError(null);
    const myChanged = mine.data !== undefined && isMyDraftChanged(myDraft, mine.data);
    const accountChanged =
      canManage && accountDraft !== null && JSON.stringify(accountDraft) !== JSON.stringify(prefs.data);
    const [myResult, accountResult] = await Promise.allSettled([
      myChanged && mine.data ? saveMine.mutateAsync(myBodyOf(myDraft, mine.data)) : null,
      accountChanged && accountDraft ? saveAccount.mutateAsync(accountDraft) : null,
    ]);
    if (myResult.status === 'rejected') {
      // A refused number is said under the field; anything else in a toast.
      const field = serverFieldErrors(myResult.reason).smsNumber;
      if (field) setNumberError(field);
      else failureToast('Update Failed', myResult.reason, 'Your choices could not be saved.');
    } else if (accountResult.status === 'rejected') {
      failureToast('Update Failed', accountResult.reason, 'Your preferences could not be saved.');
    }
    if (myResult.status === 'rejected' || accountResult.status === 'rejected') return;
    toast({
      title: 'Notifications Updated',
      description: myChanged && !accountChanged ? MY_NOTIFICATION_MESSAGES.saved : ACCOUNT_SAVED,
    });
  }

  return (
    <Card data-testid="notifications-panel">
      <CardHeader>
        <CardTitle>Notifications</CardTitle>
        <CardDescription>
          {canManage
            ? 'What you receive yourself, and the switches for the whole account.'
            : 'How we keep you informed about your calls.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <MyNotificationsSection
          mine={mine.data}
          loadFailed={mine.isError}
          onRetry={() => mine.refetch()}
          draft={myDraft}
          numberError={numberError}
          onChange={setMyDraft}
        />
        {canManage && (
          <AccountNotificationsSection
            draft={accountDraft}
            channels={channels}
            loadFailed={prefs.isError}
            onRetry={() => prefs.refetch()}
            onChange={setAccountDraft}
          />
        )}
        <SaveFooter label="Save Preferences" onClick={submit} disabled={!ready} pending={pending} />
      </CardContent>
    </Card>
  );
}
