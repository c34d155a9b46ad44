/**
 * Issue 36's "Done means", as one story in Chromium: an Owner invites a Manager and a Viewer (the
 * e-mails arrive at the SMTP stand-in); both accept; the Viewer signs in and sees the caller's number
 * masked; the Manager exports the calls and turns on two-factor sign-in; an agency admin opens the
 * client's dashboard; the Owner's Settings › Activity then shows the Viewer's sign-in, the Manager's
 * export and two-factor, and the admin's view, and filters to each person.
 */
import { randomUUID } from 'node:crypto';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { generate } from 'otplib';
import { maskPhoneNumber } from '../../src/contract/phone-mask';
import { ActivityTabPage } from './pages/activity-tab';
import { AdminClientViewPage } from './pages/admin-client-view-page';
import { ClientLoginPage } from './pages/client-login-page';
import { DashboardPage } from './pages/dashboard-page';
import { onboardClient } from './pages/settings-page';
import { TwoFactorCardPage } from './pages/two-factor';
import { AcceptInvitePage, UsersTab } from './pages/users-tab';
import { placeTestCall } from './support/api';
import { ADMIN } from './support/env';
import { acceptInviteLinkFor } from './support/mailbox';
import { expectToast } from './support/toast';

test.use({ contextOptions: { reducedMotion: 'reduce' } });

const PASSWORD = 'walkthrough password';
const CALLER = '+13125550142';

async function newPage(browser: Browser): Promise<Page> {
  return (await browser.newContext({ reducedMotion: 'reduce' })).newPage();
}

async function joinByLink(browser: Browser, link: string, name: string): Promise<Page> {
  const page = await newPage(browser);
  await page.goto(link);
  await new AcceptInvitePage(page).accept(name, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  return page;
}

test('an Owner’s team, end to end: invitations, masked numbers, an export, two-factor, and the Activity log', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const owner = await onboardClient(request, 'walkthrough');
  await placeTestCall(request, owner.webhookUrl, undefined, { status: 'completed', from: CALLER });

  // The Owner invites a Manager and a Viewer.
  const login = new ClientLoginPage(page);
  await login.open();
  await login.login(owner.email, owner.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  const tag = randomUUID().slice(0, 6);
  const manager = { email: `walk-manager-${tag}@example.com`, name: 'Mona Manager' };
  const viewer = { email: `walk-viewer-${tag}@example.com`, name: 'Val Viewer' };
  const users = new UsersTab(page);
  await users.open();
  for (const [person, role] of [
    [manager, 'Manager'],
    [viewer, 'Viewer'],
  ] as const) {
    await users.openInvite();
    await users.fillInvite({ email: person.email, role });
    await users.sendInvite();
    await expectToast(page, 'Invitation sent', person.email);
  }

  // Both accept by the e-mailed link; the Viewer then signs in again with the login form.
  const managerPage = await joinByLink(
    browser,
    await acceptInviteLinkFor(request, manager.email),
    manager.name,
  );
  await joinByLink(browser, await acceptInviteLinkFor(request, viewer.email), viewer.name);
  const viewerPage = await newPage(browser);
  const viewerLogin = new ClientLoginPage(viewerPage);
  await viewerLogin.open();
  await viewerLogin.login(viewer.email, PASSWORD);
  await expect(viewerPage).toHaveURL(/\/dashboard$/);

  // The Viewer's log shows the caller masked, never in full; and offers no export.
  const viewerDashboard = new DashboardPage(viewerPage);
  await viewerDashboard.waitForLog();
  const log = viewerPage.getByTestId('call-log');
  await expect(log).toContainText(maskPhoneNumber(CALLER));
  await expect(log).not.toContainText('312 555 0142');
  await expect(viewerPage.getByRole('link', { name: /Export these calls/ })).toHaveCount(0);

  // The Manager exports the calls as CSV, then turns on two-factor sign-in.
  const download = managerPage.waitForEvent('download');
  await managerPage.getByRole('link', { name: 'Export these calls as CSV' }).click();
  expect((await download).suggestedFilename()).toMatch(/\.csv$/);
  const twoFactor = new TwoFactorCardPage(managerPage);
  await twoFactor.open();
  const secret = await twoFactor.startSetup();
  await twoFactor.code.fill(await generate({ secret }));
  await twoFactor.turnOn.click();
  await expect(twoFactor.recoveryCodes).toHaveCount(10);
  await twoFactor.done.click();
  await expect(twoFactor.status).toHaveText('On');

  // An agency admin opens the client's dashboard.
  const adminPage = await newPage(browser);
  const adminLogin = await adminPage.request.post('/api/admin/login', {
    data: { username: ADMIN.username, password: ADMIN.password },
  });
  expect(adminLogin.status()).toBe(200);
  const adminView = new AdminClientViewPage(adminPage);
  await adminView.open(owner.id);
  await adminView.waitForLoaded();

  // The Owner's Activity shows all of it, each line under its person.
  const activity = new ActivityTabPage(page);
  await activity.open();
  await expect(activity.row(viewer.name).filter({ hasText: 'Signed in' }).first()).toBeVisible();
  await expect(activity.row(manager.name).filter({ hasText: 'Exported' })).toHaveCount(1);
  await expect(activity.row(manager.name).filter({ hasText: 'Turned on two-factor sign-in' })).toHaveCount(1);
  await expect(activity.row('Agency viewed the dashboard')).toContainText(ADMIN.username);

  // Filtered to the Manager, only the Manager's lines remain.
  await activity.person.selectOption({ label: manager.name });
  await expect(activity.row(viewer.name)).toHaveCount(0);
  await expect(activity.row(manager.name).first()).toBeVisible();
});
