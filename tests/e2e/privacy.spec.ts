/**
 * Callers' personal data in the browser. The agency limits how long whole calls are
 * kept (admin console › Privacy); an Owner turns on e-mail redaction and sets transcript retention
 * by keyboard, is told under the field when a retention is longer than the agency allows, sees a
 * card and an e-mail as chips in a call's transcript and summary, sees an old call's transcript
 * removed, erases a caller's number and downloads its receipt (PDF and JSON), and exports another
 * caller's data; the admin sees the same in the client's view. Screenshots at 1280 and 390 px,
 * axe on the Privacy tab, the erase dialog, the drawer with chips and the admin's pages.
 *
 * The agency's defaults are shared by every spec on this server: afterAll puts them back.
 */
import { readFileSync } from 'node:fs';
import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { PRIVACY_TEXTS, type PrivacyDefaults } from '../../src/contract/privacy';
import { AdminClientViewPage } from './pages/admin-client-view-page';
import { AdminDashboardPage } from './pages/admin-dashboard-page';
import { AdminLoginPage } from './pages/admin-login-page';
import { CallDrawer } from './pages/call-drawer';
import { CallerPrivacyCards, PrivacyDefaultsTab } from './pages/privacy-tab';
import { type OnboardedClient, onboardClient, SettingsPage } from './pages/settings-page';
import { loginClientApi, placeTestCall } from './support/api';
import { expectNoSeriousA11yViolations } from './support/axe';
import { ADMIN, BASE_URL } from './support/env';
import { screenshotBothWidths } from './support/screenshots';
import { expectToast } from './support/toast';

test.describe.configure({ mode: 'serial', timeout: 150_000 });
test.use({ contextOptions: { reducedMotion: 'reduce' } });

const DAY = 24 * 60 * 60 * 1000;
/** The agency's limit on whole calls: longer than any call on this server is old. */
const AGENCY_CALL_DAYS = 3000;
const CHIP_CALLER = '+12125550142';
const OLD_CALLER = '+12125550143';
const ERASED_CALLER = '+12125550199';

let admin: APIRequestContext;
let before: PrivacyDefaults;
let client: OnboardedClient;

test.beforeAll(async ({ playwright }) => {
  admin = await playwright.request.newContext({ baseURL: BASE_URL });
  const login = await admin.post('/api/admin/login', {
    data: { username: ADMIN.username, password: ADMIN.password },
  });
  expect(login.status()).toBe(200);
  before = await (await admin.get('/api/admin/privacy-defaults')).json();
});

test.afterAll(async () => {
  // Put back what was there, whatever the tests did: other specs' clients follow the defaults.
  const restored = await admin.put('/api/admin/privacy-defaults', { data: before });
  await admin.dispose();
  expect(restored.status()).toBe(200);
});

async function axeAtBothWidths(page: Page, where: string) {
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expectNoSeriousA11yViolations(page, `${where} (${width})`);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth),
      `${where} (${width})`,
    ).toBeLessThanOrEqual(width);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Presses Tab until the element has the focus: it is reachable by keyboard, in the page's order. */
