/**
 * /checkout?plan={id} (SPEC §2 "Checkout"): the plan from the query (missing → /settings; unknown
 * or not loadable → "Failed to load plan details" and /settings), then card or PayPal. Each way of
 * paying says so plainly when the server has no keys for it.
 */
import { ArrowLeft, Clock, CreditCard, ShieldCheck, Wallet } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { BillingConfig, Plan } from '../../../contract/billing';
import { formatCount } from '../../../contract/format';
import { PageLoading } from '../../components/page-loading';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { formatPlanPrice } from '../../lib/billing-format';
import { useBillingConfig, usePlans } from '../../lib/billing-queries';
import { toast } from '../../lib/use-toast';
import { PaypalPayment } from './paypal-payment';

// Stripe's code is its own chunk, fetched only when the card form shows.
const CardPaymentForm = lazy(() => import('./card-payment-form'));

export function CheckoutView() {
  const planId = new URLSearchParams(useSearch()).get('plan');
  const [, navigate] = useLocation();
  const plans = usePlans();
  const plan = plans.data?.find((p) => p.id === planId);
  const failed = !!planId && (plans.isError || (plans.isSuccess && !plan));
  const left = useRef(false);

  useEffect(() => {
    if (left.current) return;
    if (!planId) {
      left.current = true;
      navigate('/settings', { replace: true });
    } else if (failed) {
      left.current = true;
      toast({ title: 'Error', description: 'Failed to load plan details', variant: 'destructive' });
      navigate('/settings', { replace: true });
    }
  }, [planId, failed, navigate]);

  if (!plan) return <PageLoading />;
  return <CheckoutContent plan={plan} onBack={() => navigate('/settings?tab=subscription')} />;
}

function CheckoutContent({ plan, onBack }: { plan: Plan; onBack: () => void }) {
  const config = useBillingConfig();
  const price = formatPlanPrice(plan.monthlyPrice);
  return (
    <main className="mx-auto flex min-h-screen w-full max-w-2xl flex-col gap-6 px-4 py-6 sm:px-6 sm:py-10">
      <div>
        <Button variant="ghost" size="sm" onClick={onBack} className="-ml-2">
          <ArrowLeft aria-hidden="true" />
          Back to Settings
        </Button>
      </div>

      <Card>
        <CardHeader>
          <CardDescription>Checkout</CardDescription>
          <CardTitle className="text-2xl">Subscribe to {plan.name}</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4">
          <div className="flex flex-wrap items-end gap-x-6 gap-y-2">
            <p className="font-bold text-4xl tracking-tight">
              ${price}
              <span className="font-medium text-base text-muted-foreground">/month</span>
            </p>
            <p className="flex items-center gap-1.5 pb-1 text-muted-foreground text-sm">
              <Clock className="size-4" aria-hidden="true" />
              {formatCount(plan.minutesIncluded)} minutes included
            </p>
          </div>
          <p className="flex items-start gap-1.5 text-muted-foreground text-xs">
            <ShieldCheck className="size-4 shrink-0 text-success" aria-hidden="true" />
            Billed monthly. Cancel anytime from your settings; your plan stays active until the period ends.
          </p>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Payment method</CardTitle>
        </CardHeader>
        <CardContent>
          {config.isPending ? (
            <Skeleton className="h-32 w-full" />
          ) : config.isError ? (
            <NotSetUp text="Payment options could not be loaded. Please reload the page." />
          ) : (
            <PaymentTabs plan={plan} price={price} config={config.data} />
          )}
        </CardContent>
      </Card>
    </main>
  );
}

function PaymentTabs({ plan, price, config }: { plan: Plan; price: string; config: BillingConfig }) {
  if (!config.stripePublishableKey && !config.paypalEnabled) {
    return (
      <NotSetUp text="Payments are not set up on this server yet. Please contact your administrator to subscribe." />
    );
  }
  return (
    <Tabs
      defaultValue={config.stripePublishableKey || !config.paypalEnabled ? 'card' : 'paypal'}
      className="gap-4"
    >
      <TabsList className="grid w-full grid-cols-2">
        <TabsTrigger value="card">
          <CreditCard aria-hidden="true" />
          Card
        </TabsTrigger>
        <TabsTrigger value="paypal">
          <Wallet aria-hidden="true" />
          PayPal
        </TabsTrigger>
      </TabsList>
      <TabsContent value="card">
        {config.stripePublishableKey ? (
          <Suspense fallback={<Skeleton className="h-28 w-full" />}>
            <CardPaymentForm publishableKey={config.stripePublishableKey} plan={plan} />
          </Suspense>
        ) : (
          <NotSetUp
            text={`Card payments are not set up on this server. Pay $${price}/month with PayPal instead.`}
          />
        )}
      </TabsContent>
      <TabsContent value="paypal">
        {config.paypalEnabled ? (
          <PaypalPayment plan={plan} />
        ) : (
          <NotSetUp text="PayPal payments are not set up on this server. Please pay by card instead." />
        )}
      </TabsContent>
    </Tabs>
  );
}

function NotSetUp({ text }: { text: string }) {
  return (
    <p
      role="status"
      className="rounded-md border border-dashed bg-muted/50 p-4 text-muted-foreground text-sm"
    >
      {text}
    </p>
  );
}
