/**
 * The Brand tab's "Mail from your domain" card: the three records MAIL_FROM's domain
 * needs, with copy buttons, listed without asking DNS; "Check DNS" then shows each record's status.
 * This server sends as notifications@localhost, which is no public domain: the real check says so
 * ("Unknown" with the reason). DNS answers themselves are the API tests' (tests/api/
 * brand-mail-dns.test.ts, against the DNS stand-in); here the browser is handed a checked answer
 * with the three other statuses to show how each reads. axe and screenshots at 1280 and 390 px.
 */
import { expect, type Page, test } from '@playwright/test';
import { AdminDashboardPage } from './pages/admin-dashboard-page';
import { AdminLoginPage } from './pages/admin-login-page';
import { BrandTab } from './pages/brand-tab';
import { MailDnsCard } from './pages/mail-dns-card';
import { expectNoSeriousA11yViolations } from './support/axe';
import { ADMIN } from './support/env';
import { screenshotBothWidths } from './support/screenshots';

test.use({ contextOptions: { reducedMotion: 'reduce' } });

async function openCard(page: Page): Promise<MailDnsCard> {
  const login = new AdminLoginPage(page);
  await login.open();
  await login.login(ADMIN.username, ADMIN.password);
  await new AdminDashboardPage(page).waitForClients();
  await new BrandTab(page).open();
  const card = new MailDnsCard(page);
  await card.card.scrollIntoViewIfNeeded();
  return card;
}

test('lists the records with copy buttons, and "Check DNS" says what it found', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const card = await openCard(page);
  await expect(card.card).toContainText('Domain: localhost');
  await expect(card.nameField('SPF')).toHaveValue('localhost');
  await expect(card.value('SPF')).toHaveValue('v=spf1 include:YOUR-MAIL-PROVIDER ~all');
  await expect(card.nameField('DMARC')).toHaveValue('_dmarc.localhost');
  await expect(card.value('DMARC')).toHaveValue('v=DMARC1; p=none; rua=mailto:dmarc-reports@localhost');
  // No DKIM key on this server: no value to publish, and the note says how to turn it on.
  await expect(card.value('DKIM')).toHaveCount(0);
  await expect(card.record('DKIM')).toContainText('set DKIM_SELECTOR and DKIM_PRIVATE_KEY');
  // Nothing checked yet: no statuses.
  await expect(card.card.getByText('Unknown', { exact: true })).toHaveCount(0);

  await card.copyValue('SPF').click();
  await expect(card.card.getByRole('button', { name: 'Copied!' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    'v=spf1 include:YOUR-MAIL-PROVIDER ~all',
  );

  // The real check: localhost is not a public domain, and the card says so for each record.
  const checked = page.waitForResponse((r) => r.url().includes('/api/admin/brand/dns?check=true'));
  await card.check.click();
  expect((await checked).status()).toBe(200);
  for (const purpose of ['SPF', 'DKIM', 'DMARC'] as const) {
    await expect(card.record(purpose)).toContainText('Unknown');
    await expect(card.record(purpose)).toContainText('localhost is not a public domain');
  }
  await expectNoSeriousA11yViolations(page, 'mail DNS card, checked at localhost');
});

test('shows found, not found and different, with what DNS holds when it differs', async ({ page }) => {
  const card = await openCard(page);
  const listed = await (await page.request.get('/api/admin/brand/dns?check=false')).json();
  // The browser is handed what a check of a real domain answers (shapes as the API tests pin them).
  await page.route('**/api/admin/brand/dns?check=true', (route) =>
    route.fulfill({
      json: {
        ...listed,
        checked: true,
        records: [
          { ...listed.records[0], status: 'present', found: ['v=spf1 include:spf.example.net ~all'] },
          { ...listed.records[1], status: 'missing', found: [] },
          {
            ...listed.records[2],
            status: 'different',
            found: ['v=DMARC1; rua=mailto:dmarc@example.net'],
            note: 'The DMARC record is not valid (one record, with a p= policy): publish the value shown.',
          },
        ],
      },
    }),
  );
  await card.check.click();
  await expect(card.record('SPF')).toContainText('Found');
  await expect(card.record('DKIM')).toContainText('Not found');
  await expect(card.record('DMARC')).toContainText('Different');
  await expect(card.record('DMARC')).toContainText('v=DMARC1; rua=mailto:dmarc@example.net');
  // What DNS holds is shown only where it is not what should be there.
  await expect(card.record('SPF')).not.toContainText('Found in DNS');

  for (const [label, width, height] of [
    ['desktop', 1280, 900],
    ['phone', 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expectNoSeriousA11yViolations(page, `mail DNS card (${label})`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }
  await screenshotBothWidths(page, 'brand-mail-dns');
  await card.card.screenshot({ path: 'test-results/screens/brand-mail-dns-card.png' });
});
