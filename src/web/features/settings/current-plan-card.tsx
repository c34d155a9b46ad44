/**
 * The current plan (SPEC §2, §4, §5): usage, status, payment method, next billing date and
 * auto-renewal; Change Plan, Update Payment Method, and Cancel with the browser's confirmation.
 */
import type { ReactNode } from 'react';
import type { Subscription } from '../../../contract/billing';
import { formatCount } from '../../../contract/format';
import { PendingButton } from '../../components/pending-button';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '../../components/ui/card';
import {
  formatBillingDate,
  formatPlanPrice,
  subscriptionStatusLabel,
  subscriptionStatusVariant,
} from '../../lib/billing-format';
import { failureToast } from '../../lib/failure-toast';
import { toast } from '../../lib/use-toast';
import { useCancelSubscription, useResumeSubscription } from './mutations';
import { Notice } from './subscription-notices';
import { UpdateCardDialog } from './update-card-dialog';
import { UsageBar } from './usage-bar';

/** SPEC §5, word for word. */
export const CANCEL_CONFIRMATION =
  "Are you sure you want to cancel your subscription? You'll lose access at the end of your current billing period.";

export function CurrentPlanCard({
  subscription,
  onChangePlan,
}: {
  subscription: Subscription;
  onChangePlan: () => void;
}) {
  const cancel = useCancelSubscription();
  const resume = useResumeSubscription();
  const { plan } = subscription;
  const endDate = formatBillingDate(subscription.currentPeriodEnd);
  // PayPal cancels at PayPal at once: only a card subscription can be resumed.
  const paysWithPaypal = subscription.paymentMethod === 'PayPal';

  function resumeSubscription() {
    resume.mutate(undefined, {
      onSuccess: (result) =>
        toast({
          title: 'Subscription Resumed',
          description: `Your subscription will renew automatically on ${formatBillingDate(result.subscription.currentPeriodEnd)}.`,
        }),
      onError: (error) => failureToast('Resume Failed', error, 'Your subscription could not be resumed.'),
    });
  }

  function confirmCancel() {
    if (!window.confirm(CANCEL_CONFIRMATION)) return;
    cancel.mutate(undefined, {
      onSuccess: () =>
        toast({
          title: 'Subscription Cancelled',
          description: 'Your subscription will be cancelled at the end of the current billing period.',
        }),
      onError: (error) =>
        failureToast('Cancellation Failed', error, 'Your subscription could not be cancelled.'),
    });
  }

  return (
    <Card aria-label="Current plan">
      <CardHeader>
        <CardDescription>Current Plan</CardDescription>
        <CardTitle className="text-2xl">{plan.name}</CardTitle>
        <p className="text-muted-foreground text-sm">
          {formatCount(plan.minutesIncluded)} minutes per month · ${formatPlanPrice(plan.monthlyPrice)}/month
        </p>
      </CardHeader>
      <CardContent className="grid gap-6">
        <UsageBar used={subscription.minutesUsedThisMonth} included={plan.minutesIncluded} />
        <dl className="grid gap-4 text-sm sm:grid-cols-2">
          <Detail label="Status">
            <Badge variant={subscriptionStatusVariant(subscription.status)}>
              {subscriptionStatusLabel(subscription.status)}
            </Badge>
          </Detail>
          <Detail label="Payment method">{subscription.paymentMethod ?? 'Card'}</Detail>
          <Detail label="Next billing date">
            {subscription.cancelAtPeriodEnd ? `None (ends ${endDate})` : endDate}
          </Detail>
          <Detail label="Auto-renewal">
            {subscription.cancelAtPeriodEnd ? (
              <span className="font-medium text-amber-700 dark:text-amber-400">Auto-Renewal Disabled</span>
            ) : (
              'Enabled'
            )}
          </Detail>
        </dl>
        {subscription.cancelAtPeriodEnd && (
          <Notice tone="amber" title="Your subscription will not renew">
            You keep full access to {plan.name} until {endDate}. After that date your plan ends and you will
            not be charged again.
            {paysWithPaypal
              ? ' PayPal subscriptions cannot be resumed: to keep a plan after that date, choose it below and subscribe again.'
              : ' Changed your mind? Resume your subscription to keep it renewing.'}
          </Notice>
        )}
      </CardContent>
      <CardFooter className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        <Button variant="outline" onClick={onChangePlan} className="w-full sm:w-auto">
          Change Plan
        </Button>
        <div className="w-full sm:w-auto [&>button]:w-full">
          <UpdateCardDialog subscription={subscription} />
        </div>
        {subscription.cancelAtPeriodEnd &&
          (paysWithPaypal ? (
            <Button variant="outline" onClick={onChangePlan} className="w-full sm:ml-auto sm:w-auto">
              Browse Plans
            </Button>
          ) : (
            <PendingButton
              onClick={resumeSubscription}
              pending={resume.isPending}
              pendingLabel="Resuming..."
              className="w-full sm:ml-auto sm:w-auto"
            >
              Resume subscription
            </PendingButton>
          ))}
        {!subscription.cancelAtPeriodEnd && (
          <Button
            variant="outline"
            onClick={confirmCancel}
            disabled={cancel.isPending}
            className="w-full border-destructive/40 text-destructive hover:bg-destructive/10 hover:text-destructive sm:ml-auto sm:w-auto"
          >
            {cancel.isPending ? 'Cancelling...' : 'Cancel Subscription'}
          </Button>
        )}
      </CardFooter>
    </Card>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1">
      <dt className="text-muted-foreground text-xs uppercase tracking-wide">{label}</dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}
