/**
 * Numbers that say what they count, with the agency's brand saved: the Date Range says
 * exactly which instants its rolling window covers, in the client's zone; outcome cards colour a
 * change by what it means for the business ("Failed +150%" is bad news); a rise from nothing reads
 * "new"; and the admin's header cards are read again with Analytics, so the two agree.
 */
import { type APIRequestContext, expect, test } from '@playwright/test';
import { clientSession, loginClientApi, placeTestCall } from './support/api';
import { rememberBrand, restoreBrand, type SavedBrand } from './support/brand';
import { ADMIN, BASE_URL, NUMBERS_CLIENT } from './support/env';
import { screenshotBothWidths } from './support/screenshots';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

const BRAND = {
  name: 'Lakeside Partners',
  primaryColor: '#0b7285',
  accentColor: '#ffd400',
  supportEmail: 'help@lakeside.example',
  supportPhone: '+1 555 0100',
  supportUrl: 'https://help.lakeside.example/start',
  loginHeadline: 'Welcome to Lakeside Partners',
  loginText: 'Your calls in one place.',
  footerText: 'Lakeside Partners · 2 Shore Road',
};
const DAY = 86_400_000;
let admin: APIRequestContext;
let before: SavedBrand;

test.beforeAll(async ({ playwright }) => {
  admin = await playwright.request.newContext({ baseURL: BASE_URL });
  const login = await admin.post('/api/admin/login', {
    data: { username: ADMIN.username, password: ADMIN.password },
  });
  expect(login.status()).toBe(200);
  before = await rememberBrand(admin);
  const saved = await admin.put('/api/admin/brand', { data: BRAND });
  expect(saved.status()).toBe(200);
});

test.afterAll(async () => {
  // Put back what was there: other specs assert the default texts.
  await restoreBrand(admin, before);
  await admin.dispose();
});

test('the window says what it counts, and outcome changes are coloured by what they mean', async ({
  page,
}) => {
  await loginClientApi(page, NUMBERS_CLIENT.email, NUMBERS_CLIENT.password);
  const { webhookUrl } = await clientSession(page.request);
  const now = Date.now();
  const call = (ageDays: number, overrides: Record<string, unknown>) =>
    placeTestCall(page.request, webhookUrl, NUMBERS_CLIENT.apiKey, {
      created_at: new Date(now - ageDays * DAY).toISOString(),
      ...overrides,
    });
  const failed = { status: 'failed', completed: false, call_length: 0, corrected_duration: '0' };
  const noAnswer = { answered_by: 'no-answer', completed: true };
  // The week before: 2 failed, 3 unanswered. This week: 5 failed, none unanswered, 2 reached.
  for (let i = 0; i < 2; i++) await call(9 + i * 0.1, failed);
  for (let i = 0; i < 3; i++) await call(10 + i * 0.1, noAnswer);
  for (let i = 0; i < 5; i++) await call(1 + i * 0.1, failed);
  for (let i = 0; i < 2; i++) await call(2 + i * 0.1, { answered_by: 'human' });

  await page.goto('/dashboard');
  // "Last 7 days" is rolling: its first and last instants, in New York, not "Dec 1 – Dec 7".
  await expect(page.getByTestId('range-window').first()).toHaveText(
    /^[A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d{2} [AP]M – [A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d{2} [AP]M \(America\/New_York\)$/,
  );

  const change = (outcome: string) =>
    page.locator(`[data-testid="outcome-card"][data-outcome="${outcome}"] [data-testid="outcome-change"]`);
  // More failed calls is bad news; fewer unanswered ones good news.
  await expect(change('Failed')).toHaveText('+150.0%');
  await expect(change('Failed')).toHaveAttribute('data-trend', 'bad');
  await expect(change('Failed')).toHaveClass(/text-red-700/);
  await expect(change('No answer')).toHaveText('-100.0%');
  await expect(change('No answer')).toHaveAttribute('data-trend', 'good');
  await expect(change('No answer')).toHaveClass(/text-green-700/);
  // Nothing reached a person the week before: "new", not "+100.0%".
  await expect(change('Reached a person')).toHaveText('new');
  await screenshotBothWidths(page, 'numbers-dashboard');
});

test('the admin header cards are read again with Analytics', async ({ page }) => {
  const login = await page.request.post('/api/admin/login', {
    data: { username: ADMIN.username, password: ADMIN.password },
  });
  expect(login.status()).toBe(200);
  await page.goto('/admin');
  const totalCalls = page.getByTestId('stat-total-calls');
  await expect(totalCalls).toHaveText(/^[\d,]+$/);
  const shown = Number((await totalCalls.textContent())?.replace(/,/g, ''));

  // A call arrives while the admin reads the console.
  await loginClientApi(page, NUMBERS_CLIENT.email, NUMBERS_CLIENT.password);
  const { webhookUrl } = await clientSession(page.request);
  await placeTestCall(page.request, webhookUrl, NUMBERS_CLIENT.apiKey, { answered_by: 'human' });
  await page.request.post('/api/admin/login', {
    data: { username: ADMIN.username, password: ADMIN.password },
  });

  await page.getByRole('tab', { name: 'Analytics' }).click();
  await expect(page.getByTestId('analytics-change-calls')).toBeVisible();
  // The header moved with Analytics instead of staying at the earlier count.
  await expect(totalCalls).toHaveText((shown + 1).toLocaleString('en-US'));
  await screenshotBothWidths(page, 'numbers-admin-analytics');
});
