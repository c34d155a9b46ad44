/**
 * The Subscription tab (SPEC §2, §4, §5): what happened after a checkout or PayPal
 * (`?success=true`, `?paypal=`), the current plan or an invitation to pick one, and the plans.
 */
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { useBillingConfig, useSubscription } from '../../lib/billing-queries';
import { useTemporaryFlag } from '../../lib/use-temporary-flag';
import { CurrentPlanCard } from './current-plan-card';
import { LoadFailed } from './load-failed';
import { PlanGrid } from './plan-grid';
import { OutcomeBanner, RenewalActionNotice } from './subscription-notices';

const HIGHLIGHT_MS = 2000;
/** After PayPal, the subscription is re-read this often until it shows up (for at most a minute). */
const CONFIRMING_POLL_MS = 3000;
const CONFIRMING_MAX_MS = 60_000;

export interface SubscriptionTabProps {
  /** `?success=true`: back from a successful checkout. */
  success: boolean;
  /** `?paypal=pending|error`: back from PayPal without a confirmed subscription yet. */
  paypal: string | null;
}

export function SubscriptionTab({ success, paypal }: SubscriptionTabProps) {
  const [confirming, setConfirming] = useState(paypal === 'pending' || success);
  const subscription = useSubscription(confirming ? CONFIRMING_POLL_MS : false);
  const billingConfig = useBillingConfig();
  const active = subscription.data?.status === 'active';
  useEffect(() => {
    if (!confirming) return;
    if (active) setConfirming(false);
    const stop = setTimeout(() => setConfirming(false), CONFIRMING_MAX_MS);
    return () => clearTimeout(stop);
  }, [confirming, active]);

  const plansRef = useRef<HTMLElement>(null);
  const [highlighted, highlight] = useTemporaryFlag(HIGHLIGHT_MS);
  function showPlans() {
    plansRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    highlight();
  }

  return (
    <div className="grid gap-6">
      {subscription.data?.actionRequired && (
        <RenewalActionNotice publishableKey={billingConfig.data?.stripePublishableKey ?? null} />
      )}
      <OutcomeBanner
        success={success}
        paypal={paypal}
        subscription={subscription.data ?? null}
        loading={subscription.isPending}
      />
      {subscription.isPending ? (
        <Skeleton className="h-72 w-full" />
      ) : subscription.isError ? (
        <Card>
          <CardContent>
            <LoadFailed onRetry={() => subscription.refetch()}>
              Your subscription could not be loaded.
            </LoadFailed>
          </CardContent>
        </Card>
      ) : subscription.data ? (
        <CurrentPlanCard subscription={subscription.data} onChangePlan={showPlans} />
      ) : (
        <NoSubscriptionCard onBrowse={showPlans} />
      )}
      <PlanGrid
        ref={plansRef}
        currentPlanId={subscription.data?.planId ?? null}
        subscription={subscription.data ?? null}
        highlighted={highlighted}
      />
    </div>
  );
}

function NoSubscriptionCard({ onBrowse }: { onBrowse: () => void }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>No Active Subscription</CardTitle>
        <CardDescription>
          Choose a plan to keep your AI voice agents running with included minutes every month.
        </CardDescription>
      </CardHeader>
      <CardFooter>
        <Button onClick={onBrowse} className="w-full sm:w-auto">
          Browse Plans
        </Button>
      </CardFooter>
    </Card>
  );
}
