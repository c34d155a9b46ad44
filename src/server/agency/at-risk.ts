/**
 * Clients at risk, each with its reasons in words, from what the database already
 * knows: the last 30 days against the 30 before them (client_call_days' running totals), the sync history against
 * the webhook delivery log, the API key's status, the subscription, and this month's minutes
 * against the plan. Thresholds are named below; small clients are left out of the volume rules,
 * where a handful of calls would swing the percentages.
 */
import type { Kysely } from 'kysely';
import { clientNameOfRow } from '../../contract/admin';
import type { AtRiskClient, RiskCode } from '../../contract/agency';
import { listRiskFacts } from '../clients/clients-repository';
import type { Database } from '../db/schema';
import { type VoiceProviders, voiceOf } from '../providers/voice/registry';
import { responseTimesNowAndBefore } from '../quality/agency-quality';
import { localDate, shiftDate } from '../time/time-zones';
import { type PeriodSums, periodPoints, periodSumsReader, runningTotalsAt } from './running-totals';

const DAY_MS = 86_400_000;
/** The volume rules compare the last 30 days with the 30 before them. */
export const RISK_WINDOW_DAYS = 30;
/** Fewer calls than this in the earlier period: too few to call a drop. */
export const MIN_CALLS_FOR_TRENDS = 20;
export const VOLUME_DROP_RATIO = 0.5;
/** Failure rate at least this (percent) and this many points above the earlier period. */
export const FAILURE_RATE_FLOOR = 20;
export const FAILURE_RATE_RISE_POINTS = 15;
/**
 * Failure share at least this (percent) over the last 30 days, with at least
 * MIN_CALLS_FOR_FAILURE_SHARE calls, whatever it was before: a client failing steadily is at
 * risk as much as one whose failures just rose.
 */
export const FAILURE_SHARE_HIGH = 15;
export const MIN_CALLS_FOR_FAILURE_SHARE = 10;
/** Open calls needing attention (not marked handled), whatever their date: a backlog nobody works. */
export const ATTENTION_BACKLOG_MIN = 5;
/** No webhook delivery for this many days while the sync keeps finding calls: a broken webhook. */
export const WEBHOOK_SILENT_DAYS = 3;
/** The calls' p90 response time this much higher (ratio) than in the previous period. */
export const RESPONSE_TIME_RISE_RATIO = 1.5;
/** A cancelled subscription ending within this many days. */
export const ENDING_WITHIN_DAYS = 14;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const rate = (part: number, whole: number) => (whole === 0 ? 0 : (part / whole) * 100);
const whole = (n: number) => Math.round(n).toLocaleString('en-US');

function trendReasons(current: PeriodSums, previous: PeriodSums): { code: RiskCode; text: string }[] {
  const reasons: { code: RiskCode; text: string }[] = [];
  if (previous.calls >= MIN_CALLS_FOR_TRENDS && current.calls < previous.calls * VOLUME_DROP_RATIO) {
    const drop = Math.round((1 - current.calls / previous.calls) * 100);
    reasons.push({
      code: 'volume_drop',
      text: `Calls down ${drop}% against the previous ${RISK_WINDOW_DAYS} days (${whole(previous.calls)} → ${whole(current.calls)})`,
    });
  }
  const now = rate(current.failed, current.calls);
  const before = rate(previous.failed, previous.calls);
  if (
    current.calls >= MIN_CALLS_FOR_TRENDS &&
    now >= FAILURE_RATE_FLOOR &&
    now >= before + FAILURE_RATE_RISE_POINTS
  ) {
    reasons.push({
      code: 'failure_spike',
      text: `${Math.round(now)}% of calls failed in the last ${RISK_WINDOW_DAYS} days, up from ${Math.round(before)}%`,
    });
  }
  if (
    !reasons.some((r) => r.code === 'failure_spike') &&
    current.calls >= MIN_CALLS_FOR_FAILURE_SHARE &&
    now >= FAILURE_SHARE_HIGH
  ) {
    reasons.push({
      code: 'failure_share',
      text: `${Math.round(now)}% of calls failed in the last ${RISK_WINDOW_DAYS} days (${whole(current.failed)} of ${whole(current.calls)})`,
    });
  }
  return reasons;
}

/** Open calls needing attention per client (verified, not test calls), as the attention list counts them. */
async function attentionBacklogs(db: Kysely<Database>): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('calls')
    .select('client_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('attention_reasons', 'is not', null)
    .where('handled_at', 'is', null)
    .where('is_proxy', '=', 0)
    .where('verified', '=', 1)
    .groupBy('client_id')
    .execute();
  return new Map(rows.map((r) => [r.client_id, Number(r.n)]));
}

