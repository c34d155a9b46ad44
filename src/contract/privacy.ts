/**
 * The client's privacy settings (issue 36; issue 38 adds more to the same endpoint and card):
 * GET/PUT /api/client/privacy (Owners: permission `privacy`), and the answer of
 * POST /api/client/calls/{id}/unmask, one call's numbers in full.
 */
import { z } from 'zod';

/** `hideNumbersUntilShown`: callers' numbers are masked for everyone until "Show number" (one call). */
export const PrivacySettings = z.object({ hideNumbersUntilShown: z.boolean() });
export type PrivacySettings = z.infer<typeof PrivacySettings>;

/** PUT /api/client/privacy: the settings to change; the answer is all of them. */
export const PrivacyUpdate = PrivacySettings.partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: 'Send at least one privacy setting' });
export type PrivacyUpdate = z.infer<typeof PrivacyUpdate>;

/** One call's numbers in full, as the call's own fields name them. */
export const UnmaskedNumbers = z.object({ id: z.string(), fromNumber: z.string(), toNumber: z.string() });
export type UnmaskedNumbers = z.infer<typeof UnmaskedNumbers>;

export const PRIVACY_TEXTS = {
  card: 'Privacy',
  hideNumbersLabel: 'Hide callers’ numbers until shown',
  hideNumbersHelp:
    'When on, everyone sees callers’ numbers masked (+1 212 ••• 0100). People allowed to see full numbers click “Show number” on a call, and each time it is recorded in the activity log.',
  showNumber: 'Show number',
} as const;
