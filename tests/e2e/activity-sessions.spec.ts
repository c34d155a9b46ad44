/**
 * Settings › Activity and Settings › Security › Sessions. The Owner's activity shows
 * their sign-in and a failed one, and the filters narrow it; ending another session from a second
 * browser signs that browser out; an agency admin's visit is one line of the client's log.
 */
import { expect, test } from '@playwright/test';
import { ActivityTabPage } from './pages/activity-tab';
import { AdminClientViewPage } from './pages/admin-client-view-page';
import { SessionsCardPage } from './pages/sessions-card';
import { loginAsNewClient } from './pages/settings-page';
import { expectNoSeriousA11yViolations } from './support/axe';
import { ADMIN, BASE_URL } from './support/env';
import { screenshotBothWidths } from './support/screenshots';
import { expectToast } from './support/toast';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

test('the activity log shows a sign-in and a failed one, and filters by action and person', async ({
  page,
  request,
}) => {
  const client = await loginAsNewClient(page, request, 'activity');
  const failed = await page.request.post('/api/client/login', {
    data: { email: client.email, password: 'not the password at all' },
  });
  expect(failed.status()).toBe(401);
  const activity = new ActivityTabPage(page);
  await activity.open();
  // Two sign-ins: the first with the agency's password (changed at once by the setup), then their own.
  await expect(activity.row('Signed in')).toHaveCount(2);
  await expect(activity.row('Failed sign-in')).toHaveCount(1);
  await expect(activity.row('Failed sign-in')).toContainText(client.email);
  await screenshotBothWidths(page, 'settings-activity');
  await expectNoSeriousA11yViolations(page, 'Settings › Activity (desktop)');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('activity-item').first()).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'Settings › Activity (phone)');
  await page.setViewportSize({ width: 1280, height: 900 });

  await activity.action.selectOption({ label: 'Failed sign-in' });
  await expect(activity.rows).toHaveCount(1);
  await expect(activity.rows.first()).toContainText('Failed sign-in');
  await expect(activity.csv).toHaveAttribute('href', '/api/client/activity/export?action=sign_in_failed');

  await activity.action.selectOption({ label: 'All actions' });
  await activity.person.selectOption({ label: 'Casey Jordan' });
  // Two sign-ins, the change from the agency's password, and the failed sign-in.
  await expect(activity.rows).toHaveCount(4);
  await activity.action.selectOption({ label: 'Signed in' });
  await expect(activity.rows).toHaveCount(2);
  await expect(activity.rows.first()).toContainText('Casey Jordan');

  // The CSV of the same filter downloads.
  const download = page.waitForEvent('download');
  await activity.csv.click();
  expect((await download).suggestedFilename()).toMatch(/^activity-\d{4}-\d{2}-\d{2}\.csv$/);
});

test('ending another session from the Security tab signs that browser out', async ({
  page,
  request,
  browser,
}) => {
  const client = await loginAsNewClient(page, request, 'sessions');
  const phone = await browser.newContext({ userAgent: IPHONE, baseURL: BASE_URL });
  try {
    const phonePage = await phone.newPage();
    const signedIn = await phonePage.request.post('/api/client/login', {
      data: { email: client.email, password: client.password },
    });
    expect(signedIn.status()).toBe(200);
    await phonePage.goto('/settings?tab=security');
    await expect(phonePage.getByTestId('sessions-card')).toBeVisible();

    const sessions = new SessionsCardPage(page);
    await sessions.open();
    await expect(sessions.rows).toHaveCount(2);
    await expect(sessions.thisDevice).toContainText('Chrome on Linux');
    await expect(sessions.row('Safari on iPhone')).toContainText(/Last seen/);
    await screenshotBothWidths(page, 'settings-security-sessions');
    await expectNoSeriousA11yViolations(page, 'Settings › Security › Sessions (desktop)');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSeriousA11yViolations(page, 'Settings › Security › Sessions (phone)');
    await page.setViewportSize({ width: 1280, height: 900 });

    await sessions
      .row('Safari on iPhone')
      .getByRole('button', { name: /^Sign out Safari on iPhone/ })
      .click();
    await expectToast(page, 'Session signed out', 'Safari on iPhone');
    await expect(sessions.rows).toHaveCount(1);
    await expect(sessions.signOutOthers).toHaveCount(0);

    // The phone is signed out: its next visit asks it to sign in.
    await phonePage.reload();
    await expect(phonePage.getByText('Please log in to access settings')).toBeVisible();
    expect((await phonePage.request.get('/api/client/session')).status()).toBe(401);
  } finally {
    await phone.close();
  }
});

test('an agency admin’s view of the dashboard shows in the client’s activity, once', async ({
  page,
  request,
  browser,
}) => {
  const client = await loginAsNewClient(page, request, 'viewed');
  const agency = await browser.newContext({ baseURL: BASE_URL });
  try {
    const adminPage = await agency.newPage();
    const login = await adminPage.request.post('/api/admin/login', {
      data: { username: ADMIN.username, password: ADMIN.password },
    });
    expect(login.status()).toBe(200);
    const view = new AdminClientViewPage(adminPage);
    await view.open(client.id);
    await view.waitForLoaded();
    // A second visit within half an hour is the same visit.
    await adminPage.reload();
    await view.waitForLoaded();
  } finally {
    await agency.close();
  }
  const activity = new ActivityTabPage(page);
  await activity.open();
  await activity.action.selectOption({ label: 'Agency viewed the dashboard' });
  await expect(activity.rows).toHaveCount(1);
  await expect(activity.rows.first()).toContainText(`${ADMIN.name} (agency)`);
  await expect(activity.rows.first()).toContainText(`Admin: ${ADMIN.username}`);
});
