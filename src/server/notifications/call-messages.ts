/**
 * A call message as it is sent: the e-mail and the text about a call, rendered from the call
 * and its client as they are at send time (a call handled or deleted meanwhile is not sent).
 */
import type { Kysely } from 'kysely';
import { callReference } from '../../contract/call-reference';
import { formatDuration, formatMoney } from '../../contract/format';
import { clockOf, formatLocalDateTime } from '../../contract/local-time';
import { findClient } from '../clients/clients-repository';
import type { CallRow, ClientRow, Database } from '../db/schema';
import { type CallReader, numberFor, textFor } from './call-reader';
import type { EmailContent, QueuedEmail } from './email-layout';

export interface MessageContext {
  publicUrl: string;
  /** The agency's name (its saved brand, read when the message is sent) in texts. */
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

/**
 * The e-mail about a call, for one reader: callers' numbers masked when they may not see them.
 * The layout and the agency's brand are applied by the e-mail channel (renderQueuedEmail).
 */
export function callEmail(
  call: CallRow,
  client: ClientRow,
  reasons: string[],
  ctx: Pick<MessageContext, 'publicUrl'>,
  reader: CallReader = { address: client.email, masked: false },
): QueuedEmail {
  // In the client's zone and date format, the zone named: the reader may be anywhere.
  const when = formatLocalDateTime(Number(call.created_at), clockOf(client));
  const from = numberFor(reader, call.from_number);
  const said = textFor(reader, call);
  const heading =
    reasons.length > 0 ? 'A call needs your attention' : `New call: ${call.outcome ?? 'finished'}`;
  const content = {
    ...(client.company_name ? { context: client.company_name } : {}),
    heading,
    lines: [
      ...(reasons.length > 0 ? [said(`Why: ${reasons.join('; ')}.`)] : []),
      ...(call.summary ? [said(call.summary)] : []),
    ],
    facts: [
      ['Outcome', call.outcome ?? '—'],
      ['From', from],
      ['To', numberFor(reader, call.to_number)],
      ['When', when],
      ['Duration', formatDuration(call.duration_seconds)],
      ['Cost', formatMoney(Number(call.cost_micros) / 1_000_000)],
      // The log, the drawer and the webhook events name the call so too; the log's search finds it.
      ['Call ID', callReference(call.id)],
    ],
    action: { label: 'Open the call', url: callLink(ctx.publicUrl, call.id) },
    footer: 'You get this e-mail because e-mail notifications are on in Settings › Notifications.',
  } satisfies EmailContent;
  return { to: reader.address ?? '', subject: `${heading} (${from}, ${when})`, content };
}

/** One SMS segment where it fits: the reason, the caller, the link. */
export function callText(
  call: CallRow,
  reasons: string[],
  ctx: MessageContext,
  reader: Pick<CallReader, 'masked'> = { masked: false },
): string {
  const why = textFor(reader, call)(reasons[0] ?? 'see the call');
  return `${ctx.brand}: call from ${numberFor(reader, call.from_number)} needs attention (${why}). ${callLink(ctx.publicUrl, call.id)}`;
}
