/**
 * A call message as it is sent: the e-mail and the text about a call, rendered from the call
 * and its client as they are at send time (a call handled or deleted meanwhile is not sent).
 */
import type { Kysely } from 'kysely';
import { formatCallCreated, formatDuration, formatMoney } from '../../contract/format';
import { findClient } from '../clients/clients-repository';
import type { CallRow, ClientRow, Database } from '../db/schema';
import { renderEmail } from './email-layout';

export interface MessageContext {
  publicUrl: string;
  /** The product's (the agency's) name in messages. */
  brand: string;
}

export function callLink(publicUrl: string, callId: string): string {
  return `${publicUrl.replace(/\/$/, '')}/dashboard?call=${encodeURIComponent(callId)}`;
}

export async function loadCallAndClient(
  db: Kysely<Database>,
  clientId: string | null,
  callId: string,
): Promise<{ call: CallRow; client: ClientRow } | null> {
  if (!clientId) return null;
  const [call, client] = await Promise.all([
    db
      .selectFrom('calls')
      .selectAll()
      .where('id', '=', callId)
      .where('client_id', '=', clientId)
      .executeTakeFirst(),
    findClient(db, clientId),
  ]);
  return call && client ? { call, client } : null;
}

export function callEmail(call: CallRow, client: ClientRow, reasons: string[], ctx: MessageContext) {
  const when = formatCallCreated(new Date(Number(call.created_at)).toISOString(), client.timezone);
  const heading =
    reasons.length > 0 ? 'A call needs your attention' : `New call: ${call.outcome ?? 'finished'}`;
  const content = renderEmail({
    brand: client.company_name ? `${ctx.brand} · ${client.company_name}` : ctx.brand,
    heading,
    lines: [
      ...(reasons.length > 0 ? [`Why: ${reasons.join('; ')}.`] : []),
      ...(call.summary ? [call.summary] : []),
    ],
    facts: [
      ['Outcome', call.outcome ?? '—'],
      ['From', call.from_number],
      ['To', call.to_number],
      ['When', when],
      ['Duration', formatDuration(call.duration_seconds)],
      ['Cost', formatMoney(Number(call.cost_micros) / 1_000_000)],
    ],
    action: { label: 'Open the call', url: callLink(ctx.publicUrl, call.id) },
    footer: 'You get this e-mail because e-mail notifications are on in Settings › Notifications.',
  });
  return { to: client.email, subject: `${heading} (${call.from_number}, ${when})`, ...content };
}

/** One SMS segment where it fits: the reason, the caller, the link. */
export function callText(call: CallRow, reasons: string[], ctx: MessageContext): string {
  return `${ctx.brand}: call from ${call.from_number} needs attention (${reasons[0] ?? 'see the call'}). ${callLink(ctx.publicUrl, call.id)}`;
}
