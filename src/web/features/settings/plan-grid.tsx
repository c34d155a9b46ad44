/**
 * Up to six plans (SPEC §2, §9): the current one is marked "Current Plan", the others lead to
 * checkout, or, while the client pays by card, to the plan-change confirmation.
 */
import { Check } from 'lucide-react';
import { forwardRef, useState } from 'react';
import { useLocation } from 'wouter';
import { MAX_PLANS_SHOWN, type Plan, type Subscription } from '../../../contract/billing';
import { formatCount } from '../../../contract/format';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { changesInPlace, formatPlanPrice } from '../../lib/billing-format';
import { usePlans } from '../../lib/billing-queries';
import { cn } from '../../lib/utils';
import { ChangePlanDialog } from './change-plan-dialog';
import { LoadFailed } from './load-failed';

export interface PlanGridProps {
  currentPlanId: string | null;
  /** Briefly set after "Change Plan", to draw the eye to the cards. */
  highlighted: boolean;
  /** The client's subscription: a card one changes in place after a confirmation. */
  subscription?: Subscription | null;
}

export const PlanGrid = forwardRef<HTMLElement, PlanGridProps>(function PlanGrid(
  { currentPlanId, highlighted, subscription = null },
  ref,
) {
  const plans = usePlans();
  const [, navigate] = useLocation();
  const [changingTo, setChangingTo] = useState<Plan | null>(null);
  function select(plan: Plan) {
    if (changesInPlace(subscription)) setChangingTo(plan);
    else navigate(`/checkout?plan=${encodeURIComponent(plan.id)}`);
  }
  return (
    <section
      ref={ref}
      aria-labelledby="available-plans"
      data-highlighted={highlighted || undefined}
      className={cn(
        'grid scroll-mt-6 gap-4 rounded-xl transition-shadow duration-500',
        highlighted && 'ring-2 ring-primary-text ring-offset-4 ring-offset-background',
      )}
    >
      <div>
        <h2 id="available-plans" className="font-semibold text-lg">
          Available Plans
        </h2>
        <p className="text-muted-foreground text-sm">
          Pick the plan that fits your call volume. Prices are per month.
        </p>
      </div>
      {plans.isPending ? (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-48 w-full" />
          ))}
        </div>
      ) : plans.isError ? (
        <LoadFailed onRetry={() => plans.refetch()}>The plans could not be loaded.</LoadFailed>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {plans.data.slice(0, MAX_PLANS_SHOWN).map((plan) => (
            <li key={plan.id}>
              <PlanCard plan={plan} current={plan.id === currentPlanId} onSelect={() => select(plan)} />
            </li>
          ))}
        </ul>
      )}
      <ChangePlanDialog plan={changingTo} onClose={() => setChangingTo(null)} />
    </section>
  );
});

function PlanCard({ plan, current, onSelect }: { plan: Plan; current: boolean; onSelect: () => void }) {
  return (
    <Card
      aria-label={`${plan.name} plan`}
      className={cn('h-full gap-4', current && 'border-primary-text ring-1 ring-primary-text')}
    >
      <CardHeader>
        <CardTitle className="text-base">{plan.name}</CardTitle>
      </CardHeader>
      <CardContent className="grid flex-1 gap-3">
        <p className="font-bold text-3xl tracking-tight">
          ${formatPlanPrice(plan.monthlyPrice)}
          <span className="font-medium text-muted-foreground text-sm">/month</span>
        </p>
        <p className="flex items-center gap-1.5 text-muted-foreground text-sm">
          <Check className="size-4 text-success" aria-hidden="true" />
          {formatCount(plan.minutesIncluded)} minutes per month
        </p>
      </CardContent>
      <CardFooter>
        {current ? (
          <Button variant="secondary" className="w-full" disabled>
            Current Plan
          </Button>
        ) : (
          <Button className="w-full" onClick={onSelect}>
            Select Plan
          </Button>
        )}
      </CardFooter>
    </Card>
  );
}
