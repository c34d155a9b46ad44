/**
 * One layout for every e-mail: the HTML and the plain-text part come from the same content, so
 * they never say different things. Every value is escaped; nothing a caller or provider sent can
 * become markup.
 *
 * The agency's brand (name, light logo, colours, footer, support contacts) is applied
 * here and only here, from the brand as it is when the message is sent (email-sender.ts): callers
 * queue the content (`QueuedEmail`), never the rendered HTML, so an e-mail waiting in the outbox
 * while the admin changes the brand goes out with the new one.
 */
import type { LoadedBrand } from '../brand/brand-store';

export interface EmailContent {
  /** Shown after the agency's name at the top, e.g. the client's company for a call e-mail. */
  context?: string;
  heading: string;
  /** Paragraphs. */
  lines: string[];
  /** Labelled facts (a definition list in HTML, "Label: value" lines in text). */
  facts?: [string, string][];
  action?: { label: string; url: string };
  /** Why the reader gets this message. */
  footer: string;
}

/** What an e-mail shows of the brand: derived from the saved brand by `emailBrandOf`. */
export interface EmailBrand {
  name: string;
  /** Absolute (mail clients have no base URL); null: the name is shown instead. */
  logoUrl: string | null;
  /** The button's fill and its text, as the contrast guard chose them. */
  button: string;
  buttonText: string;
  /** Links on the white card (primary as text, AA on white). */
  link: string;
  footerText: string | null;
  supportEmail: string | null;
  supportPhone: string | null;
  supportUrl: string | null;
}

/** What the outbox stores for an e-mail: rendered by the e-mail channel when it is sent. */
export interface QueuedEmail {
  to: string;
  subject: string;
  /** The subject starts with the agency's name ("Northwind Voice: 3 calls yesterday"). */
  subjectNamesBrand?: boolean;
  content: EmailContent;
  attachments?: { filename: string; contentBase64: string; contentType: string }[];
}

export function emailBrandOf(brand: LoadedBrand, publicUrl: string): EmailBrand {
  const { settings, palette, assets } = brand;
  return {
    name: settings.name,
    logoUrl: assets.logoUrl ? `${publicUrl.replace(/\/$/, '')}${assets.logoUrl}` : null,
    button: palette.primary,
    buttonText: palette.primaryForeground,
    link: palette.primaryText,
    footerText: settings.footerText,
    supportEmail: settings.supportEmail,
    supportPhone: settings.supportPhone,
    supportUrl: settings.supportUrl,
  };
}

/** The brand before one is saved, for callers outside the outbox (previews, tests). */
export function plainEmailBrand(name: string): EmailBrand {
  return {
    name,
    logoUrl: null,
    button: '#1d4ed8',
    buttonText: '#ffffff',
    link: '#1d4ed8',
    footerText: null,
    supportEmail: null,
    supportPhone: null,
    supportUrl: null,
  };
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** A colour from the palette goes into a style attribute: only #rrggbb gets there. */
const colour = (value: string, fallback: string) => (/^#[0-9a-fA-F]{6}$/.test(value) ? value : fallback);

export function renderQueuedEmail(
  email: QueuedEmail,
  brand: EmailBrand,
): { to: string; subject: string; text: string; html: string; attachments?: QueuedEmail['attachments'] } {
  return {
    to: email.to,
    subject: email.subjectNamesBrand ? `${brand.name}: ${email.subject}` : email.subject,
    ...renderEmail(email.content, brand),
    ...(email.attachments ? { attachments: email.attachments } : {}),
  };
}

export function renderEmail(content: EmailContent, brand: EmailBrand): { html: string; text: string } {
  const facts = content.facts ?? [];
  const title = content.context ? `${brand.name} · ${content.context}` : brand.name;
  const support: { label: string; href: string }[] = [
    ...(brand.supportEmail ? [{ label: brand.supportEmail, href: `mailto:${brand.supportEmail}` }] : []),
    ...(brand.supportPhone
      ? [{ label: brand.supportPhone, href: `tel:${brand.supportPhone.replace(/[^\d+]/g, '')}` }]
      : []),
    ...(brand.supportUrl ? [{ label: brand.supportUrl, href: brand.supportUrl }] : []),
  ];
  const text = [
    title,
    '',
    content.heading,
    '',
    ...content.lines.flatMap((l) => [l, '']),
    ...facts.map(([k, v]) => `${k}: ${v}`),
    ...(facts.length ? [''] : []),
    ...(content.action ? [`${content.action.label}: ${content.action.url}`, ''] : []),
    '--',
    content.footer,
    ...(brand.footerText ? [brand.footerText] : []),
    ...(support.length ? [`Help: ${support.map((s) => s.label).join(' · ')}`] : []),
  ].join('\n');
  const button = colour(brand.button, '#1d4ed8');
  const buttonText = colour(brand.buttonText, '#ffffff');
  const link = colour(brand.link, '#1d4ed8');
  // The logo at 32 px high, its width following its own aspect ratio (wide logos stay wide).
  const header = brand.logoUrl
    ? `<img src="${escapeHtml(brand.logoUrl)}" alt="${escapeHtml(brand.name)}" height="32" style="height:32px;width:auto;max-width:240px;display:inline-block;vertical-align:middle;border:0">${
        content.context
          ? `<span style="vertical-align:middle;color:#475569;font-weight:600"> · ${escapeHtml(content.context)}</span>`
          : ''
      }`
    : escapeHtml(title);
  const html = `<!doctype html>
<html lang="en"><body style="margin:0;background:#f8fafc;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#0f172a">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" style="max-width:560px;background:#ffffff;border:1px solid #e2e8f0;border-radius:12px" cellpadding="0" cellspacing="0">
<tr><td style="padding:20px 24px;border-bottom:1px solid #e2e8f0;font-weight:700">${header}</td></tr>
<tr><td style="padding:24px">
<h1 style="margin:0 0 12px;font-size:20px">${escapeHtml(content.heading)}</h1>
${content.lines.map((l) => `<p style="margin:0 0 12px;line-height:1.5">${escapeHtml(l)}</p>`).join('\n')}
${
  facts.length
    ? `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:8px 0 16px;font-size:14px">${facts
        .map(
          ([k, v]) =>
            `<tr><td style="padding:3px 16px 3px 0;color:#475569;white-space:nowrap">${escapeHtml(k)}</td><td style="padding:3px 0">${escapeHtml(v)}</td></tr>`,
        )
        .join('')}</table>`
    : ''
}
${
  content.action
    ? `<p style="margin:16px 0 0"><a href="${escapeHtml(content.action.url)}" style="display:inline-block;background:${button};color:${buttonText};text-decoration:none;padding:10px 16px;border-radius:8px;font-weight:600">${escapeHtml(content.action.label)}</a></p>
<p style="margin:12px 0 0;font-size:12px;color:#64748b;word-break:break-all">Or open <a href="${escapeHtml(content.action.url)}" style="color:${link}">${escapeHtml(content.action.url)}</a></p>`
    : ''
}
</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #e2e8f0;font-size:12px;line-height:1.5;color:#64748b">${escapeHtml(content.footer)}${
    brand.footerText ? `<br>${escapeHtml(brand.footerText)}` : ''
  }${
    support.length
      ? `<br>Help: ${support
          .map((s) => `<a href="${escapeHtml(s.href)}" style="color:${link}">${escapeHtml(s.label)}</a>`)
          .join(' · ')}`
      : ''
  }</td></tr>
</table></td></tr></table></body></html>`;
  return { html, text };
}
