/**
 * Masked numbers in the browser: a Viewer (no unmask_numbers) sees callers' numbers
 * masked in the log, the call drawer, search and the live strip, and a fragment of a number finds
 * nothing; the Owner turns on "Hide callers' numbers until shown" in Settings › Privacy and uses
 * "Show number" in the drawer. Screenshots at both widths; axe on the drawer and the Privacy tab.
 */
import { expect, type Page, test } from '@playwright/test';
import { CallDrawer } from './pages/call-drawer';
import { DashboardPage } from './pages/dashboard-page';
import { PrivacyCard } from './pages/privacy-card';
import { SettingsPage } from './pages/settings-page';
import { clientSession, loginClientApi, placeTestCall } from './support/api';
import { expectNoSeriousA11yViolations } from './support/axe';
import { PRIVACY_CLIENT, PRIVACY_VIEWER } from './support/env';
import { screenshotBothWidths } from './support/screenshots';

test.use({ contextOptions: { reducedMotion: 'reduce' } });

const CALLER = '+12128670100';
const CALLER_SHOWN = '+1 212 867 0100';
const CALLER_MASKED = '+1 212 ••• 0100';
const LIVE_CALLER = '+12128670177';
const LIVE_MASKED = '+1 212 ••• 0177';

async function axeAtBothWidths(page: Page, where: string) {
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expectNoSeriousA11yViolations(page, `${where} (${width})`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('a Viewer sees masked numbers; the Owner hides them for everyone and shows one with "Show number"', async ({
  page,
  browser,
}) => {
  // Two people, five screenshots at two widths and axe on three views at two widths.
  test.setTimeout(120_000);
  // The Owner (the account login) receives a call whose caller says the number in the summary.
  await loginClientApi(page, PRIVACY_CLIENT.email, PRIVACY_CLIENT.password);
  const { webhookUrl } = await clientSession(page.request);
  await placeTestCall(page.request, webhookUrl, PRIVACY_CLIENT.apiKey, {
    status: 'completed',
    from: CALLER,
    summary: 'The caller at 212-867-0100 asked to see the flat on Elm Street.',
  });
  const calls = await (await page.request.get('/api/client/calls')).json();
  const callId: string = calls.calls.find((c: { fromNumber: string }) => c.fromNumber === CALLER).id;

  // The Viewer, in a browser of their own.
  const viewerContext = await browser.newContext({ reducedMotion: 'reduce' });
  const viewer = await viewerContext.newPage();
  await loginClientApi(viewer, PRIVACY_VIEWER.email, PRIVACY_VIEWER.password);
  const dashboard = new DashboardPage(viewer);
  await dashboard.open();
  await dashboard.waitForLog();
  await expect(dashboard.row(callId)).toContainText(CALLER_MASKED);
  await expect(dashboard.callLog).not.toContainText(CALLER_SHOWN);

  // A call in progress shows in "Live now", masked too.
  await placeTestCall(viewer.request, webhookUrl, PRIVACY_CLIENT.apiKey, {
    status: 'in-progress',
    queue_status: 'started',
    completed: false,
    from: LIVE_CALLER,
  });
  const strip = viewer.getByRole('region', { name: 'Live now' });
  await expect(strip).toContainText(LIVE_MASKED, { timeout: 5000 });
  await expect(strip).not.toContainText('867 0177');
  await screenshotBothWidths(viewer, 'masked-numbers-viewer-log');

  // Search: the full number finds the call (still masked), a fragment finds nothing.
  await dashboard.openSearch();
  await dashboard.search(CALLER);
  await expect(dashboard.rows).toHaveCount(1);
  await expect(dashboard.rows.first()).toContainText(CALLER_MASKED);
  await dashboard.search('867');
  await expect(dashboard.rows).toHaveCount(0);

  // The drawer: masked in the title and the summary, and no "Show number" for a Viewer.
  const drawer = new CallDrawer(viewer);
  await drawer.open(callId);
  await expect(drawer.title).toHaveText(/Call from \+1 212 ••• 0100 to/);
  await expect(drawer.root.getByTestId('call-summary')).toHaveText(
    `The caller at ${CALLER_MASKED} asked to see the flat on Elm Street.`,
  );
  await expect(drawer.showNumber).toHaveCount(0);
  await screenshotBothWidths(viewer, 'masked-numbers-viewer-drawer');
  await axeAtBothWidths(viewer, 'call drawer with a masked number');
  await viewerContext.close();

  // The Owner sees full numbers until turning on the privacy switch in Settings › Privacy.
  const ownerDrawer = new CallDrawer(page);
  await ownerDrawer.open(callId);
  await expect(ownerDrawer.title).toContainText(CALLER_SHOWN);
  const settings = new SettingsPage(page);
  await settings.open();
  await settings.tab('Privacy').click();
  const privacy = new PrivacyCard(page);
  await expect(privacy.root).toContainText('“Show number”');
  await expect(privacy.hideNumbers).not.toBeChecked();
  await privacy.hideNumbers.click();
  await expect(privacy.hideNumbers).toBeChecked();
  await expect(page.getByText('Privacy Saved').first()).toBeVisible();
  await screenshotBothWidths(page, 'masked-numbers-privacy-card');
  await axeAtBothWidths(page, 'Settings › Privacy with the Privacy card');

  // Now masked for the Owner too, until "Show number" (recorded in the activity log).
  await ownerDrawer.open(callId);
  await expect(ownerDrawer.title).toContainText(CALLER_MASKED);
  await expect(ownerDrawer.showNumber).toBeVisible();
  await screenshotBothWidths(page, 'masked-numbers-owner-drawer-masked');
  await ownerDrawer.showNumber.click();
  await expect(ownerDrawer.title).toContainText(CALLER_SHOWN);
  await expect(ownerDrawer.showNumber).toHaveCount(0);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await ownerDrawer.copyNumber.click();
  await expect(ownerDrawer.copyNumber).toHaveText('Copied!');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(CALLER);
  await screenshotBothWidths(page, 'masked-numbers-owner-drawer-shown');
  await axeAtBothWidths(page, 'call drawer with the number shown');

  const activity = await page.request.get('/api/client/activity?action=unmask');
  expect(activity.status()).toBe(200);
  expect((await activity.json()).items[0]).toMatchObject({ action: 'unmask', detail: { callId } });

  // Off again, for whoever runs next against this server.
  await page.request.put('/api/client/privacy', { data: { hideNumbersUntilShown: false } });
});
