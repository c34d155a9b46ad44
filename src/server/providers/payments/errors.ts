/**
 * The one error the payment adapters throw. `message` is safe to show to the paying user
 * (a card error keeps the provider's words, e.g. "Your card was declined."); `detail` is for logs.
 */

export type PaymentProvider = 'stripe' | 'paypal';

/**
 * card: the card or wallet refused the payment (show the message, let the user try another);
 * not_found: the provider has no such object (stale id in our database);
 * invalid: the provider refused our request (a bug or bad configuration);
 * auth: the provider refused our credentials;
 * unavailable: network failure, timeout, rate limit or provider-side error (try again later);
 * signature: a webhook whose signature does not verify.
 */
export type PaymentErrorKind = 'card' | 'not_found' | 'invalid' | 'auth' | 'unavailable' | 'signature';

export interface PaymentErrorDetail {
  /** The provider's error code (card_declined, RESOURCE_NOT_FOUND, …). */
  code?: string | null;
  declineCode?: string | null;
  /** HTTP status the provider answered, when it answered. */
  status?: number | null;
  /** The provider's own message, which may name internals: log it, do not show it. */
  providerMessage?: string | null;
}

export class PaymentError extends Error {
  override readonly name = 'PaymentError';

  constructor(
    readonly provider: PaymentProvider,
    readonly kind: PaymentErrorKind,
    message: string,
    readonly detail: PaymentErrorDetail = {},
  ) {
    super(message);
  }
}

export function isPaymentError(err: unknown): err is PaymentError {
  return err instanceof PaymentError;
}

export const USER_MESSAGES = {
  unavailable: 'The payment provider could not be reached. Please try again in a moment.',
  invalid: 'The payment could not be processed. Please try again or contact support.',
  auth: 'Payments are not available right now. Please contact support.',
  signature: 'Invalid webhook signature.',
} as const;
