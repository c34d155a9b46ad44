/**
 * A signed-in person's sessions: where they are signed in, and ending the others.
 * `id` is a random public id of the session, never anything derived from its cookie.
 */
import { z } from 'zod';

export const UserSession = z.object({
  id: z.string(),
  /** The session of this request. */
  current: z.boolean(),
  /** "Chrome on macOS" (describeDevice), "Unknown device" for sessions older than the list. */
  device: z.string(),
  /** The address it was opened from (behind trusted proxies, the client's); null when unknown. */
  ip: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
});
export type UserSession = z.infer<typeof UserSession>;
export const UserSessionList = z.array(UserSession);

export const SessionIdParam = z.object({ id: z.string().trim().min(1).max(100) });

export const EndSessionResponse = z.object({
  success: z.literal(true),
  /** true: the session ended was this one, and this browser is signed out. */
  signedOut: z.boolean(),
});
export type EndSessionResponse = z.infer<typeof EndSessionResponse>;

export const EndOtherSessionsResponse = z.object({ ended: z.number().int() });
export type EndOtherSessionsResponse = z.infer<typeof EndOtherSessionsResponse>;

export const SESSION_MESSAGES = {
  notFound: 'Session not found',
} as const;
