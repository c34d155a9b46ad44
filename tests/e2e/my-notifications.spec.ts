/**
 * "My notifications" (issue 36): every signed-in person chooses for themselves, per channel,
 * the account's default, on or off, and a mobile number for texts. The choices survive a reload;
 * the account-wide switches stay below for users holding `notifications` and are not shown to
 * others (the tab itself is open to everyone).
 */
import { expect, test } from '@playwright/test';
import { MyNotificationsCard } from './pages/my-notifications-card';
import { SettingsPage, loginAsNewClient } from './pages/settings-page';
import { expectNoSeriousA11yViolations } from './support/axe';
import { screenshotBothWidths } from './support/screenshots';
import { expectToast } from './support/toast';

test('my notification choices are saved and survive a reload', async ({ page, request }) => {
  await loginAsNewClient(page, request, 'my-notify');
  const mine = new MyNotificationsCard(page);
  const settings = new SettingsPage(page);
  await mine.open();
  // The account's switches are the defaults: e-mail on, texts off (SPEC §3).
  await expect(mine.radio('email', 'default')).toBeChecked();
  await expect(mine.radio('email', 'default')).toHaveAccessibleName('Account default (on)');
  await expect(mine.radio('sms', 'default')).toHaveAccessibleName('Account default (off)');
  // The Owner also sees the account-wide switches.
  await expect(settings.checkbox('Email notifications')).toBeVisible();
  await screenshotBothWidths(page, 'settings-my-notifications');
  await expectNoSeriousA11yViolations(page, 'Settings › Notifications with My notifications');

  // A number that is not one: the field says why, nothing is saved.
  await mine.radio('sms', 'on').check();
  await mine.smsNumber.fill('12345');
  await mine.save.click();
  await expect(mine.card.getByText('Please enter the mobile number in international format')).toBeVisible();
  await expect(mine.smsNumber).toHaveAttribute('aria-invalid', 'true');
  await page.mouse.move(0, 0); // the pressed button's hover shade is not its resting colour
  await expectNoSeriousA11yViolations(page, 'My notifications with a field error');

  await mine.radio('email', 'off').check();
  await mine.smsNumber.fill('+1 415 555 0123');
  await mine.save.click();
  await expectToast(page, 'Notifications Updated', 'Your notification choices have been saved.');

  await page.reload();
  await expect(mine.radio('email', 'off')).toBeChecked();
  await expect(mine.radio('sms', 'on')).toBeChecked();
  await expect(mine.smsNumber).toHaveValue('+14155550123');

  // The account-wide switch moves what "Account default" says.
  await settings.checkbox('SMS notifications').click();
  await settings.savePreferences.click();
  await expectToast(page, 'Notifications Updated', 'Your notification preferences have been saved.');
  await expect(mine.radio('sms', 'default')).toHaveAccessibleName('Account default (on)');
});

test('a person without the notifications permission sees only their own choices', async ({
  page,
  request,
}) => {
  await loginAsNewClient(page, request, 'my-notify-viewer');
  // The browser's view of a Viewer: the session says so (the server refuses the account-wide
  // routes to a real Viewer: tests/api/client-roles.test.ts); their own choices are real requests.
  await page.route('**/api/client/session', async (route) => {
    const response = await route.fetch();
    const session = await response.json();
    await route.fulfill({
      response,
      json: { ...session, user: { ...session.user, role: 'viewer', permissions: ['calls.read'] } },
    });
  });
  const mine = new MyNotificationsCard(page);
  await mine.open();
  await expect(page.getByRole('checkbox', { name: 'Email notifications' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Save Preferences' })).toHaveCount(0);
  await mine.radio('email', 'on').check();
  await mine.save.click();
  await expectToast(page, 'Notifications Updated', 'Your notification choices have been saved.');
  await page.reload();
  await expect(mine.radio('email', 'on')).toBeChecked();
  await screenshotBothWidths(page, 'settings-my-notifications-viewer');
  await expectNoSeriousA11yViolations(page, 'My notifications for a Viewer');
});
