/**
 * One layout for every e-mail: the HTML and the plain-text part come from the same content, so
 * they never say different things. Every value is escaped; nothing a caller or provider sent can
 * become markup.
 */

export interface EmailContent {
  /** The agency's or product's name, at the top. */
  brand: string;
  heading: string;
  /** Paragraphs. */
  lines: string[];
  /** Labelled facts (a definition list in HTML, "Label: value" lines in text). */
  facts?: [string, string][];
  action?: { label: string; url: string };
  footer: string;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

export function renderEmail(content: EmailContent): { html: string; text: string } {
  const facts = content.facts ?? [];
  const text = [
    content.heading,
    '',
    ...content.lines.flatMap((l) => [l, '']),
    ...facts.map(([k, v]) => `${k}: ${v}`),
    ...(facts.length ? [''] : []),
    ...(content.action ? [`${content.action.label}: ${content.action.url}`, ''] : []),
    '--',
    content.footer,
  ].join('\n');
  const html = `<!doctype html>
<html lang="en"><body style="margin:0;background:#f8fafc;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#0f172a">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" style="max-width:560px;background:#ffffff;border:1px solid #e2e8f0;border-radius:12px" cellpadding="0" cellspacing="0">
<tr><td style="padding:20px 24px;border-bottom:1px solid #e2e8f0;font-weight:700">${escapeHtml(content.brand)}</td></tr>
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
    ? `<p style="margin:16px 0 0"><a href="${escapeHtml(content.action.url)}" style="display:inline-block;background:#1d4ed8;color:#ffffff;text-decoration:none;padding:10px 16px;border-radius:8px;font-weight:600">${escapeHtml(content.action.label)}</a></p>`
    : ''
}
</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #e2e8f0;font-size:12px;color:#64748b">${escapeHtml(content.footer)}</td></tr>
</table></td></tr></table></body></html>`;
  return { html, text };
}
