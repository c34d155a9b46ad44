/**
 * The buyer's approval page (PayPal's checkoutnow), reduced to what a browser test needs:
 * what is being subscribed to, an Approve button (#approve) and a Cancel link-button (#cancel).
 * Both are plain form posts, so the page works without script.
 */
import type { Approval, PaypalPlan, PaypalSubscription } from './state';

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

export function approvalPage(
  approval: Approval,
  sub: PaypalSubscription,
  plan: PaypalPlan | undefined,
): string {
  const price = plan?.billing_cycles.find((c) => c.tenure_type === 'REGULAR')?.pricing_scheme.fixed_price;
  const merchant = approval.brandName ?? 'the merchant';
  const token = escapeHtml(approval.token);
  const pending = sub.status === 'APPROVAL_PENDING';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>PayPal (stand-in) – Approve subscription</title>
<style>
  body { font-family: system-ui, sans-serif; background: #f5f7fa; margin: 0; }
  main { max-width: 420px; margin: 64px auto; background: #fff; border-radius: 12px; padding: 32px;
         box-shadow: 0 2px 12px rgba(0,0,0,.08); }
  h1 { font-size: 20px; margin: 0 0 4px; color: #003087; }
  .note { color: #6b7280; font-size: 13px; margin-bottom: 24px; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: 8px 16px; margin: 0 0 24px; }
  dt { color: #6b7280; } dd { margin: 0; font-weight: 600; }
  button { width: 100%; padding: 12px; border-radius: 24px; font-size: 16px; cursor: pointer; border: 0; }
  #approve { background: #ffc439; color: #111; margin-bottom: 12px; }
  #cancel { background: transparent; color: #0070ba; text-decoration: underline; }
  form + form .note { text-align: center; margin: 8px 0 0; }
</style>
</head>
<body>
<main>
  <h1>PayPal</h1>
  <p class="note">Local stand-in for PayPal's approval page. No real account or money is involved.</p>
  <dl>
    <dt>Merchant</dt><dd>${escapeHtml(merchant)}</dd>
    <dt>Plan</dt><dd>${escapeHtml(plan?.name ?? sub.plan_id)}</dd>
    <dt>Price</dt><dd>${price ? `${escapeHtml(price.value)} ${escapeHtml(price.currency_code)} / month` : '–'}</dd>
    <dt>Subscription</dt><dd>${escapeHtml(sub.id)}</dd>
  </dl>
  ${
    pending
      ? `<form method="post" action="/checkoutnow/approve">
    <input type="hidden" name="token" value="${token}">
    <button id="approve" type="submit">Approve</button>
  </form>
  <form method="post" action="/checkoutnow/cancel">
    <input type="hidden" name="token" value="${token}">
    <button id="cancel" type="submit">Cancel</button>
    <p class="note">Cancel returns you to ${escapeHtml(merchant)} without subscribing.</p>
  </form>`
      : `<p>This subscription is already ${escapeHtml(sub.status.toLowerCase())}.</p>`
  }
</main>
</body>
</html>`;
}

export function notFoundPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>PayPal (stand-in)</title></head>
<body><main><h1>This link has expired</h1><p>No subscription waits for approval with this token.</p></main></body></html>`;
}
