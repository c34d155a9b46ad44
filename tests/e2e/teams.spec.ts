/**
 * Client teams in Chromium: an Owner invites a Manager and a Viewer from Settings ›
 * Users; the invitation e-mails arrive at the SMTP stand-in; each opens the link, sets a name and
 * password and lands signed in on the dashboard. The Viewer is not offered Subscription, Users,
 * export or sync (and the server refuses billing with 403); the Manager exports and syncs. A used
 * link says so and points at sign-in. Screenshots and axe: the Users tab, the invite dialog, the
 * accept page.
 */
import { randomUUID } from 'node:crypto';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { AdminClientViewPage } from './pages/admin-client-view-page';
import { ClientLoginPage } from './pages/client-login-page';
import { onboardClient, SettingsPage } from './pages/settings-page';
import { AcceptInvitePage, UsersTab } from './pages/users-tab';
import { expectNoSeriousA11yViolations } from './support/axe';
import { ADMIN } from './support/env';
import { acceptInviteLinkFor } from './support/mailbox';
import { screenshotBothWidths } from './support/screenshots';
import { expectToast } from './support/toast';

const PASSWORD = 'team member password';

/** Opens the link in a browser of its own (a different person), accepts it, lands on the dashboard. */
async function acceptIn(browser: Browser, link: string, name: string, shoot?: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(link);
  // The page names the inviting company (from the link), not "your team".
  await expect(page.getByRole('heading', { name: /^Join (?!your team)\S/ })).toBeVisible();
  if (shoot) {
    await screenshotBothWidths(page, shoot);
    await expectNoSeriousA11yViolations(page, 'the accept-invite page');
  }
  await new AcceptInvitePage(page).accept(name, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('client-email')).toBeVisible();
  return page;
}

test('an Owner invites a Manager and a Viewer; each joins by the e-mailed link and sees only what the role allows', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const owner = await onboardClient(request, 'teams');
  const login = new ClientLoginPage(page);
  await login.open();
  await login.login(owner.email, owner.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  // The account's own login is the Owner: everything as before.
  await expect(page.getByRole('button', { name: 'Sync calls', exact: true })).toBeVisible();

  const users = new UsersTab(page);
  await users.open();
  await expect(users.entry(owner.email)).toContainText('Owner');
  await expect(users.entry(owner.email)).toContainText('(you)');
  // Nobody deactivates or removes themselves: the own row offers neither.
  await expect(users.entry(owner.email).getByRole('button', { name: /^Edit access of / })).toBeVisible();
  await expect(users.entry(owner.email).getByRole('button', { name: /^(Deactivate|Remove) / })).toHaveCount(
    0,
  );

  const tag = randomUUID().slice(0, 6);
  const manager = `manager-${tag}@example.com`;
  const viewer = `viewer-${tag}@example.com`;
  await users.openInvite();
  await users.fillInvite({ email: manager, name: 'Maria Manager', role: 'Manager' });
  await screenshotBothWidths(page, 'teams-invite-dialog');
  await expectNoSeriousA11yViolations(page, 'the invite dialog');
  await users.sendInvite();
  await expectToast(page, 'Invitation sent', manager);
  await expect(users.dialog).toBeHidden();

  await users.openInvite();
  await users.fillInvite({ email: viewer, role: 'Viewer' });
  await users.sendInvite();
  await expectToast(page, 'Invitation sent', viewer);

  // The same address again: the server's refusal, in its words, in the dialog.
  await users.openInvite();
  await users.fillInvite({ email: viewer, role: 'Viewer' });
  await users.sendInvite();
  await expect(users.dialog.getByRole('alert')).toHaveText(
    'This e-mail address already belongs to a person of this account, or is invited; choose another',
  );
  await users.dialog.getByRole('button', { name: 'Cancel' }).click();

  await expect(users.entry(manager)).toContainText('Invited');
  await expect(users.entry(viewer)).toContainText('Viewer');
  await expect(users.entry(viewer).getByRole('button', { name: /^Remove / })).toBeVisible();
  await screenshotBothWidths(page, 'teams-users-tab');
  await expectNoSeriousA11yViolations(page, 'Settings › Users');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('user-card')).toHaveCount(3);
  await page.setViewportSize({ width: 1280, height: 900 });

  // The Manager: joins by the link, exports and syncs, but has no Subscription or Users tab.
  const managerLink = await acceptInviteLinkFor(request, manager);
  const managerPage = await acceptIn(browser, managerLink, 'Maria Manager', 'teams-accept-invite');
  await expect(managerPage.getByRole('button', { name: 'Sync calls', exact: true })).toBeVisible();
  await expect(managerPage.getByRole('link', { name: /Export these calls as CSV/ })).toBeVisible();
  const managerSettings = new SettingsPage(managerPage);
  await managerSettings.open();
  await expect(managerPage.getByRole('tab', { name: 'Outcomes' })).toBeVisible();
  await expect(managerPage.getByRole('tab', { name: 'Subscription' })).toHaveCount(0);
  await expect(managerPage.getByRole('tab', { name: 'Users' })).toHaveCount(0);

  // A used link says so and points at sign-in.
  await managerPage.goto(managerLink);
  await new AcceptInvitePage(managerPage).accept('Maria Again', PASSWORD);
  await expect(managerPage.getByTestId('invite-dead-link')).toContainText('not valid');
  await expect(managerPage.getByRole('link', { name: 'Go to sign in' })).toBeVisible();

  // The Viewer: joins, sees calls but no sync, no export, no Subscription or Users.
  const viewerLink = await acceptInviteLinkFor(request, viewer);
  const viewerPage = await acceptIn(browser, viewerLink, 'Vic Viewer');
  // The header names who is signed in: the Viewer, not the account's Owner.
  await expect(viewerPage.getByTestId('client-email')).toHaveText(viewer);
  await expect(viewerPage.getByRole('button', { name: 'Sync calls', exact: true })).toHaveCount(0);
  await expect(viewerPage.getByRole('button', { name: 'Search calls' })).toBeVisible();
  await expect(viewerPage.getByRole('link', { name: /Export these calls/ })).toHaveCount(0);
  const viewerSettings = new SettingsPage(viewerPage);
  await viewerSettings.open();
  await expect(viewerPage.getByRole('tab')).toHaveText(['Notifications', 'Security']);
  await viewerSettings.open('?tab=subscription');
  await expect(viewerPage.getByTestId('missing-permission')).toHaveText(
    'Your role does not include billing and the subscription. Ask an Owner of this account if you need it.',
  );
  // The server refuses what the browser hides.
  const billing = await viewerPage.request.get('/api/client/subscription');
  expect(billing.status()).toBe(403);
  expect((await billing.json()).message).toContain('billing');

  // The Viewer signs in again with the login form, like any user.
  const again = await (await browser.newContext()).newPage();
  const viewerLogin = new ClientLoginPage(again);
  await viewerLogin.open();
  await viewerLogin.login(viewer, PASSWORD);
  await expect(again).toHaveURL(/\/dashboard$/);
  await expect(again.getByRole('button', { name: 'Sync calls', exact: true })).toHaveCount(0);

  // Back at the Owner's list both are active now.
  await users.open();
  await expect(users.entry(manager)).toContainText('Active');
  await expect(users.entry(viewer)).toContainText('Vic Viewer');
});

