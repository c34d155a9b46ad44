import { BILLING_MESSAGES } from '../../contract/billing';
import type { Config } from '../config';
import { HttpError, serviceUnavailable } from '../http/errors';
import type { PaymentError } from '../providers/payments/errors';
import { createPaypalGateway, type PaypalGateway } from '../providers/payments/paypal';
import { createStripeGateway, type StripeGateway } from '../providers/payments/stripe';

export interface BillingGateways {
  stripe: StripeGateway | null;
  stripePublishableKey: string | null;
  paypal: PaypalGateway | null;
}

export function createBillingGateways(config: Config): BillingGateways {
  const { stripe, paypal } = config;
  return {
    stripe: stripe.secretKey
      ? createStripeGateway({
          secretKey: stripe.secretKey,
          apiUrl: stripe.apiUrl,
          webhookSecret: stripe.webhookSecret,
        })
      : null,
    // A publishable key without a secret key would offer a card form the server cannot charge.
    stripePublishableKey: stripe.secretKey ? stripe.publishableKey : null,
    paypal:
      paypal.clientId && paypal.clientSecret
        ? createPaypalGateway({
            clientId: paypal.clientId,
            clientSecret: paypal.clientSecret,
            apiUrl: paypal.apiUrl,
            webhookId: paypal.webhookId,
            brandName: 'Call Analytics',
          })
        : null,
  };
}

export function requireStripe(gateways: BillingGateways): StripeGateway {
  if (!gateways.stripe) throw serviceUnavailable(BILLING_MESSAGES.cardNotConfigured);
  return gateways.stripe;
}

export function requirePaypal(gateways: BillingGateways): PaypalGateway {
  if (!gateways.paypal) throw serviceUnavailable(BILLING_MESSAGES.paypalNotConfigured);
  return gateways.paypal;
}

/**
 * A provider failure as an answer: a refused card is 402 with the provider's words (SPEC §8 shows
 * them); our credentials refused is 503; anything else is the provider failing, 502.
 */
export function paymentHttpError(error: PaymentError): HttpError {
  if (error.kind === 'card') return new HttpError(402, error.message);
  if (error.kind === 'auth') return serviceUnavailable(error.message);
  if (error.kind === 'signature') return new HttpError(400, error.message);
  return new HttpError(502, error.message);
}
