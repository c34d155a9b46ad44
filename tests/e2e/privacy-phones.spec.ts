/**
 * Phone redaction's cost said where it is turned on, with the agency's brand saved: an
 * Owner ticks "Phone numbers said during the call", reads that call-back numbers become [PHONE] in
 * transcripts and summaries, and turns "Keep the caller's own number" off; the choice is saved
 * and read back. Screenshots at 1280 and 390 px, axe on the form with the warning open.
 *
 * The brand is shared by every spec on this server: afterAll puts back what was there.
 */
import { type APIRequestContext, expect, test } from '@playwright/test';
import { PRIVACY_TEXTS } from '../../src/contract/privacy';
import { CallerPrivacyCards } from './pages/privacy-tab';
import { onboardClient, SettingsPage } from './pages/settings-page';
import { loginClientApi } from './support/api';
import { expectNoSeriousA11yViolations } from './support/axe';
import { rememberBrand, restoreBrand, type SavedBrand } from './support/brand';
import { ADMIN, BASE_URL } from './support/env';
import { screenshotBothWidths } from './support/screenshots';
import { expectToast } from './support/toast';

test.use({ contextOptions: { reducedMotion: 'reduce' } });

let admin: APIRequestContext;
let before: SavedBrand;

test.beforeAll(async ({ playwright }) => {
  admin = await playwright.request.newContext({ baseURL: BASE_URL });
  const login = await admin.post('/api/admin/login', {
    data: { username: ADMIN.username, password: ADMIN.password },
  });
  expect(login.status()).toBe(200);
  before = await rememberBrand(admin);
  const saved = await admin.put('/api/admin/brand', {
    data: { name: 'Harbour Voice', primaryColor: '#0f766e', footerText: 'Harbour Voice · 4 Quay Street' },
  });
  expect(saved.status()).toBe(200);
});

test.afterAll(async () => {
  await restoreBrand(admin, before);
  await admin.dispose();
});

test('turning on phone redaction warns about call-back numbers and offers to keep the caller’s own', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const client = await onboardClient(request, 'phones');
  await loginClientApi(page, client.email, client.password);
  const settings = new SettingsPage(page);
  await settings.open('?tab=privacy');
  const privacy = new CallerPrivacyCards(page);
  const warning = page.getByTestId('phones-warning');
  const keep = privacy.form.root.getByRole('checkbox', { name: PRIVACY_TEXTS.keepCallerNumberLabel });

  // Off: no warning. On: the warning, and the caller's own number kept unless the Owner says not.
  await expect(privacy.form.category('phones')).not.toBeChecked();
  await expect(warning).toHaveCount(0);
  await privacy.form.category('phones').check();
  await expect(warning).toBeVisible();
  await expect(warning).toContainText('Call-back numbers callers give are replaced by [PHONE]');
  await expect(keep).toBeChecked();
  await expect(keep).toHaveAccessibleDescription(PRIVACY_TEXTS.keepCallerNumberHelp);
  await warning.scrollIntoViewIfNeeded();
  await screenshotBothWidths(page, 'privacy-phones-warning');
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expectNoSeriousA11yViolations(page, `the phone redaction warning (${width})`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  await keep.uncheck();
  await privacy.form.save.click();
  await expectToast(page, 'Privacy Saved');
  const saved = await (await page.request.get('/api/client/privacy')).json();
  expect(saved).toMatchObject({ redaction: { phones: true }, keepCallerNumber: false });
  await page.reload();
  await expect(privacy.form.category('phones')).toBeChecked();
  await expect(keep).not.toBeChecked();
});
