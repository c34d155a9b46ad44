/**
 * Searches by number of a user without `unmask_numbers` (who sees numbers masked). A full number typed finds its call, so
 * the mask's hidden digits can be guessed one search at a time ("+1 212 ••• 0100": a thousand
 * tries at most; a Viewer's script found one in 556 searches). Each distinct number such a user
 * looks up counts against `CAP_NUMBER_SEARCHES_PER_HOUR` (per user, in the shared rate counters, so
 * across instances) and is a `number_search` line of the client's activity log, naming the number
 * masked; over the cap the search answers 429 with Retry-After and finds nothing. The same number
 * again within the hour (a page, a sort, the log refreshed by a live call) counts once. Holders of
 * `unmask_numbers`, admins and the demo are not limited: the search tells them nothing new.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { maskPhoneNumber } from '../../contract/phone-mask';
import { textSearchOf } from '../../contract/search-query';
import { recordActivity } from '../activity/record';
import type { AppDeps } from '../context';
import type { ClientRow } from '../db/schema';
import { enforceCreationCap } from '../http/creation-caps';
import type { SessionUserRow } from './permissions';
import { hasPermission } from './permissions';

const HOUR_MS = 60 * 60 * 1000;
/** Fewer digits are not a caller's number (the masker's own bound): nothing a guess could confirm. */
const MIN_DIGITS = 7;

/** Throws 429 when this search by number is one too many for this user; records it otherwise. */
export async function limitNumberSearch(
  deps: Pick<AppDeps, 'db' | 'rateCounters' | 'now' | 'config'>,
  reply: FastifyReply,
  client: ClientRow,
  user: SessionUserRow,
  search: string | null | undefined,
): Promise<void> {
  // A holder of unmask_numbers can show any number ("Show number", itself recorded), even while the
  // client hides numbers until shown: a search tells them nothing the mask keeps.
  if (!search || hasPermission(user, 'unmask_numbers')) return;
  const phone = textSearchOf(search).phone;
  const digits = phone?.replace(/\D/g, '') ?? '';
  if (!phone || digits.length < MIN_DIGITS) return;
  // The number is kept hashed: a counter's key is not the place for a caller's number.
  const seen = `number-searched:${user.id}:${createHash('sha256').update(digits).digest('hex').slice(0, 32)}`;
  if ((await deps.rateCounters.peek(seen, HOUR_MS)) > 0) return;
  await enforceCreationCap(deps, reply, {
    key: `number-search:${client.id}:${user.id}`,
    max: deps.config.creationCaps.numberSearchesPerHour,
    windowMs: HOUR_MS,
    what: 'searches by phone number',
  });
  await deps.rateCounters.hit(seen, HOUR_MS);
  await recordActivity(
    deps.db,
    {
      clientId: client.id,
      userId: user.id,
      action: 'number_search',
      detail: { number: maskPhoneNumber(phone) },
    },
    deps.now(),
  );
}
