/**
 * The client's view for a business person, with the agency's brand saved: the call log leads with
 * when, who called and what came of it, and names each call by its short ID (copyable, the one the
 * e-mails name, found by the search); the call drawer shows the ID, the outcome, the recording and
 * the summary first, then the transcript, then the quality in one line with every figure behind
 * "Details"; the values the platform sets on every call (its call id, the clock) stay hidden from
 * the client, and no row says "—". Screenshots at 1280 and 390 px; axe on the drawer.
 */
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { CallDrawer } from './pages/call-drawer';
import { DashboardPage } from './pages/dashboard-page';
import { clientSession, loginClientApi, placeTestCall } from './support/api';
import { expectNoSeriousA11yViolations } from './support/axe';
import { rememberBrand, restoreBrand, type SavedBrand } from './support/brand';
import { ADMIN, BASE_URL, CLIENT } from './support/env';
import { screenshotBothWidths } from './support/screenshots';

test.describe.configure({ mode: 'serial' });
test.use({ contextOptions: { reducedMotion: 'reduce' } });

const PLATFORM_CALL_ID = '7d0c1f3e-5b7a-4c1e-9a57-0c1e2f3a4b5c';
const SUMMARY = 'The caller booked a cleaning for Tuesday at ten.';
let admin: APIRequestContext;
let before: SavedBrand;
let callId: string;

test.beforeAll(async ({ playwright }) => {
  admin = await playwright.request.newContext({ baseURL: BASE_URL });
  expect((await admin.post('/api/admin/login', { data: ADMIN })).status()).toBe(200);
  before = await rememberBrand(admin);
  const saved = await admin.put('/api/admin/brand', {
    data: { ...before.settings, name: 'Harbour Voice', primaryColor: '#0b7285' },
  });
  expect(saved.status()).toBe(200);
});

test.afterAll(async () => {
  await restoreBrand(admin, before);
  await admin.dispose();
});

/** A finished call with a recording, a summary, and the variables the platform sets beside one the agent collected. */
async function placeCall(page: Page): Promise<string> {
  const { webhookUrl } = await clientSession(page.request);
  const call = await placeTestCall(page.request, webhookUrl, CLIENT.apiKey, {
    status: 'completed',
    summary: SUMMARY,
    variables: {
      call_id: PLATFORM_CALL_ID,
      now_utc: 'Mon, 07 Dec 2026 18:00:00 GMT',
      from: '+14155550123',
      to: '+12125550188',
      appointment_time: 'Tuesday 10:00',
      notes: '—',
    },
  });
  const calls = (await (await page.request.get('/api/client/calls?status=all&limit=100')).json()) as {
    calls: { id: string; providerCallId: string }[];
  };
  const stored = calls.calls.find((c) => c.providerCallId === call.call_id);
  if (!stored) throw new Error('the test call was not stored');
  return stored.id;
}

test('the log leads with time, caller and outcome; the call ID comes last, copyable and searchable', async ({
  page,
}) => {
  await loginClientApi(page, CLIENT.email, CLIENT.password);
  callId = await placeCall(page);
  const reference = callId.slice(0, 8);
  const dashboard = new DashboardPage(page);
  await dashboard.open();
  await dashboard.waitForLog();
  const headers = await page.getByRole('columnheader').allInnerTexts();
  expect(headers.slice(0, 3).map((h) => h.trim())).toEqual(['Created', 'From/To', 'Outcome']);
  expect(headers.map((h) => h.trim()).slice(-2)).toEqual(['Call ID', 'Actions']);
  const row = dashboard.row(callId);
  await expect(row.getByTestId('call-reference')).toHaveText(reference);
  await expect(row.getByRole('button', { name: `Copy call ID ${reference}` })).toBeVisible();
  await screenshotBothWidths(page, 'client-view-log');

  // The ID as an e-mail names it finds the call, and only it.
  await dashboard.open(`/dashboard?q=${reference.toUpperCase()}`);
  await dashboard.waitForLog();
  await expect(dashboard.rows).toHaveCount(1);
  await expect(dashboard.row(callId)).toBeVisible();

  // On a phone each call is a card: its ID is there too.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(
    page.locator(`[data-testid="call-card"][data-call-id="${callId}"]`).getByTestId('call-reference'),
  ).toHaveText(reference);
  await page.setViewportSize({ width: 1280, height: 900 });
});