export async function clientsAtRisk(
  db: Kysely<Database>,
  now: number,
  voices: VoiceProviders,
): Promise<AtRiskClient[]> {
  const today = new Date(now).toISOString().slice(0, 10);
  const range = { from: shiftDate(today, 1 - RISK_WINDOW_DAYS), to: today };
  const silentSince = now - WEBHOOK_SILENT_DAYS * DAY_MS;

  // Local months start on one or two dates across zones (near a month's turn some zones are
  // still in the previous one): the first of the month of yesterday, today or tomorrow (UTC's).
  const monthStartOfDay = (day: string) => `${day.slice(0, 8)}01`;
  const latest = shiftDate(today, 1);
  const monthPoints = [
    ...new Set([shiftDate(today, -1), today, latest].map((day) => shiftDate(monthStartOfDay(day), -1))),
  ];
  const facts = listRiskFacts(db);
  const ids = facts.then((list) => list.map((c) => c.id));
  // Two reads of what the rules use: calls and failures at the ends of both 30-day periods; the
  // minutes at tomorrow (the last local day any zone has reached) and before each month start.
  const previousRange = { from: shiftDate(range.from, -RISK_WINDOW_DAYS), to: shiftDate(range.from, -1) };
  const [clients, totals, minutes, syncFinds, responseTimes, backlogs] = await Promise.all([
    facts,
    runningTotalsAt(db, ids, periodPoints(range), ['calls', 'failed']),
    runningTotalsAt(db, ids, [latest, ...monthPoints], ['seconds']),
    // Calls the sync found lately that no webhook brought (the sync creates only what is new).
    db
      .selectFrom('sync_runs')
      .select('client_id')
      .select((eb) => eb.fn.sum<number>('created').as('found'))
      .where('started_at', '>=', silentSince)
      .where('created', '>', 0)
      .groupBy('client_id')
      .execute(),
    responseTimesNowAndBefore(db, range, previousRange, MIN_CALLS_FOR_TRENDS),
    attentionBacklogs(db),
  ]);

  const silent = new Map<string, { found: number; lastDelivery: number | null }>();
  for (const { client_id, found } of syncFinds) {
    const last = await db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.max('received_at').as('at'))
      .where('client_id', '=', client_id)
      .where('kind', '=', 'call')
      .executeTakeFirst();
    const at = last?.at === null || last?.at === undefined ? null : Number(last.at);
    if (at === null || at < silentSince) silent.set(client_id, { found: Number(found), lastDelivery: at });
  }

  // This month's minutes per client, its month start worked out once per zone.
  const dayBeforeMonthIn = new Map<string, string>();
  const dayBeforeMonthOf = (timeZone: string) => {
    let day = dayBeforeMonthIn.get(timeZone);
    if (day === undefined) {
      day = shiftDate(monthStartOfDay(localDate(now, timeZone)), -1);
      dayBeforeMonthIn.set(timeZone, day);
    }
    return day;
  };
  const secondsThisMonth = (c: { id: string; timezone: string }) => {
    const before = dayBeforeMonthOf(c.timezone);
    return (minutes.get(latest)?.get(c.id)?.seconds ?? 0) - (minutes.get(before)?.get(c.id)?.seconds ?? 0);
  };

  const out: AtRiskClient[] = [];
  const sumsOfClient = periodSumsReader(totals, range);
  for (const c of clients) {
    const reasons: AtRiskClient['reasons'] = [];
    const providerName = voiceOf(voices, c).name;
    const s = sumsOfClient(c.id);
    reasons.push(...trendReasons(s.current, s.previous));
    const response = responseTimes.get(c.id);
    if (response && response.now >= response.before * RESPONSE_TIME_RISE_RATIO)
      reasons.push({
        code: 'response_time_up',
        text: `The agent's p90 response time rose ${Math.round((response.now / response.before - 1) * 100)}% against the previous ${RISK_WINDOW_DAYS} days (${seconds(response.before)} → ${seconds(response.now)})`,
      });
    const backlog = backlogs.get(c.id) ?? 0;
    if (backlog >= ATTENTION_BACKLOG_MIN)
      reasons.push({
        code: 'attention_backlog',
        text: `${whole(backlog)} calls need attention and are not marked handled`,
      });
    const quiet = silent.get(c.id);
    if (quiet) {
      const since =
        quiet.lastDelivery === null
          ? 'No webhook delivery has ever arrived'
          : `No webhook delivery for ${Math.floor((now - quiet.lastDelivery) / DAY_MS)} days`;
      reasons.push({
        code: 'webhook_silent',
        text: `${since} while sync found ${whole(quiet.found)} new calls: check the webhook URL at ${providerName}`,
      });
    }
    if (c.api_key_status === 'invalid')
      reasons.push({
        code: 'api_key_invalid',
        text: `${providerName} refuses the API key: calls can be neither synced nor confirmed`,
      });
    const status = c.subscription_status;
    if (status === 'past_due' || status === 'unpaid' || c.action_invoice_id)
      reasons.push({
        code: 'payment_failed',
        text: c.action_invoice_id
          ? 'A renewal is waiting for the client to confirm the payment'
          : `The last payment failed (subscription ${status === 'unpaid' ? 'unpaid' : 'past due'})`,
      });
    if (
      status === 'active' &&
      c.cancel_at_period_end === 1 &&
      c.current_period_end !== null &&
      c.current_period_end > now &&
      c.current_period_end <= now + ENDING_WITHIN_DAYS * DAY_MS
    )
      reasons.push({
        code: 'subscription_ending',
        text: `The subscription was cancelled and ends on ${new Date(Number(c.current_period_end)).toISOString().slice(0, 10)}`,
      });
    if (status === 'active' && c.minutes_included !== null) {
      const used = Math.round(secondsThisMonth(c) / 60);
      if (used > c.minutes_included)
        reasons.push({
          code: 'over_plan',
          text: `${whole(used)} minutes used this month on the ${c.plan_name} plan's ${whole(c.minutes_included)}`,
        });
    }
    if (reasons.length > 0)
      out.push({
        clientId: c.id,
        name: clientNameOfRow(c),
        reasons,
      });
  }
  return out.sort((a, b) => b.reasons.length - a.reasons.length || a.name.localeCompare(b.name));
}
