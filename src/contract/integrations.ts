/**
 * Webhook notifications: the client's endpoint for call events, its signing secret,
 * and the delivery log. The events themselves are documented in docs/webhooks.md.
 */
import { z } from 'zod';

/** The version every event carries in `apiVersion`; a breaking change makes a new one. */
export const WEBHOOK_API_VERSION = '2026-11-01';
/** The header that signs each delivery: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Signature';
export const WEBHOOK_EVENT_TYPES = ['call.completed', 'test'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const INTEGRATION_MESSAGES = {
  urlInvalid: 'Enter a full http:// or https:// address',
  urlPrivate: 'This address points inside a private network; use an address reachable from the internet',
  noWebhook: 'No webhook URL is set',
  deliveryNotFound: 'Delivery not found',
} as const;

/** PUT /api/client/integrations/webhook */
export const WebhookUrlBody = z
  .object({
    url: z
      .string()
      .trim()
      .max(2000, 'The address is too long')
      .refine((v) => {
        try {
          const u = new URL(v);
          return (
            (u.protocol === 'https:' || u.protocol === 'http:') &&
            u.hostname !== '' &&
            !u.username &&
            !u.password
          );
        } catch {
          return false;
        }
      }, INTEGRATION_MESSAGES.urlInvalid),
  })
  .strict();

/** GET /api/client/integrations/webhook; the secret itself is shown once, when made. */
export const ClientWebhook = z.object({
  url: z.string().nullable(),
  /** The secret's last four characters, to tell two apart. */
  secretHint: z.string().nullable(),
  /** ISO 8601 */
  createdAt: z.string().nullable(),
});
export type ClientWebhook = z.infer<typeof ClientWebhook>;

/** PUT (first time) and POST …/rotate: the new secret, shown this once. */
export const ClientWebhookSaved = ClientWebhook.extend({ secret: z.string().nullable() });
export type ClientWebhookSaved = z.infer<typeof ClientWebhookSaved>;

/** POST …/test: what the endpoint answered the test event. */
export const WebhookTestResult = z.object({
  delivered: z.boolean(),
  statusCode: z.number().nullable(),
  error: z.string().nullable(),
});
export type WebhookTestResult = z.infer<typeof WebhookTestResult>;

export const WebhookDelivery = z.object({
  id: z.string(),
  event: z.string(),
  callId: z.string().nullable(),
  /** pending (will be retried) | sent | failed (gave up after 24 h) | cancelled */
  status: z.string(),
  statusCode: z.number().nullable(),
  attempts: z.number(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  /** ISO 8601: the next try of a pending delivery. */
  nextAttemptAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveriesQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export const WebhookDeliveries = z.object({
  deliveries: z.array(WebhookDelivery),
  page: z.number(),
  hasMore: z.boolean(),
});
export type WebhookDeliveries = z.infer<typeof WebhookDeliveries>;
export const WEBHOOK_DELIVERIES_PAGE_SIZE = 20;
