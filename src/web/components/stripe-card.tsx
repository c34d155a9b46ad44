/**
 * Stripe Elements for the two card forms (checkout, Update Payment Method). Only lazily loaded
 * modules import this file, so Stripe's code and script never reach pages that take no card.
 * Stripe.js itself comes from js.stripe.com (the pure entry loads it on first use only).
 */
import { CardElement, Elements } from '@stripe/react-stripe-js';
import type { Stripe, StripeCardElementChangeEvent } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { type ReactNode, useState } from 'react';
import type { BillingConfig } from '../../contract/billing';
import { getJson } from '../lib/api';
import { cn } from '../lib/utils';
import { Label } from './ui/label';

const stripes = new Map<string, Promise<Stripe | null>>();

/** One Stripe instance per publishable key for the page's lifetime, as Stripe recommends. */
export function getStripe(publishableKey: string): Promise<Stripe | null> {
  let stripe = stripes.get(publishableKey);
  if (!stripe) {
    stripe = loadStandInScript()
      .then(() => loadStripe(publishableKey))
      .catch((error: unknown) => {
        // A blocked or offline script must not stay cached as a failure: the next attempt retries.
        stripes.delete(publishableKey);
        throw error;
      });
    stripes.set(publishableKey, stripe);
  }
  return stripe;
}

/**
 * Offline (`npm run dev`) the server names a stand-in Stripe.js; loaded first, it is the
 * window.Stripe that loadStripe picks up. In production stripeJsUrl is null and nothing happens.
 */
async function loadStandInScript(): Promise<void> {
  const { stripeJsUrl } = await getJson<BillingConfig>('/api/billing/config');
  // window's type has no Stripe; the loaded script adds it at run time
  if (!stripeJsUrl || (window as { Stripe?: unknown }).Stripe) return;
  await new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = stripeJsUrl;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error('Could not load Stripe.js'));
    document.head.appendChild(script);
  });
}

export function StripeProvider({
  publishableKey,
  children,
}: {
  publishableKey: string;
  children: ReactNode;
}) {
  return <Elements stripe={getStripe(publishableKey)}>{children}</Elements>;
}

/** The labelled card input (in Stripe's iframe) with Stripe's own validation message beneath it. */
export function CardField({ id, label, disabled }: { id: string; label: string; disabled?: boolean }) {
  const [error, setError] = useState<string | null>(null);
  const [focused, setFocused] = useState(false);
  function onChange(event: StripeCardElementChangeEvent) {
    setError(event.error?.message ?? null);
  }
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <div
        id={id}
        className={cn(
          'rounded-md border border-input bg-card px-3 py-2.5 shadow-xs transition-shadow',
          focused && 'border-ring ring-[3px] ring-ring/50',
          error && 'border-destructive',
          disabled && 'opacity-50',
        )}
      >
        <CardElement
          options={{
            disabled,
            hidePostalCode: true,
            style: { base: { fontSize: '16px', color: '#1e293b', '::placeholder': { color: '#64748b' } } },
          }}
          onChange={onChange}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
        />
      </div>
      {error && (
        <p role="alert" className="text-destructive text-xs">
          {error}
        </p>
      )}
    </div>
  );
}
