/**
 * The e-mails sent on a schedule, at 08:00 in each client's time zone: the daily or
 * weekly digest (Mondays, the week before) and, on the 1st, last month's report with its PDF.
 * Checked every few minutes by every instance (ACCOUNT_ALERTS_INTERVAL_MS); a message is queued at
 * the first check after 08:00 local, and the dedupe key (client, kind, local date) makes every
 * later check, on any instance, a no-op. Local dates come from the zone's rules, so a DST change
 * moves 08:00 with the clock.
 */
import type { DigestFrequency } from '../../contract/account';
import { formatCount, formatMoney } from '../../contract/format';
import { formatCalendarDate } from '../../contract/local-time';
import { listRecipientUsers } from '../access/notification-choices';
import { listReportRecipients } from '../clients/clients-repository';
import type { Config } from '../config';
import type { AppDeps } from '../context';
import { monthLabel, renderMonthlyPdf } from '../reports/monthly-pdf';
import { loadPdfBrand } from '../reports/pdf-brand';
import type { PdfBrand } from '../reports/pdf-header';
import { type PeriodReport, periodReport } from '../reports/period-report';
import { digestDue, reportMonthDue } from '../time/date-windows';
import { localDate, localHourOf } from '../time/time-zones';
import type { EmailContent, QueuedEmail } from './email-layout';
import type { NewMessage } from './outbox';
import {
  copyForRecipients,
  holds,
  pickRecipients,
  recipientKey,
  recipientsOf,
  wantsEmail,
} from './recipients';

export const SEND_HOUR = 8;

// The periods are defined with every other window (time/date-windows.ts); named here as before.
export { digestDue, reportMonthDue } from '../time/date-windows';

function digestEmail(
  report: PeriodReport,
  kind: 'daily' | 'weekly',
  to: string,
  config: Config,
): QueuedEmail {
  const s = report.stats;
  const day = (date: string) => formatCalendarDate(date, report.locale);
  const period =
    kind === 'daily'
      ? `yesterday (${day(report.from)})`
      : `last week (${day(report.from)} to ${day(report.to)})`;
  const achieved = report.outcomes.filter((o) => o.count > 0);
  const heading = `${formatCount(s.totalCalls)} calls ${kind === 'daily' ? 'yesterday' : 'last week'}`;
  const content: EmailContent = {
    heading,
    lines: [
      `Your calls ${period}, times in ${report.zoneName}.`,
      achieved.length
        ? `Outcomes: ${achieved.map((o) => `${o.name} ${formatCount(o.count)}${o.value ? ` (${formatMoney(o.value)})` : ''}`).join(', ')}.`
        : 'No outcomes to report.',
      report.needsAttention > 0
        ? `${formatCount(report.needsAttention)} of them still need a person.`
        : 'None of them needs a person.',
    ],
    facts: [
      ['Calls', formatCount(s.totalCalls)],
      ['Minutes', formatCount(report.minutes)],
      ['Transfers', formatCount(s.totalTransfers)],
      ['Cost', formatMoney(s.totalCost)],
      ['Needs attention', formatCount(report.needsAttention)],
    ],
    action: { label: 'Open the dashboard', url: `${config.publicUrl.replace(/\/$/, '')}/dashboard` },
    footer: 'Your digest is set in Settings › Notifications (daily, weekly or off).',
  };
  return { to, subject: heading, subjectNamesBrand: true, content };
}

/**
 * The e-mail is rendered when it is sent (email-sender.ts); the PDF now, when the report is due:
 * it is the month's document, and re-drawing it at send time would mean keeping its numbers in
 * the outbox. A brand changed in the minutes between the two shows in the e-mail, not the PDF.
 */
