/**
 * Stripe's error envelope: `{error: {type, code, message, param, decline_code, doc_url}}` with
 * 400 (invalid request), 401 (key), 402 (card), 404 (no such object).
 */

export interface StripeErrorBody {
  type: 'invalid_request_error' | 'card_error' | 'api_error' | 'idempotency_error';
  message: string;
  code?: string;
  param?: string;
  decline_code?: string;
  doc_url?: string;
  payment_intent?: unknown;
  payment_method?: unknown;
  setup_intent?: unknown;
}

export class StripeSimError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.message);
  }

  static invalid(message: string, param?: string, code?: string): StripeSimError {
    return new StripeSimError(400, {
      type: 'invalid_request_error',
      message,
      ...(param ? { param } : {}),
      ...(code ? { code } : {}),
    });
  }

  static missing(param: string): StripeSimError {
    return new StripeSimError(400, {
      type: 'invalid_request_error',
      code: 'parameter_missing',
      param,
      message: `Missing required param: ${param}.`,
      doc_url: 'https://stripe.com/docs/error-codes/parameter-missing',
    });
  }

  static noSuch(kind: string, id: string, param?: string): StripeSimError {
    return new StripeSimError(param ? 400 : 404, {
      type: 'invalid_request_error',
      code: 'resource_missing',
      message: `No such ${kind}: '${id}'`,
      ...(param ? { param } : {}),
      doc_url: 'https://stripe.com/docs/error-codes/resource-missing',
    });
  }

  static cardDeclined(extra: Partial<StripeErrorBody> = {}): StripeSimError {
    return new StripeSimError(402, { ...DECLINE, ...extra });
  }
}

/** What Stripe answers for its generic-decline test card. */
export const DECLINE: StripeErrorBody = {
  type: 'card_error',
  code: 'card_declined',
  decline_code: 'generic_decline',
  message: 'Your card was declined.',
  doc_url: 'https://stripe.com/docs/error-codes/card-declined',
};

export const AUTHENTICATION_FAILURE: StripeErrorBody = {
  type: 'invalid_request_error',
  code: 'payment_intent_authentication_failure',
  message:
    'The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.',
  doc_url: 'https://stripe.com/docs/error-codes/payment-intent-authentication-failure',
};
