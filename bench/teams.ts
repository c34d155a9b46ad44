/**
 * Issue 36 at the big client: what teams add to the reads people make all day. The call log's
 * first page and a number search as the Owner (numbers in full) and as a Viewer (every number
 * masked, every transcript scanned for numbers), and the Owner's Activity log over a year of lines
 * (first page, filtered by action and by person, a deep page), beside a raw SQL read of one page of
 * lines. Hooked into `npm run bench` (bench/run.ts, both databases).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { hashPassword } from '../src/server/auth/passwords';
import type { AppDeps } from '../src/server/context';
import { BIG_CLIENT_ID } from './dataset';

interface Row {
  what: string;
  value: string;
  target: string;
  ok: boolean | null;
}

type TimeRequests = (
  url: string,
  headers: Record<string, string>,
  n?: number,
) => Promise<{ p50: number; p95: number }>;
type TimeSql = (run: () => Promise<unknown>) => Promise<{ p50: number; p95: number }>;

/** A year of lines: about 550 a day, what a 20-person front desk writes with plays and exports. */
const ACTIVITY_LINES = 200_000;
const ACTIVITY_ACTIONS = ['sign_in', 'recording_play', 'export', 'unmask', 'settings_change'] as const;

const ms = (value: number) => `${value.toFixed(1)} ms`;

async function addViewer(deps: AppDeps): Promise<{ id: string; email: string }> {
  const t = deps.now();
  const user = { id: randomUUID(), email: 'bench-viewer@bench.invalid' };
  await deps.db
    .insertInto('client_users')
    .values({
      id: user.id,
      client_id: BIG_CLIENT_ID,
      email: user.email,
      name: 'Bench Viewer',
      password_hash: await hashPassword('bench-password'),
      role: 'viewer',
      permissions: '[]',
      status: 'active',
      is_account_login: 0,
      invite_token_hash: null,
      invite_expires_at: null,
      invited_by: null,
      created_at: t,
      updated_at: t,
      last_sign_in_at: null,
    })
    .execute();
  return user;
}

async function addActivity(deps: AppDeps, userIds: string[]): Promise<void> {
  const now = deps.now();
  const step = (365 * 86_400_000) / ACTIVITY_LINES;
  for (let start = 0; start < ACTIVITY_LINES; start += 2_000) {
    const batch = [];
    for (let i = start; i < Math.min(start + 2_000, ACTIVITY_LINES); i++) {
      batch.push({
        id: randomUUID(),
        client_id: BIG_CLIENT_ID,
        at: Math.round(now - i * step),
        user_id: userIds[i % userIds.length],
        action: ACTIVITY_ACTIONS[i % ACTIVITY_ACTIONS.length],
        detail: JSON.stringify({ callId: randomUUID() }),
      });
    }
    await deps.db.insertInto('client_activity').values(batch).execute();
  }
}

async function signIn(base: string, email: string): Promise<Record<string, string>> {
  const login = await fetch(`${base}/api/client/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'bench-password' }),
  });
  if (login.status !== 200) throw new Error(`sign-in of ${email} answered ${login.status}`);
  return { cookie: String(login.headers.get('set-cookie')).split(';')[0] };
}

export async function teamsRows(
  deps: AppDeps,
  base: string,
  ownerHeaders: Record<string, string>,
  window: string,
  time: { requests: TimeRequests; sql: TimeSql },
): Promise<Row[]> {
  const rows: Row[] = [];
  const viewer = await addViewer(deps);
  const viewerHeaders = await signIn(base, viewer.email);
  const owner = await deps.db
    .selectFrom('client_users')
    .select('id')
    .where('client_id', '=', BIG_CLIENT_ID)
    .where('is_account_login', '=', 1)
    .executeTakeFirstOrThrow();

  const sample = await deps.db
    .selectFrom('calls')
    .select('from_number')
    .where('client_id', '=', BIG_CLIENT_ID)
    .limit(1)
    .executeTakeFirstOrThrow();
  // A number search reads every call of the window today (indexes it): 20 requests, as
  // run.ts does for its other slow reads, instead of 200.
  for (const [what, query, n] of [
    ['call log first page', window, undefined],
    [
      'search by a full number (20 requests)',
      `${window}&search=${encodeURIComponent(sample.from_number)}`,
      20,
    ],
  ] as const) {
    const asOwner = await time.requests(`${base}/api/client/calls?${query}`, ownerHeaders, n);
    const asViewer = await time.requests(`${base}/api/client/calls?${query}`, viewerHeaders, n);
    rows.push({
      what: `baseline: ${what} as the Owner (numbers in full) p95 (p50 ${ms(asOwner.p50)})`,
      value: ms(asOwner.p95),
      target: '-',
      ok: null,
    });
    rows.push({
      what: `${what} as a Viewer (numbers masked) p95 (p50 ${ms(asViewer.p50)})`,
      value: ms(asViewer.p95),
      target: '≤ 1.25 × the Owner’s + 5 ms',
      ok: asViewer.p95 <= asOwner.p95 * 1.25 + 5,
    });
  }

  await addActivity(deps, [owner.id, viewer.id]);
  // As dataset.ts does after its load: in production autovacuum analyses a table once a tenth of
  // it changed, so timing the year of lines the moment they land would measure a blind planner.
  if (deps.dialect === 'postgres') await sql`vacuum analyze client_activity`.execute(deps.db);
  else await sql`analyze client_activity`.execute(deps.db);
  const raw = await time.sql(() =>
    sql`select id, at, user_id, action, detail from client_activity where client_id = ${BIG_CLIENT_ID} order by at desc limit 50`.execute(
      deps.db,
    ),
  );
  rows.push({
    what: `baseline: raw SQL, one page of the activity log (${ACTIVITY_LINES.toLocaleString('en-US')} lines) p95`,
    value: ms(raw.p95),
    target: '-',
    ok: null,
  });
  for (const [what, query] of [
    ['activity log, first page with total', ''],
    ['activity log, one action', 'action=export'],
    ['activity log, one person', `userId=${viewer.id}`],
    ['activity log, page 100', 'page=100'],
  ] as const) {
    const r = await time.requests(`${base}/api/client/activity?${query}`, ownerHeaders);
    rows.push({
      what: `${what} (${ACTIVITY_LINES.toLocaleString('en-US')} lines) p95 (p50 ${ms(r.p50)})`,
      value: ms(r.p95),
      target: '≤ 50 ms',
      ok: r.p95 <= 50,
    });
  }
  return rows;
}
