/**
 * The plan-change confirmation: choosing another plan while paying by card changes the
 * current subscription in place. The dialog says so, shows what Stripe computes for the change
 * (the prorated charge today, or the credit), the card that pays, the new monthly price and next
 * billing date, and that a pending cancellation stays pending. "Change plan" sends the preview's
 * proration date back, so the charge is the one shown.
 */
import { useQuery } from '@tanstack/react-query';
import { AlertTriangle } from 'lucide-react';
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import type { Plan, PlanChangePreview } from '../../../contract/billing';
import { PendingButton } from '../../components/pending-button';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { Skeleton } from '../../components/ui/skeleton';
import { ApiError, getJson } from '../../lib/api';
import { formatBillingDate, formatMoney, formatPlanPrice } from '../../lib/billing-format';
import { billingKeys, useBillingConfig } from '../../lib/billing-queries';
import { toast } from '../../lib/use-toast';
import { LoadFailed } from './load-failed';
import { useChangePlan } from './mutations';

export function ChangePlanDialog({ plan, onClose }: { plan: Plan | null; onClose: () => void }) {
  const [, navigate] = useLocation();
  const config = useBillingConfig();
  const change = useChangePlan(config.data?.stripePublishableKey ?? null);
  const preview = useQuery({
    queryKey: [...billingKeys.all, 'change-preview', plan?.id ?? ''],
    queryFn: () =>
      getJson<PlanChangePreview>(
        `/api/client/subscription/change-preview?planId=${encodeURIComponent(plan?.id ?? '')}`,
      ),
    enabled: !!plan,
    // A price for now: computed afresh each time the dialog opens, never retried blindly.
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });

  // The server says this subscription cannot change in place (PayPal, none): buy at checkout.
  const needsCheckout = preview.error instanceof ApiError && preview.error.status === 409 && !!plan;
  useEffect(() => {
    if (needsCheckout && plan) navigate(`/checkout?plan=${encodeURIComponent(plan.id)}`);
  }, [needsCheckout, plan, navigate]);

  function confirm() {
    if (!preview.data || change.isPending) return;
    const shown = preview.data;
    change.mutate(
      { planId: shown.planId, prorationDate: shown.prorationDate },
      {
        onSuccess: (result) => {
          if (!result.success) {
            toast({ title: 'Payment confirmed', description: result.message });
            return onClose();
          }
          toast({
            title: 'Plan Changed',
            description:
              result.amountCharged > 0
                ? `${result.message}. ${formatMoney(result.amountCharged, shown.currency)} was charged to ${shown.paymentMethod}.`
                : `${result.message}.`,
          });
          onClose();
        },
        onError: (error) => {
          toast({
            variant: 'destructive',
            title: 'Plan Change Failed',
            description: messageOf(error),
          });
          // The price may be stale now (or the card was declined): show it afresh.
          void preview.refetch();
        },
      },
    );
  }

  return (
    <Dialog open={!!plan} onOpenChange={(open) => !open && !change.isPending && onClose()}>
      <DialogContent aria-describedby="change-plan-description">
        <DialogHeader>
          <DialogTitle>{plan ? `Change to ${plan.name}?` : 'Change plan'}</DialogTitle>
          <DialogDescription id="change-plan-description">
            {preview.data
              ? `${preview.data.newPlan.name} replaces your ${preview.data.currentPlan.name} plan right away, on the same subscription. Your saved card pays; no new card is needed.`
              : 'The new plan replaces your current plan right away, on the same subscription.'}
          </DialogDescription>
        </DialogHeader>
        {preview.isPending ? (
          <div className="grid gap-3" role="status" aria-label="Computing the price">
            <Skeleton className="h-16 w-full" />
            <Skeleton className="h-10 w-full" />
          </div>
        ) : preview.isError ? (
          needsCheckout ? null : (
            <LoadFailed onRetry={() => preview.refetch()}>{messageOf(preview.error)}</LoadFailed>
          )
        ) : (
          <PreviewDetails preview={preview.data} />
        )}
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline" disabled={change.isPending}>
              Cancel
            </Button>
          </DialogClose>
          <PendingButton
            onClick={confirm}
            disabled={!preview.data || preview.isFetching}
            pending={change.isPending}
            pendingLabel="Changing plan..."
          >
            Change plan
          </PendingButton>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function PreviewDetails({ preview }: { preview: PlanChangePreview }) {
  const { newPlan, currentPlan, currency } = preview;
  const charge = preview.amountDueNow;
  const credit = preview.creditAfter;
  return (
    <div className="grid gap-4 text-sm">
      <div className="rounded-lg border bg-muted/40 p-4">
        <p className="text-muted-foreground text-xs uppercase tracking-wide">Due today</p>
        <p className="mt-1 font-bold text-2xl tracking-tight" data-testid="change-plan-amount">
          {formatMoney(charge, currency)}
        </p>
        <p className="mt-1" data-testid="change-plan-charge">
          {charge > 0
            ? `${formatMoney(charge, currency)} will be charged today to ${preview.paymentMethod}.`
            : credit > 0
              ? `Nothing is charged today. ${formatMoney(credit, currency)} of unused time stays as credit for your next invoices.`
              : 'Nothing is charged today.'}
        </p>
        <p className="mt-2 text-muted-foreground text-xs">
          Prorated by Stripe: the unused part of {currentPlan.name} is credited and the rest of this billing
          period on {newPlan.name} is charged.
        </p>
      </div>
      <dl className="grid gap-3 sm:grid-cols-2">
        <div className="grid gap-0.5">
          <dt className="text-muted-foreground text-xs uppercase tracking-wide">New monthly price</dt>
          <dd className="font-medium">${formatPlanPrice(newPlan.monthlyPrice)}/month</dd>
        </div>
        <div className="grid gap-0.5">
          <dt className="text-muted-foreground text-xs uppercase tracking-wide">Next billing date</dt>
          <dd className="font-medium">
            {preview.cancelAtPeriodEnd
              ? `None (ends ${formatBillingDate(preview.currentPeriodEnd)})`
              : formatBillingDate(preview.nextBillingDate)}
          </dd>
        </div>
      </dl>
      {preview.cancelAtPeriodEnd && (
        <div
          role="note"
          className="flex items-start gap-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <p>
            Auto-renewal stays off: your subscription still ends on{' '}
            {formatBillingDate(preview.currentPeriodEnd)}. Use Resume subscription to keep it.
          </p>
        </div>
      )}
    </div>
  );
}

function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? 'Your plan could not be changed.';
  if (error instanceof Error && error.message) return error.message;
  return 'Your plan could not be changed.';
}