async function monthlyEmail(
  report: PeriodReport,
  month: string,
  to: string,
  config: Config,
  pdfBrand: PdfBrand,
): Promise<QueuedEmail> {
  const pdf = await renderMonthlyPdf(report, month, pdfBrand);
  const heading = `Your report for ${monthLabel(month)}`;
  const content: EmailContent = {
    heading,
    lines: [
      `${formatCount(report.stats.totalCalls)} calls, ${formatCount(report.minutes)} minutes, ${formatMoney(report.stats.totalCost)} in call cost. The full report is attached.`,
    ],
    action: {
      label: 'Open the dashboard',
      url: `${config.publicUrl.replace(/\/$/, '')}/dashboard`,
    },
    footer: 'Monthly reports are switched on in Settings › Notifications.',
  };
  return {
    to,
    subject: `monthly report, ${month}`,
    subjectNamesBrand: true,
    content,
    attachments: [
      {
        filename: `report-${month}.pdf`,
        contentType: 'application/pdf',
        contentBase64: pdf.toString('base64'),
      },
    ],
  };
}

/** What is due at `now`: queued once per client, kind and local date. */
export async function scheduledReports(
  deps: Pick<AppDeps, 'db' | 'config' | 'now' | 'brandCache'>,
  now: number,
  /** Keys already queued, so a report is not computed again at every check of the hour. */
  alreadyQueued: (keys: string[]) => Promise<Set<string>>,
): Promise<NewMessage[]> {
  const { db, config } = deps;
  const due: { keys: string[]; build: () => Promise<NewMessage[]> }[] = [];
  const clients = await listReportRecipients(db);
  const users = await listRecipientUsers(
    db,
    clients.map((c) => c.id),
  );
  for (const client of clients) {
    if (localHourOf(now, client.timezone) < SEND_HOUR) continue;
    const today = localDate(now, client.timezone);
    // To each of the client's people holding `reports` (recipients.ts).
    const people = recipientsOf(users, { ...client, phone_number: null }).filter((r) => holds(r, 'reports'));
    const emailOn = (client.email_on ?? 1) === 1;
    const digestTo = pickRecipients(people, 'email', (r) => wantsEmail(r, emailOn));
    const dueDigest =
      // The column is text, written only from the contract's DigestFrequency values.
      digestTo.length > 0 ? digestDue((client.digest ?? 'weekly') as DigestFrequency, today) : null;
    // A digest reports on days the client was there for: none before its first sign-in (or the
    // wizard's "notify now"), so a new client's synced history sends no digest of its past.
    const notifyFrom =
      client.notify_from == null ? null : localDate(Number(client.notify_from), client.timezone);
    const digest = dueDigest && notifyFrom != null && dueDigest.from >= notifyFrom ? dueDigest : null;
    if (digest) {
      const key = `email:digest:${digest.kind}:${client.id}:${today}`;
      due.push({
        keys: digestTo.map((r) => recipientKey(key, r)),
        build: async () =>
          copyForRecipients(
            {
              clientId: client.id,
              channel: 'email',
              topic: `digest.${digest.kind}`,
              dedupeKey: key,
              payload: digestEmail(
                await periodReport(db, client, digest.from, digest.to),
                digest.kind,
                client.email,
                config,
              ),
            },
            digestTo,
          ),
      });
    }
    // The monthly report has its own account-wide switch; a person who turned e-mail off gets none.
    const reportTo = pickRecipients(people, 'email', (r) => r.notifyEmail !== 0);
    const month = (client.reports_on ?? 1) === 1 && reportTo.length > 0 ? reportMonthDue(today) : null;
    if (month) {
      const key = `email:report.monthly:${client.id}:${month.month}`;
      due.push({
        keys: reportTo.map((r) => recipientKey(key, r)),
        build: async () =>
          copyForRecipients(
            {
              clientId: client.id,
              channel: 'email',
              topic: 'report.monthly',
              dedupeKey: key,
              payload: await monthlyEmail(
                await periodReport(db, client, month.from, month.to),
                month.month,
                client.email,
                config,
                await loadPdfBrand(deps),
              ),
            },
            reportTo,
          ),
      });
    }
  }
  if (due.length === 0) return [];
  const queued = await alreadyQueued(due.flatMap((d) => d.keys));
  const messages: NewMessage[] = [];
  for (const d of due) {
    if (d.keys.every((k) => queued.has(k))) continue;
    messages.push(...(await d.build()).filter((m) => !queued.has(m.dedupeKey)));
  }
  return messages;
}
