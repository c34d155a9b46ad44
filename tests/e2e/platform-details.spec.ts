/**
 * The agency's voice platform is its supplier. With the agency's brand saved, a crawl of all a
 * client and its callers receive: every client page (dashboard, call drawer, Quality tab, every
 * Settings tab), what the sync and a refused key answer, every e-mail the client's people got
 * (an invitation among them), the monthly report PDF and the caller's erasure receipt. None of
 * it names the platform or its terms unless the agency turns "show platform details" on for that
 * client, and then the pages show SPEC's texts and the report its terms. The key stays the
 * agency's by default: the Update API Key button says so. Screenshots at both widths, off and on.
 */
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { CallDrawer } from './pages/call-drawer';
import { DashboardPage } from './pages/dashboard-page';
import { SettingsPage } from './pages/settings-page';
import { loginClientApi } from './support/api';
import { rememberBrand, restoreBrand, type SavedBrand } from './support/brand';
import { ADMIN, BASE_URL, SMTP_SIM_URL } from './support/env';
import { pdfText } from './support/pdf-text';
import { QUALITY_CALLS, QUALITY_CLIENT } from './support/quality-seed';
import { screenshotBothWidths } from './support/screenshots';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

const PLATFORM_WORDS = /Bland|Vapi|Retell|Pathway|X-Webhook-Signature/i;

const BRAND = {
  name: 'Harbor Line Agency',
  primaryColor: '#7c3aed',
  accentColor: '#f59e0b',
  supportEmail: 'help@harborline.example',
  loginHeadline: 'Welcome to Harbor Line',
  loginText: 'Your calls, answered.',
  footerText: 'Harbor Line Agency · 9 Quay Street',
};
let admin: APIRequestContext;
let brandBefore: SavedBrand;

test.beforeAll(async ({ playwright }) => {
  admin = await playwright.request.newContext({ baseURL: BASE_URL });
  expect((await admin.post('/api/admin/login', { data: ADMIN })).status()).toBe(200);
  brandBefore = await rememberBrand(admin);
  expect((await admin.put('/api/admin/brand', { data: BRAND })).status()).toBe(200);
});

test.afterAll(async () => {
  await restoreBrand(admin, brandBefore);
  await admin.dispose();
});

/** What a client and its callers receive besides the pages, one entry per thing. */
async function crawlClientOutputs(page: Page): Promise<Record<string, string>> {
  const seen: Record<string, string> = {};
  const invited = `e2e-crawl-${Date.now()}@example.com`;

  // The sync, as the dashboard's button answers it (the toast), and as the API does.
  await new DashboardPage(page).open();
  await page.getByRole('button', { name: /^Sync calls/ }).click();
  const toast = page
    .locator('[data-radix-toast-announce-exclude], li[role="status"], [role="status"]')
    .filter({ hasText: 'Calls synced successfully' })
    .first();
  await expect(toast).toBeVisible({ timeout: 20_000 });
  seen['sync toast'] = (await toast.textContent()) ?? '';
  const synced = await page.request.post('/api/client/calls/sync');
  seen['sync answer'] = JSON.stringify(await synced.json());

  // A key the client may not change, and one the platform refuses.
  const refused = await page.request.put('/api/client/api-key', {
    data: { blandApiKey: 'sk_crawl_key_0001' },
  });
  seen['key refused'] = JSON.stringify(await refused.json());

  // The monthly report of last month, and the caller's erasure receipt.
  const lastMonth = new Date();
  lastMonth.setUTCDate(1);
  lastMonth.setUTCMonth(lastMonth.getUTCMonth() - 1);
  const report = await page.request.get(
    `/api/client/reports/monthly?month=${lastMonth.toISOString().slice(0, 7)}`,
  );
  expect(report.status()).toBe(200);
  seen['monthly PDF'] = pdfText(await report.body());
  expect(seen['monthly PDF']).toContain('Monthly report');

  const erasure = await page.request.post('/api/client/erasure', { data: { phone: '+1 312 555 0187' } });
  expect(erasure.status()).toBe(202);
  const { id } = (await erasure.json()) as { id: string };
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`/api/client/erasure/${id}`)).json()) as { state: string }).state,
    )
    .toBe('done');
  const receipt = await page.request.get(`/api/client/erasure/${id}/receipt?format=pdf`);
  expect(receipt.status()).toBe(200);
  seen['erasure receipt PDF'] = pdfText(await receipt.body());

  // An invitation to a new person, then every e-mail the client's people were sent.
  const invite = await page.request.post('/api/client/users', {
    data: { email: invited, role: 'viewer', name: 'Crawl Viewer' },
  });
  expect(invite.status()).toBe(201);
  const people = [QUALITY_CLIENT.email, invited];
  type Mail = { to: string[]; subject: string; text: string; html: string | null };
  let mails: Mail[] = [];
  await expect
    .poll(async () => {
      const { messages } = (await (await page.request.get(`${SMTP_SIM_URL}/_sim/messages`)).json()) as {
        messages: Mail[];
      };
      mails = messages.filter((m) => m.to.some((to) => people.includes(to)));
      return mails.some((m) => m.to.includes(invited));
    })
    .toBe(true);
  mails.forEach((m, i) => {
    seen[`e-mail ${i + 1}: ${m.subject}`] = `${m.subject}\n${m.text}\n${m.html ?? ''}`;
  });
  const users = (await (await page.request.get('/api/client/users')).json()) as {
    id: string;
    email: string;
  }[];
  const person = users.find((u) => u.email === invited);
  if (person) await page.request.delete(`/api/client/users/${person.id}`);
  return seen;
}

