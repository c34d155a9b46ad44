/**
 * The benchmark's data set, generated inside the database (no row crosses the wire): N clients,
 * M calls, one "big" client holding B calls within the last 90 days; rollups computed from calls
 * with the same bucketing the app uses.
 */
import { sql } from 'kysely';
import { agencyShard, carryClientDaysForward } from '../src/server/agency/client-days';
import { webhookTokenHash } from '../src/server/clients/webhook-token';
import type { Db } from '../src/server/db/connect';

export interface DatasetSize {
  clients: number;
  calls: number;
  bigClientCalls: number;
}

export const BIG_CLIENT_ID = 'bench-big';

/** A data set client's webhook token (only its hash is stored, as the app stores it). */
export const benchWebhookToken = (clientId: string) => `bench-token-${clientId}-xxxxxxxxxxxx`;
const DAY = 86_400_000;

const clientIdOf = (i: number) => (i === 0 ? BIG_CLIENT_ID : `bench-${i}`);

export async function createDataset(database: Db, size: DatasetSize, now: number): Promise<void> {
  const { db, dialect } = database;
  const t = now;
  await sql`delete from call_rollups`.execute(db);
  await sql`delete from call_rollups_daily`.execute(db);
  await sql`delete from call_outcome_rollups`.execute(db);
  await sql`delete from call_outcome_rollups_daily`.execute(db);
  await sql`delete from client_call_days`.execute(db);
  await sql`delete from agency_call_days`.execute(db);
  await sql`delete from calls`.execute(db);
  await sql`delete from clients where id like 'bench-%'`.execute(db);

  const clientRows = Array.from({ length: size.clients }, (_, i) => ({
    id: clientIdOf(i),
    first_name: 'Bench',
    last_name: `Client ${i}`,
    email: `bench-${i}@bench.invalid`,
    company_name: `Bench Co ${i}`,
    account_type: 'individual',
    per_minute_rate_cents: 15,
    // UTC, so the daily rollups below can be computed in SQL; time zones are covered by the API tests.
    timezone: 'UTC',
    is_active: 1,
    api_key_status: 'missing' as const,
    webhook_token_hash: webhookTokenHash(benchWebhookToken(clientIdOf(i))),
    onboarding_status: 'active' as const,
    created_at: t,
    updated_at: t,
  }));
  for (let i = 0; i < clientRows.length; i += 200)
    await db
      .insertInto('clients')
      .values(clientRows.slice(i, i + 200))
      .execute();

  const others = size.calls - size.bigClientCalls;
  const perOther = Math.floor(others / Math.max(1, size.clients - 1));
  const status = (n: string) =>
    sql.raw(
      `case (${n}) % 10 when 0 then 'failed' when 1 then 'transferred' when 2 then 'active' else 'completed' end`,
    );
  const pathway = (n: string) =>
    sql.raw(`case (${n}) % 3 when 0 then 'Sales' when 1 then 'Support' else 'Booking' end`);
  const duration = (n: string) => sql.raw(`((${n}) * 7919) % 600`);
  // The default outcomes (version 0) as classification would give them for these statuses.
  const outcome = (n: string) =>
    sql.raw(
      `case (${n}) % 10 when 0 then 'Failed' when 1 then 'Transferred' when 2 then 'Other' else 'Reached a person' end`,
    );

  // What the provider charged the agency: 9¢ a minute (the clients are billed 15¢).
  const providerPrice = (n: string) => sql.raw(`((((${n}) * 7919) % 600) * 9 * 10000 / 60)`);

  // Transcripts of the big client's calls (issue 15's search): a greeting, one of ten requests,
  // and a closing line that offers a refund in one call of fifty (2%), as JSON the app stores.
  const transcript = (n: string) =>
    sql.raw(`'[{"role":"assistant","text":"Thank you for calling, how can I help you today?"},{"role":"user","text":"' ||
      case (${n}) % 10 when 0 then 'I want to book an appointment for next week'
        when 1 then 'Can you tell me your opening hours on Saturday'
        when 2 then 'I need to change the delivery address on my order'
        when 3 then 'My invoice looks wrong this month'
        when 4 then 'Please cancel my subscription'
        when 5 then 'I am calling about a damaged parcel'
        when 6 then 'Do you offer a discount for students'
        when 7 then 'I would like to speak to a manager'
        when 8 then 'My order has not arrived yet'
        else 'Is there parking near your office' end ||
      '"},{"role":"assistant","text":"' ||
      case when (${n}) % 50 = 7 then 'I can arrange a refund for that right away' else 'Is there anything else I can help with' end ||
      '"}]'`);

  // The big client: B calls spread evenly over the last 90 days.
  const bigSpan = Math.floor((90 * DAY) / size.bigClientCalls);
  if (dialect === 'postgres') {
    // The series is bigint: n * 7919 overflows a 32-bit integer once n passes 271,000.
    await sql`insert into calls (id, client_id, provider_call_id, from_number, to_number, duration_seconds, status, pathway, pathway_id, created_at, recording_url, transcript, cost_micros, per_minute_rate_cents, is_proxy, source, raw_payload, updated_at, outcome, outcome_version, provider_price_micros)
      select 'b' || n, ${BIG_CLIENT_ID}, 'pb' || n, '+1555' || lpad((n % 10000000)::text, 7, '0'), '+14155550100', ${duration('n')}, ${status('n')}, ${pathway('n')}, null,
        ${sql.lit(now)}::bigint - n * ${sql.lit(bigSpan)}, case when n % 2 = 0 then 'https://rec.invalid/' || n || '.mp3' end, ${transcript('n')},
        ((${duration('n')}) * 15 * 10000 / 60)::bigint, 15, 0, 'sync', null, ${sql.lit(now)}::bigint, ${outcome('n')}, 0, ${providerPrice('n')}
      from generate_series(1::bigint, ${sql.lit(size.bigClientCalls)}) as n`.execute(db);
    await sql`insert into calls (id, client_id, provider_call_id, from_number, to_number, duration_seconds, status, pathway, pathway_id, created_at, recording_url, transcript, cost_micros, per_minute_rate_cents, is_proxy, source, raw_payload, updated_at, outcome, outcome_version, provider_price_micros)
      select 'o' || n, 'bench-' || (1 + n % ${sql.lit(size.clients - 1)}), 'po' || n, '+1666' || lpad((n % 10000000)::text, 7, '0'), '+14155550100', ${duration('n')}, ${status('n')}, ${pathway('n')}, null,
        ${sql.lit(now)}::bigint - (n * 7919 % (365::bigint * ${sql.lit(DAY)})), null, null,
        ((${duration('n')}) * 15 * 10000 / 60)::bigint, 15, 0, 'sync', null, ${sql.lit(now)}::bigint, ${outcome('n')}, 0, ${providerPrice('n')}
      from generate_series(1::bigint, ${sql.lit(perOther * (size.clients - 1))}) as n`.execute(db);
  } else {
    const seq = (count: number) =>
      sql.raw(`with recursive seq(n) as (select 1 union all select n + 1 from seq where n < ${count})`);
    await sql`${seq(size.bigClientCalls)}
      insert into calls (id, client_id, provider_call_id, from_number, to_number, duration_seconds, status, pathway, pathway_id, created_at, recording_url, transcript, cost_micros, per_minute_rate_cents, is_proxy, source, raw_payload, updated_at, outcome, outcome_version, provider_price_micros)
      select 'b' || n, ${BIG_CLIENT_ID}, 'pb' || n, '+1555' || printf('%07d', n % 10000000), '+14155550100', ${duration('n')}, ${status('n')}, ${pathway('n')}, null,
        ${sql.lit(now)} - n * ${sql.lit(bigSpan)}, case when n % 2 = 0 then 'https://rec.invalid/' || n || '.mp3' end, ${transcript('n')},
        (${duration('n')}) * 15 * 10000 / 60, 15, 0, 'sync', null, ${sql.lit(now)}, ${outcome('n')}, 0, ${providerPrice('n')}
      from seq`.execute(db);
    await sql`${seq(perOther * (size.clients - 1))}
      insert into calls (id, client_id, provider_call_id, from_number, to_number, duration_seconds, status, pathway, pathway_id, created_at, recording_url, transcript, cost_micros, per_minute_rate_cents, is_proxy, source, raw_payload, updated_at, outcome, outcome_version, provider_price_micros)
      select 'o' || n, 'bench-' || (1 + n % ${sql.lit(size.clients - 1)}), 'po' || n, '+1666' || printf('%07d', n % 10000000), '+14155550100', ${duration('n')}, ${status('n')}, ${pathway('n')}, null,
        ${sql.lit(now)} - (n * 7919 % (365 * ${sql.lit(DAY)})), null, null,
        (${duration('n')}) * 15 * 10000 / 60, 15, 0, 'sync', null, ${sql.lit(now)}, ${outcome('n')}, 0, ${providerPrice('n')}
      from seq`.execute(db);
  }
  // Numbers are inlined as literals: a bound JS number is a REAL in SQLite ('bench-' || 1.0).
  // Integer division buckets exactly as rollups.ts does (created_at is never negative here).
  await sql`insert into call_rollups (client_id, bucket_start, status, pathway, call_count, total_seconds, total_cost_micros)
    select client_id, (created_at / 900000) * 900000, status, pathway, count(*), sum(duration_seconds), sum(cost_micros)
    from calls where is_proxy = 0 group by client_id, (created_at / 900000) * 900000, status, pathway`.execute(
    db,
  );
  const day =
    dialect === 'postgres'
      ? sql`to_char(to_timestamp(created_at / 1000) at time zone 'UTC', 'YYYY-MM-DD')`
      : sql`strftime('%Y-%m-%d', created_at / 1000, 'unixepoch')`;
  await sql`insert into call_rollups_daily (client_id, day, status, pathway, call_count, total_seconds, total_cost_micros)
    select client_id, ${day}, status, pathway, count(*), sum(duration_seconds), sum(cost_micros)
    from calls where is_proxy = 0 group by client_id, ${day}, status, pathway`.execute(db);
  await sql`insert into call_outcome_rollups (client_id, bucket_start, outcome, pathway, call_count, total_seconds, total_cost_micros)
    select client_id, (created_at / 900000) * 900000, outcome, pathway, count(*), sum(duration_seconds), sum(cost_micros)
    from calls where is_proxy = 0 group by client_id, (created_at / 900000) * 900000, outcome, pathway`.execute(
    db,
  );
  await sql`insert into call_outcome_rollups_daily (client_id, day, outcome, pathway, call_count, total_seconds, total_cost_micros)
    select client_id, ${day}, outcome, pathway, count(*), sum(duration_seconds), sum(cost_micros)
    from calls where is_proxy = 0 group by client_id, ${day}, outcome, pathway`.execute(db);
  // Each client's days with their running totals, dense from its first day as the app keeps them
  // (a row for every day, with or without calls), carried forward as housekeeping does, and the
  // agency's days in their shards.
  await sql`insert into client_call_days (day, client_id, call_count, total_seconds, total_cost_micros, total_provider_micros, answered_count, failed_count,
      cum_calls, cum_seconds, cum_cost_micros, cum_provider_micros, cum_answered, cum_failed)
    with days as (select ${day} as day, client_id, count(*) as calls, sum(duration_seconds) as seconds, sum(cost_micros) as cost,
        sum(coalesce(provider_price_micros, 0)) as provider,
        sum(case when status in ('completed', 'transferred') then 1 else 0 end) as answered,
        sum(case when status = 'failed' then 1 else 0 end) as failed
      from calls where is_proxy = 0 group by client_id, ${day}),
    firsts as (select client_id, min(day) as first from days group by client_id),
    calendar as (select distinct day from days),
    dense as (select c.day, f.client_id, coalesce(d.calls, 0) as calls, coalesce(d.seconds, 0) as seconds,
        coalesce(d.cost, 0) as cost, coalesce(d.provider, 0) as provider, coalesce(d.answered, 0) as answered,
        coalesce(d.failed, 0) as failed
      from firsts f join calendar c on c.day >= f.first
      left join days d on d.client_id = f.client_id and d.day = c.day)
    select day, client_id, calls, seconds, cost, provider, answered, failed,
      sum(calls) over w, sum(seconds) over w, sum(cost) over w, sum(provider) over w, sum(answered) over w, sum(failed) over w
    from dense
    window w as (partition by client_id order by day)`.execute(db);
  await carryClientDaysForward(db, now);
  const clientIds = await db.selectFrom('clients').select('id').execute();
  const shardOf = sql.join(
    clientIds.map(({ id }) => sql`when ${id} then ${sql.lit(agencyShard(id))}`),
    sql` `,
  );
  await sql`insert into agency_call_days (day, shard, call_count, total_cost_micros, total_provider_micros)
    select day, shard, sum(call_count), sum(total_cost_micros), sum(total_provider_micros)
    from (select day, case client_id ${shardOf} end as shard, call_count, total_cost_micros, total_provider_micros
      from client_call_days) as d
    group by day, shard`.execute(db);
  // A live database has been vacuumed by autovacuum long since; after a bulk load it would start
  // now, on two cores, in the middle of the measurements. Settle it first (SQLite: statistics only).
  if (dialect === 'postgres') await sql`vacuum analyze`.execute(db);
  else await sql`analyze`.execute(db);
}
