/**
 * Account alerts, always on whatever the switches say: minutes used at 80 % and 100 %
 * of the plan (once per month each), a cancelled subscription about to end (once), and, to the
 * agency (ADMIN_EMAIL), clients whose calls stopped arriving. A client's alerts go to each of its
 * people holding `billing` (recipients.ts). Payment alerts are queued by the
 * payment webhooks (billing/payment-action.ts); digests and reports by scheduled-reports.ts. Checked every few minutes by every instance; the outbox's dedupe keys make
 * the checks idempotent, so two instances checking at once still send one e-mail.
 */
import type { Kysely } from 'kysely';
import { formatCount } from '../../contract/format';
import { clockOf, formatLocalDate } from '../../contract/local-time';
import { minutesUsedThisMonth, startOfLocalMonth } from '../call-rows/usage';
import {
  clientsWithActivePlans,
  subscriptionsEndingWithin,
  type UsageAlertRow,
} from '../clients/clients-joined';
import { listSilentClients } from '../clients/clients-repository';
import type { Config } from '../config';
import type { AppDeps } from '../context';
import type { Database } from '../db/schema';
import { localDate } from '../time/time-zones';
import type { EmailContent, QueuedEmail } from './email-layout';
import { enqueue, type NewMessage } from './outbox';
import { toBillingHolders } from './recipients';
import { scheduledReports } from './scheduled-reports';

const DAY_MS = 24 * 60 * 60 * 1000;
export const USAGE_THRESHOLDS = [80, 100] as const;
/** A client that had calls in the week before is "silent" after a day without any. */
export const SILENT_AFTER_MS = DAY_MS;

type UsageRow = UsageAlertRow;

function usageEmail(client: UsageRow, used: number, threshold: number, config: Config): QueuedEmail {
  const heading =
    threshold >= 100
      ? `You have used all ${formatCount(client.minutes_included)} minutes of your ${client.plan_name} plan`
      : `You have used ${threshold}% of your ${client.plan_name} plan's minutes`;
  const content: EmailContent = {
    heading,
    lines: [
      `${formatCount(used)} of ${formatCount(client.minutes_included)} minutes used this month.`,
      threshold >= 100
        ? 'Calls keep being answered; consider a larger plan so every minute is included.'
        : 'Consider a larger plan before the month runs out.',
    ],
    action: { label: 'See plans', url: `${config.publicUrl.replace(/\/$/, '')}/settings?tab=subscription` },
    footer: 'Account alerts are always sent: they are about your plan and payments.',
  };
  return { to: client.email, subject: heading, content };
}

/** Minutes thresholds crossed this month by clients with an active plan. */
export async function usageAlerts(db: Kysely<Database>, config: Config, now: number): Promise<NewMessage[]> {
  const clients = await clientsWithActivePlans(db);
  const messages: NewMessage[] = [];
  for (const client of clients) {
    const used = await minutesUsedThisMonth(db, client, now);
    const month = localDate(startOfLocalMonth(now, client.timezone), client.timezone).slice(0, 7);
    for (const threshold of USAGE_THRESHOLDS) {
      if (used * 100 < threshold * client.minutes_included) continue;
      messages.push({
        clientId: client.id,
        channel: 'email',
        topic: `usage.${threshold}`,
        dedupeKey: `email:usage:${client.id}:${month}:${threshold}`,
        payload: usageEmail(client, used, threshold, config),
      });
    }
  }
  return messages;
}

/** A cancelled subscription is announced this long before it ends. */
export const ENDING_NOTICE_MS = 3 * DAY_MS;

/** Subscriptions set to end within three days: the client is told once, with a way to keep the plan. */
export async function subscriptionEndingAlerts(
  db: Kysely<Database>,
  config: Config,
  now: number,
): Promise<NewMessage[]> {
  const rows = await subscriptionsEndingWithin(db, now, ENDING_NOTICE_MS);
  return rows.map((row) => {
    const date = formatLocalDate(Number(row.ends), clockOf(row));
    const heading = `Your ${row.plan} subscription ends on ${date}`;
    return {
      clientId: row.clientId,
      channel: 'email' as const,
      topic: 'subscription.ending',
      dedupeKey: `email:subscription-ending:${row.id}:${row.ends}`,
      payload: {
        to: row.email,
        subject: heading,
        content: {
          heading,
          lines: [
            `You cancelled your subscription; it ends on ${date} and will not renew.`,
            'Changed your mind? Resume it before then and nothing changes for your calls or your data.',
          ],
          action: {
            label: 'Keep my plan',
            url: `${config.publicUrl.replace(/\/$/, '')}/settings?tab=subscription`,
          },
          footer: 'Account alerts are always sent: they are about your plan and payments.',
        },
      } satisfies QueuedEmail,
    };
  });
}

/** Clients with calls in the week before yesterday and none since: the agency should look. */
export async function silentClientAlerts(
  db: Kysely<Database>,
  config: Config,
  now: number,
): Promise<NewMessage[]> {
  const admin = config.mail.adminEmail;
  if (!admin) return [];
  const since = now - SILENT_AFTER_MS;
  const rows = await listSilentClients(db, since - 7 * DAY_MS, since);
  const day = new Date(now).toISOString().slice(0, 10);
  return rows.map((client) => {
    const name = client.company_name || client.email;
    const content: EmailContent = {
      heading: `No calls from ${name} for a day`,
      lines: [
        `${name} had calls in the past week but none in the last 24 hours. Their agent, number or webhook may need a look.`,
      ],
      action: {
        label: 'Open the client',
        url: `${config.publicUrl.replace(/\/$/, '')}/admin/client/${encodeURIComponent(client.id)}`,
      },
      footer: 'Sent to the agency (ADMIN_EMAIL) once a day while it lasts.',
    };
    return {
      clientId: client.id,
      channel: 'email' as const,
      topic: 'admin.calls-stopped',
      dedupeKey: `email:calls-stopped:${client.id}:${day}`,
      payload: { to: admin, subject: `No calls from ${name} for a day`, content } satisfies QueuedEmail,
    };
  });
}

export async function checkAccountAlerts(
  deps: Pick<AppDeps, 'db' | 'config' | 'now' | 'brandCache'>,
  now: number,
): Promise<number> {
  const { db, config } = deps;
  const alreadyQueued = async (keys: string[]) =>
    new Set(
      (await db.selectFrom('outbox').select('dedupe_key').where('dedupe_key', 'in', keys).execute()).map(
        (r) => r.dedupe_key,
      ),
    );
  const billing = await toBillingHolders(db, [
    ...(await usageAlerts(db, config, now)),
    ...(await subscriptionEndingAlerts(db, config, now)),
  ]);
  const messages = [
    ...billing,
    ...(await silentClientAlerts(db, config, now)),
    ...(await scheduledReports(deps, now, alreadyQueued)),
  ];
  return enqueue(db, messages, now);
}