async function tabTo(page: Page, target: Locator, most = 80) {
  for (let i = 0; i < most; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Not reached with ${most} presses of Tab`);
}

const said = (...lines: string[]) =>
  lines.map((text, i) => ({
    id: i + 1,
    text,
    user: i % 2 ? 'user' : 'assistant',
    created_at: new Date().toISOString(),
  }));

async function callIdOf(page: Page, from: string): Promise<string> {
  const { calls } = await (await page.request.get('/api/client/calls?status=all')).json();
  const call = calls.find((c: { fromNumber: string }) => c.fromNumber === from);
  expect(call, `a call from ${from}`).toBeTruthy();
  return call.id;
}

test('the agency limits how long whole calls are kept', async ({ page }) => {
  const login = new AdminLoginPage(page);
  await login.open();
  await login.login(ADMIN.username, ADMIN.password);
  await new AdminDashboardPage(page).waitForClients();
  const defaults = new PrivacyDefaultsTab(page);
  await defaults.open();
  await expect(defaults.form.category('cards')).toBeChecked();
  await expect(defaults.form.retention('callDays')).toHaveValue('');

  // Not a number of days: said under the field before anything is sent.
  await defaults.form.retention('callDays').fill('0');
  await defaults.form.save.click();
  await expect(defaults.form.retentionNote('callDays')).toHaveText(/whole number of days from 1 to 3,650/);
  await expect(defaults.form.retention('callDays')).toHaveAttribute('aria-invalid', 'true');

  await defaults.form.retention('callDays').fill(String(AGENCY_CALL_DAYS));
  await defaults.form.save.click();
  await expectToast(page, 'Privacy defaults saved');
  await screenshotBothWidths(page, 'privacy-admin-defaults');
  await axeAtBothWidths(page, 'the admin console’s Privacy tab');

  const saved = await (await admin.get('/api/admin/privacy-defaults')).json();
  expect(saved.retention).toEqual({ ...before.retention, callDays: AGENCY_CALL_DAYS });
  await page.reload();
  await defaults.open();
  await expect(defaults.form.retention('callDays')).toHaveValue(String(AGENCY_CALL_DAYS));
});

test('an Owner redacts e-mails, keeps transcripts 7 days, erases a caller and exports another', async ({
  page,
  request,
}) => {
  client = await onboardClient(request, 'privacy');
  // A card and a spelled e-mail (cards are redacted on arrival; e-mails once the Owner turns them on),
  // a call ten days old, and the caller who asks to be erased.
  await placeTestCall(request, client.webhookUrl, undefined, {
    status: 'completed',
    from: CHIP_CALLER,
    transcripts: said(
      'How would you like to pay?',
      'my card is 4242 4242 4242 4242, expiry oh four twenty-seven',
      'And an e-mail for the receipt?',
      'it is jane dot doe at example dot com',
    ),
    summary: 'The caller paid by card 4242 4242 4242 4242 and gave jane.doe@example.com for the receipt.',
  });
  await placeTestCall(request, client.webhookUrl, undefined, {
    status: 'completed',
    from: OLD_CALLER,
    created_at: new Date(Date.now() - 10 * DAY).toISOString(),
    transcripts: said('Hello, this is an old call.', 'Yes, from last week.'),
  });
  await placeTestCall(request, client.webhookUrl, undefined, {
    status: 'completed',
    from: ERASED_CALLER,
    transcripts: said('Hello.', 'Please forget me.'),
  });
  await loginClientApi(page, client.email, client.password);
  const chipCall = await callIdOf(page, CHIP_CALLER);
  const oldCall = await callIdOf(page, OLD_CALLER);
  await callIdOf(page, ERASED_CALLER);

  const settings = new SettingsPage(page);
  await settings.open();
  await settings.tab('Privacy').click();
  const privacy = new CallerPrivacyCards(page);
  const form = privacy.form;
  await expect(form.category('cards')).toBeChecked();
  await expect(form.category('emails')).not.toBeChecked();
  // The agency's limit is what whole calls are kept, and it is said under the field.
  await expect(form.retention('callDays')).toHaveValue(String(AGENCY_CALL_DAYS));
  await expect(form.retentionNote('callDays')).toHaveText('At most 3,000 days: your agency’s limit.');
  await expect(form.retention('transcriptDays')).toHaveAttribute('placeholder', PRIVACY_TEXTS.keepForever);
  // The agency does not show this client its voice platform: the copy kept there is told in plain words.
  await expect(privacy.platforms).toContainText('Copies kept by the call service');
  await expect(privacy.platforms).toContainText('ask your agency about them');

  // By keyboard: e-mails on, transcripts kept 7 days, saved with Enter.
  await tabTo(page, form.category('emails'));
  await page.keyboard.press('Space');
  await expect(form.category('emails')).toBeChecked();
  // National IDs' country option shows only while national IDs are on.
  await expect(page.getByRole('checkbox', { name: PRIVACY_TEXTS.countries.CA })).toHaveCount(0);
  await tabTo(page, form.retention('transcriptDays'));
  await page.keyboard.type('7');
  await page.keyboard.press('Enter');
  await expectToast(page, 'Privacy Saved', 'Calls stored before are being redacted');

  // Longer than the agency allows: the server's words under the field, nothing saved.
  await form.retention('callDays').fill('3200');
  await form.save.click();
  await expect(form.retentionNote('callDays')).toHaveText(
    'The agency keeps this for at most 3000 days: choose 3000 or fewer',
  );
  await expect(form.retention('callDays')).toHaveAttribute('aria-invalid', 'true');
  await expectToast(page, 'Privacy Not Saved');
  await screenshotBothWidths(page, 'privacy-settings-error');
  await form.retention('callDays').fill('365');
  await form.save.click();
  await expect(form.retentionNote('callDays')).toHaveText('At most 3,000 days: your agency’s limit.');
  await expect
    .poll(async () => (await (await page.request.get('/api/client/privacy')).json()).retention)
    .toEqual({ transcriptDays: 7, recordingDays: null, callDays: 365 });

  // The stored calls are redacted again, the progress line gone when done.
  await expect
    .poll(async () => (await (await page.request.get('/api/client/privacy')).json()).reRedaction.state, {
      timeout: 20_000,
    })
    .not.toBe('running');
  await expect(privacy.progress).toHaveCount(0);
  await page.reload();
  await settings.tab('Privacy').click();
  await expect(form.category('emails')).toBeChecked();
  await expect(form.retention('transcriptDays')).toHaveValue('7');
  await screenshotBothWidths(page, 'privacy-settings');
  await axeAtBothWidths(page, 'Settings › Privacy');

  // Chips in the transcript and the summary, each named for screen readers.
  const drawer = new CallDrawer(page);
  await drawer.open(chipCall);
  const transcript = drawer.root.getByTestId('synced-transcript');
  await expect(transcript.getByRole('img', { name: 'card number removed' })).toBeVisible();
  await expect(transcript.getByRole('img', { name: 'e-mail address removed' })).toBeVisible();
  await expect(transcript).not.toContainText('4242');
  await expect(transcript).not.toContainText('[CARD]');
  const summary = drawer.root.getByTestId('call-summary');
  await expect(summary.getByRole('img', { name: 'card number removed' })).toBeVisible();
  await expect(summary.getByRole('img', { name: 'e-mail address removed' })).toBeVisible();
  await expect(summary).not.toContainText('jane');
  await screenshotBothWidths(page, 'privacy-transcript-chips');
  await axeAtBothWidths(page, 'the call drawer with redaction chips');

  // The call ten days old lost its transcript to the 7 days, and says why.
  await expect
    .poll(
      async () => (await (await page.request.get(`/api/client/calls/${oldCall}`)).json()).transcriptRemovedAt,
      {
        timeout: 70_000,
      },
    )
    .not.toBeNull();
  await drawer.open(oldCall);
  await expect(drawer.root.getByTestId('no-transcript')).toHaveText(PRIVACY_TEXTS.transcriptRemoved);

  // Erase a caller: the confirmation says what goes, what stays, and that it cannot be undone.
  await settings.open('?tab=privacy');
  await privacy.askToErase('(212) 555-0199');
  await expect(privacy.eraseDialog).toContainText('+1 212 555 0199');
  await expect(privacy.eraseDialog).toContainText('cannot be undone');
  await expect(privacy.eraseDialog).toContainText('Totals, charts, usage and invoices keep their numbers');
  // Before confirming, the calls it will take: how many, and each one's time, masked caller and words.
  await expect(privacy.erasePreviewCount).toHaveText('1 call will be erased:');
  await expect(privacy.erasePreviewCalls).toHaveCount(1);
  await expect(privacy.erasePreviewCalls.first()).toContainText('+1 212 ••• 0199');
  // A line of the call (its summary: the platform's, so its words vary).
  await expect(privacy.erasePreviewCalls.first()).toContainText(/“.{10,}”/);
  await screenshotBothWidths(page, 'privacy-erase-dialog');
  await axeAtBothWidths(page, 'the erase dialog');
  // Escape leaves it without erasing; the button is reached again by keyboard.
  await page.keyboard.press('Escape');
  await expect(privacy.eraseDialog).toBeHidden();
  await expect(privacy.erasures).toHaveCount(0);
  await tabTo(page, privacy.eraseButton);
  await page.keyboard.press('Enter');
  await expect(privacy.eraseDialog).toBeVisible();
  await privacy.confirmErase();
  await expectToast(page, 'Erasure started');

  const erasure = privacy.erasure('+1 212 555 0199');
  await expect(erasure.getByTestId('erasure-state')).toHaveText('Done', { timeout: 20_000 });
  await expect(erasure.getByTestId('erasure-totals')).toHaveText(
    /^1 call and \d+ stored cop(y|ies) removed$/,
  );
  await expect(erasure).toContainText('The call service: 1 call kept there: it has no way to delete a call');
  const pdf = await privacy.download(erasure.getByRole('link', { name: /^Caller’s receipt \(PDF\)/ }));
  expect(pdf.suggestedFilename()).toMatch(/^erasure-receipt-.+\.pdf$/);
  expect(
    readFileSync((await pdf.path()) ?? '')
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');
  const json = await privacy.download(erasure.getByRole('link', { name: /^Record as JSON/ }));
  expect(json.suggestedFilename()).toMatch(/^erasure-receipt-.+\.json$/);
  const receipt = JSON.parse(readFileSync((await json.path()) ?? '', 'utf8'));
  expect(receipt).toMatchObject({
    receipt: 'erasure',
    subject: { kind: 'phone', value: ERASED_CALLER },
    calls: 1,
  });
  await screenshotBothWidths(page, 'privacy-erasure-done');
  const { calls } = await (await page.request.get('/api/client/calls?status=all')).json();
  expect(calls.map((c: { fromNumber: string }) => c.fromNumber)).not.toContain(ERASED_CALLER);

  // Export another caller's data: a JSON file of their calls, redacted as stored.
  const exported = await privacy.exportCaller('+1 212 555 0142');
  expect(exported.suggestedFilename()).toBe('caller-data-12125550142.json');
  const data = JSON.parse(readFileSync((await exported.path()) ?? '', 'utf8'));
  expect(data.phone).toBe(CHIP_CALLER);
  expect(data.calls).toHaveLength(1);
  expect(JSON.stringify(data)).not.toContain('4242');
  expect(JSON.stringify(data)).toContain('[CARD]');
  await expectToast(page, 'Export downloaded');
});

test('the admin sees the client’s privacy settings and erasures in its view', async ({ page }) => {
  const login = new AdminLoginPage(page);
  await login.open();
  await login.login(ADMIN.username, ADMIN.password);
  await new AdminDashboardPage(page).waitForClients();
  const view = new AdminClientViewPage(page);
  await view.open(client.id);
  await view.waitForLoaded();
  const privacy = new CallerPrivacyCards(page);
  await expect(privacy.form.root).toHaveCount(0);
  await page.getByRole('button', { name: 'Show privacy settings' }).click();
  await expect(privacy.form.category('emails')).toBeChecked();
  await expect(privacy.form.retention('transcriptDays')).toHaveValue('7');
  await expect(privacy.erasure('+1 212 555 0199').getByTestId('erasure-state')).toHaveText('Done');
  await expect(privacy.erasure('+1 212 555 0199')).toContainText('Asked by');
  await screenshotBothWidths(page, 'privacy-admin-client-view');
  await axeAtBothWidths(page, 'the admin’s client view with its privacy cards');

  // The admin turns on dates of birth for this client: saved through the admin's endpoint.
  await privacy.form.category('dates').check();
  await privacy.form.save.click();
  await expectToast(page, 'Privacy Saved');
  const saved = await (await admin.get(`/api/admin/client-privacy/${client.id}`)).json();
  expect(saved.redaction).toMatchObject({ cards: true, emails: true, dates: true });
});