async function setShowPlatformDetails(request: APIRequestContext, on: boolean) {
  const login = await request.post('/api/admin/login', { data: ADMIN });
  expect(login.status()).toBe(200);
  const clients = (await (await request.get('/api/admin/clients')).json()) as { id: string; email: string }[];
  const client = clients.find((c) => c.email === QUALITY_CLIENT.email);
  if (!client) throw new Error('no quality client');
  const saved = await request.put(`/api/admin/client-config/${client.id}`, {
    data: { showPlatformDetails: on },
  });
  expect(saved.status()).toBe(200);
}

async function firstCallId(page: Page): Promise<string> {
  const answer = await page.request.get('/api/client/calls?status=all&limit=100');
  const { calls } = (await answer.json()) as { calls: { id: string; providerCallId: string }[] };
  const call = calls.find((c) => c.providerCallId === QUALITY_CALLS.SLOW_SILENT);
  if (!call) throw new Error('no seeded call');
  return call.id;
}

/** The text a person sees on each client page, one entry per page. */
async function crawlClientPages(page: Page, shots: string | null): Promise<Record<string, string>> {
  const seen: Record<string, string> = {};
  // What is rendered and shown, not the DOM's text: hidden text is not what a person reads.
  // biome-ignore lint/performance/useDomNodeTextContent: the visible text is the point
  const visible = () => page.locator('body').innerText();
  const dashboard = new DashboardPage(page);
  await dashboard.open();
  await expect(page.getByTestId('call-filter-bar')).toBeVisible();
  await expect(page.getByTestId('call-card').or(page.getByRole('row')).first()).toBeVisible();
  seen.dashboard = await visible();
  if (shots) await screenshotBothWidths(page, `${shots}-dashboard`);

  const drawer = new CallDrawer(page);
  await drawer.open(await firstCallId(page));
  // Every figure and how the call was timed, behind the quality line's "Details".
  await page.getByTestId('call-quality-details').getByText('Details', { exact: true }).click();
  await expect(page.getByTestId('call-quality-precision').first()).toBeVisible();
  seen.drawer = await visible();
  if (shots) await screenshotBothWidths(page, `${shots}-drawer`);

  await page.goto('/dashboard?view=quality');
  await expect(page.getByTestId('quality-precision')).toBeVisible();
  seen.quality = await visible();

  const settings = new SettingsPage(page);
  await settings.open();
  const tabs = [
    'Account',
    'Subscription',
    'Outcomes',
    'Notifications',
    'Security',
    'Privacy',
    'Users',
    'Activity',
  ];
  for (const tab of tabs) {
    const tabButton = page.getByRole('tab', { name: tab });
    await tabButton.click();
    await expect(tabButton).toHaveAttribute('aria-selected', 'true');
    if (tab === 'Security') await expect(page.getByTestId('api-key-status')).toBeVisible();
    if (tab === 'Privacy') await expect(page.getByTestId('platform-settings')).toBeVisible();
    seen[`settings ${tab}`] = await visible();
    if (shots && (tab === 'Security' || tab === 'Privacy'))
      await screenshotBothWidths(page, `${shots}-settings-${tab.toLowerCase()}`);
  }
  return seen;
}

test('with platform details off, no client page names the platform or its terms', async ({
  page,
  request,
}) => {
  await setShowPlatformDetails(request, false);
  await loginClientApi(page, QUALITY_CLIENT.email, QUALITY_CLIENT.password);
  const seen = await crawlClientPages(page, 'platform-details-off');
  Object.assign(seen, await crawlClientOutputs(page));
  expect(Object.keys(seen).some((where) => where.startsWith('e-mail'))).toBe(true);
  for (const [where, text] of Object.entries(seen)) expect(text, where).not.toMatch(PLATFORM_WORDS);
  expect(seen['sync answer']).toContain('the call service');
  expect(seen.dashboard).toContain('Call type');
  // The key is the agency's: SPEC's button stays, says so, and cannot be used.
  expect(seen['settings Security']).toContain('Your agency manages this key.');
  const settings = new SettingsPage(page);
  await settings.open();
  await settings.tab('Security').click();
  await expect(page.getByRole('button', { name: 'Update API Key' })).toBeDisabled();
});

test('with platform details on, the client sees SPEC’s texts naming the platform', async ({
  page,
  request,
}) => {
  await setShowPlatformDetails(request, true);
  try {
    await loginClientApi(page, QUALITY_CLIENT.email, QUALITY_CLIENT.password);
    const seen = await crawlClientPages(page, 'platform-details-on');
    expect(seen.dashboard).toContain('Pathway');
    expect(seen.quality).toMatch(/\((Retell|Vapi|Bland)\)/);
    expect(seen['settings Security']).toMatch(/(Bland AI|Vapi|Retell AI) API Key/);
    expect(seen['settings Privacy']).toContain('The voice platform’s own copy');
    const outputs = await crawlClientOutputs(page);
    expect(outputs['sync answer']).toContain('Bland AI');
    expect(outputs['monthly PDF']).toContain('Busiest pathways');
  } finally {
    await setShowPlatformDetails(request, false);
  }
});