test('an unknown invitation link says so and offers sign-in', async ({ page }) => {
  await page.goto('/accept-invite?token=not-a-real-token');
  await new AcceptInvitePage(page).accept('Nobody', PASSWORD);
  await expect(page.getByTestId('invite-dead-link')).toContainText('This invitation link is not valid');
  await page.getByRole('link', { name: 'Go to sign in' }).click();
  await expect(page).toHaveURL(/\/client-login$/);
});

test('the agency sees a client’s users and e-mails the Owner a link to set a new password', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(60_000);
  // onboardClient leaves `request` signed in as the admin.
  const owner = await onboardClient(request, 'reset');
  await page.request.post('/api/admin/login', {
    data: { username: ADMIN.username, password: ADMIN.password },
  });
  const view = new AdminClientViewPage(page);
  await view.open(owner.id);
  await view.waitForLoaded();
  await expect(view.users).toContainText(owner.email);
  await expect(view.users).toContainText('Owner');
  // The setup signed in once with the agency's password to choose the Owner's own.
  await expect(view.users).toContainText('Last sign-in');
  await expect(view.users).not.toContainText('Never');

  await view.users.getByRole('button', { name: /^Reset password of/ }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Send a new password link' });
  await expect(confirm).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the admin reset-password confirmation');
  await confirm.getByRole('button', { name: 'Send link' }).click();
  await expectToast(page, 'Password link sent', owner.email);
  await view.users.scrollIntoViewIfNeeded();
  await screenshotBothWidths(page, 'teams-admin-client-users');

  const link = await acceptInviteLinkFor(request, owner.email);
  expect(link).toContain('&reset=1');
  const ownerPage = await (await browser.newContext()).newPage();
  await ownerPage.goto(link);
  await expect(ownerPage.getByRole('heading', { name: 'Set a new password' })).toBeVisible();
  await expect(ownerPage.getByLabel('Your name')).toHaveCount(0);
  const form = new AcceptInvitePage(ownerPage);
  await form.password.fill('a fresh owner password');
  await form.confirm.fill('a fresh owner password');
  await form.submit.click();
  await expect(ownerPage).toHaveURL(/\/dashboard$/);
  // The Owner's look, as before: sync is offered.
  await expect(ownerPage.getByRole('button', { name: 'Sync calls', exact: true })).toBeVisible();
});