test('the drawer: ID, outcome, recording and summary first, then the transcript, quality in one line', async ({
  page,
}) => {
  await loginClientApi(page, CLIENT.email, CLIENT.password);
  const drawer = new CallDrawer(page);
  await drawer.open(callId);
  await expect(drawer.root.getByTestId('detail-audio')).toBeAttached();
  await expect(drawer.root.getByTestId('call-summary')).toHaveText(SUMMARY);

  const order = await drawer.root.evaluate((root) =>
    [...root.querySelectorAll('[data-testid]')].map((e) => e.getAttribute('data-testid')),
  );
  const wanted = [
    'call-reference',
    'call-result',
    'detail-audio',
    'call-summary',
    'synced-transcript',
    'call-quality',
    'call-variables',
    'call-facts',
  ];
  expect(order.filter((id) => wanted.includes(id ?? ''))).toEqual(wanted);
  await expect(drawer.root.getByTestId('call-reference')).toContainText(callId.slice(0, 8));

  // The agent's own findings stay; the platform's clock and call id do not, nor empty values.
  const variables = drawer.root.getByTestId('call-variables');
  await expect(variables).toContainText('appointment time');
  await expect(variables).toContainText('Tuesday 10:00');
  await expect(variables).not.toContainText('notes');
  await expect(variables).not.toContainText('call id');
  await expect(drawer.root).not.toContainText(/now utc|Platform details/i);
  await expect(drawer.root).not.toContainText(PLATFORM_CALL_ID);
  await expect(drawer.root).not.toContainText('Mon, 07 Dec 2026 18:00:00 GMT');
  await expect(drawer.root.locator('dd').filter({ hasText: /^—$/ })).toHaveCount(0);

  // Quality: one line, the rest behind "Details".
  const quality = drawer.root.getByTestId('call-quality');
  await expect(quality.getByTestId('call-quality-line')).toHaveCount(1);
  await expect(quality.getByTestId('call-quality-line')).toBeVisible();
  const details = quality.getByTestId('call-quality-details');
  await expect(details).not.toHaveAttribute('open', '');
  await expect(quality.getByTestId('call-quality-turns')).toBeHidden();
  await expectNoSeriousA11yViolations(page, 'the call drawer, quality closed');
  await screenshotBothWidths(page, 'client-view-drawer');
  await details.getByText('Details', { exact: true }).click();
  await expect(quality.getByTestId('call-quality-turns')).toBeVisible();
  await expect(quality.locator('dd').filter({ hasText: /^—$/ })).toHaveCount(0);
  await quality.scrollIntoViewIfNeeded();
  await screenshotBothWidths(page, 'client-view-drawer-quality-details');
});

test('the agency’s view of the same call keeps the platform’s values, behind "Platform details"', async ({
  page,
}) => {
  expect((await page.request.post('/api/admin/login', { data: ADMIN })).status()).toBe(200);
  const clients = (await (await page.request.get('/api/admin/clients')).json()) as {
    id: string;
    email: string;
  }[];
  const client = clients.find((c) => c.email === CLIENT.email);
  if (!client) throw new Error('no e2e client');
  await page.goto(`/admin/client/${client.id}?call=${callId}`);
  const drawer = page.getByTestId('call-detail');
  await expect(drawer.getByRole('heading').first()).toContainText('Call from');
  const platform = drawer.getByTestId('call-platform-details');
  await expect(platform.getByText(PLATFORM_CALL_ID)).toBeHidden();
  await platform.getByText('Platform details').click();
  await expect(platform).toContainText('now utc');
  await expect(platform).toContainText(PLATFORM_CALL_ID);
});
