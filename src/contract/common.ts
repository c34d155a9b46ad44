/**
 * Shared request/response fragments: date ranges, pagination, ids, the error envelope.
 * Imported by the server (validation) and the browser (types, forms).
 */
import { z } from 'zod';
import { DATE_RANGES, DEFAULT_DATE_RANGE } from './log-options';

export {
  ADMIN_DATE_RANGES,
  CLIENT_DATE_RANGES,
  DATE_RANGE_DAYS,
  DATE_RANGES,
  type DateRange,
  DEFAULT_DATE_RANGE,
  PAGE_SIZE,
} from './log-options';

/**
 * A query's `dateRange`: one of DATE_RANGES; left out, 7 days (DESIGN §6). Any other value is a
 * 400 naming the parameter, never quietly 7 days, as for every query parameter.
 */
export const DateRangeParam = z.enum(DATE_RANGES).default(DEFAULT_DATE_RANGE);

export const DateRangeQuery = z.object({ dateRange: DateRangeParam });

/**
 * Every date the API takes lies in these years; anything outside is a typo or a probe, not a query.
 * Exported so forms can say the same bound.
 */
export const EARLIEST_QUERY_YEAR = 2000;
export const LATEST_QUERY_YEAR = 2100;
const EARLIEST_QUERY_DATE = Date.UTC(EARLIEST_QUERY_YEAR, 0, 1);
const LATEST_QUERY_DATE = Date.UTC(LATEST_QUERY_YEAR + 1, 0, 1);
export const DATE_BOUNDS_MESSAGE = `Dates must be between the years ${EARLIEST_QUERY_YEAR} and ${LATEST_QUERY_YEAR}`;

/**
 * A date in a query (ISO 8601: a day or a moment), answered as epoch milliseconds. The shared
 * schema for every date a route takes, so each gets the same bound: JavaScript parses far-past
 * and signed six-digit years ("-271821-04-20", "+275760-09-13"), and reads some ("-10000-01-01")
 * as another year entirely; none is a date a call log can mean, and the extremes overflow the
 * time-zone arithmetic behind the stats (a 500 before this bound).
 */
export const QueryDate = z
  .string()
  .trim()
  .max(40)
  .refine((v) => !Number.isNaN(Date.parse(v)), 'Invalid date: use ISO 8601, e.g. 2025-01-31')
  .refine((v) => {
    const t = Date.parse(v);
    return /^\d{4}-/.test(v) && t >= EARLIEST_QUERY_DATE && t < LATEST_QUERY_DATE;
  }, DATE_BOUNDS_MESSAGE)
  .transform((v) => Date.parse(v));

/** A calendar day (YYYY-MM-DD) within the same years, as a custom range names its ends. */
export const LocalDay = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a day as YYYY-MM-DD, e.g. 2025-01-31')
  .refine((v) => {
    const t = Date.parse(`${v}T00:00:00Z`);
    return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === v;
  }, 'Invalid date: no such day')
  .refine((v) => {
    const t = Date.parse(`${v}T00:00:00Z`);
    return t >= EARLIEST_QUERY_DATE && t < LATEST_QUERY_DATE;
  }, DATE_BOUNDS_MESSAGE);

export const Pagination = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
  /**
   * Set where a list counts its items only up to a bound (a year of activity lines): `total` is
   * the bound and there are more; the browser says "of 10,000+". Absent: `total` is exact.
   */
  totalIsLowerBound: z.boolean().optional(),
  /**
   * The call log's keyset cursor: pass it back as `after` for the page after this one.
   * Opaque; set when a next page may exist. Pages past a bounded count are read only this way.
   */
  nextAfter: z.string().optional(),
});
export type Pagination = z.infer<typeof Pagination>;

/**
 * A page of `total` items: at least one page, even when there is nothing. With a bounded count
 * (`lowerBound`), a full page at or past the bound has a next one, so paging on keeps working.
 */
export function paginationOf(
  page: number,
  limit: number,
  total: number,
  bounded?: { lowerBound: boolean; fullPage: boolean },
): Pagination {
  const totalPages = Math.max(1, Math.ceil(total / limit));
  if (!bounded?.lowerBound) return { page, limit, total, totalPages };
  return {
    page,
    limit,
    total,
    totalPages: bounded.fullPage ? Math.max(totalPages, page + 1) : Math.max(totalPages, page),
    totalIsLowerBound: true,
  };
}

/** A stored time (epoch ms, a number or a database's numeric string) as ISO 8601; null stays null. */
export function isoTime(ms: number | string | null | undefined): string | null {
  return ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString();
}

export const IdParam = z.object({ id: z.string().trim().min(1).max(100) });

/** The client an admin's path names (`/api/admin/…/:clientId`); a client's own paths name none. */
export const ClientIdParam = z.object({ clientId: z.string().trim().min(1).max(100) });

/**
 * Provider API keys and webhook signing secrets: printable ASCII without spaces. A NUL, a line
 * break or a non-Latin-1 character cannot travel in the HTTP header a key is sent in, so such a
 * value is refused here instead of failing later at the provider.
 */
export function isPrintableToken(value: string): boolean {
  return /^[\x21-\x7E]+$/.test(value);
}
export const tokenCharactersMessage = (what: string) =>
  `${what} may only contain printable characters, without spaces or line breaks`;

/** The provider's webhook signing secret (X-Webhook-Signature); '' or null removes it. */
export const webhookSigningSecretField = z
  .string()
  .trim()
  .max(200, 'Must be at most 200 characters')
  .refine((v) => v === '' || v.length >= 8, 'The signing secret must be at least 8 characters')
  .refine((v) => v === '' || isPrintableToken(v), tokenCharactersMessage('The signing secret'))
  .nullable();

export interface ErrorBody {
  message: string;
  /** For 400s: the first message per field, keyed by the field's path. */
  fields?: Record<string, string>;
}

export const SuccessBody = z.object({ success: z.literal(true) });
