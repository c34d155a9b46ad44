/**
 * "My notifications": every signed-in person chooses for themselves, per channel,
 * the account's default, on or off, and a mobile number for texts. The choices survive a reload;
 * the account-wide switches sit below in the same panel for users holding `notifications` and are
 * not shown to others (the tab itself is open to everyone); the panel has one Save for both. Texts go to a number only once a code texted to
 * it is confirmed; people without `receive_texts` choose e-mail only.
 */
import { expect, test } from '@playwright/test';
import { type MyNotifications, SMS_NUMBER_MESSAGES } from '../../src/contract/notification-choices';
import { MyNotificationsCard } from './pages/my-notifications-card';
import { loginAsNewClient, SettingsPage } from './pages/settings-page';
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
  await mine.save.click();
  await expectToast(page, 'Notifications Updated', 'Your notification preferences have been saved.');
  await expect(mine.radio('sms', 'default')).toHaveAccessibleName('Account default (on)');
});

test('one panel with one Save sends both my choices and the account switches', async ({ page, request }) => {
  await loginAsNewClient(page, request, 'my-notify-one-save');
  const mine = new MyNotificationsCard(page);
  const settings = new SettingsPage(page);
  await mine.open();
  // One panel, one button that saves: the account's switches are a section of it.
  await expect(page.getByTestId('notifications-panel')).toHaveCount(1);
  await expect(mine.panel.getByRole('heading', { name: 'My notifications' })).toBeVisible();
  await expect(mine.panel.getByRole('heading', { name: 'Notification Preferences' })).toBeVisible();
  await expect(mine.panel.getByRole('checkbox', { name: 'Email notifications' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Save (Preferences|my choices)$/ })).toHaveCount(1);

  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT' && /\/api\/client\/(me\/)?notifications$/.test(r.url()))
      sent.push(new URL(r.url()).pathname);
  });
  await mine.radio('email', 'off').check();
  await settings.checkbox('Monthly reports').click();
  await mine.save.click();
  await expectToast(page, 'Notifications Updated', 'Your notification preferences have been saved.');
  expect(sent.sort()).toEqual(['/api/client/me/notifications', '/api/client/notifications']);

  // Only what changed is sent.
  sent.length = 0;
  await settings.checkbox('Webhook notifications').click();
  await mine.save.click();
  await expectToast(page, 'Notifications Updated', 'Your notification preferences have been saved.');
  expect(sent).toEqual(['/api/client/notifications']);

  await page.reload();
  await expect(mine.radio('email', 'off')).toBeChecked();
  await expect(settings.checkbox('Monthly reports')).not.toBeChecked();
  await expect(settings.checkbox('Webhook notifications')).not.toBeChecked();
  await screenshotBothWidths(page, 'settings-notifications-one-panel');
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
  await expect(mine.panel.getByRole('heading', { name: 'Notification Preferences' })).toHaveCount(0);
  await mine.radio('email', 'on').check();
  await mine.save.click();
  await expectToast(page, 'Notifications Updated', 'Your notification choices have been saved.');
  await page.reload();
  await expect(mine.radio('email', 'on')).toBeChecked();
  await screenshotBothWidths(page, 'settings-my-notifications-viewer');
  await expectNoSeriousA11yViolations(page, 'My notifications for a Viewer');
});

test('a number gets texts only once the code texted to it is confirmed', async ({ page, request }) => {
  await loginAsNewClient(page, request, 'my-notify-verify');
  // The e2e server sends no texts (no Twilio): the person's state and the code routes are played
  // here; the server side is tests/api/sms-verification.test.ts.
  let state: MyNotifications = {
    email: 'default',
    sms: 'on',
    smsNumber: '+14155550123',
    smsTo: '+14155550123',
    smsVerified: false,
    smsCodePending: false,
    smsAllowed: true,
    defaults: { email: true, sms: false },
    channels: { email: true, sms: true },
  };
  await page.route('**/api/client/me/notifications', (route) =>
    route.request().method() === 'GET' ? route.fulfill({ json: state }) : route.fallback(),
  );
  await page.route('**/api/client/me/notifications/sms-code', (route) => {
    state = { ...state, smsCodePending: true };
    return route.fulfill({ json: state });
  });
  await page.route('**/api/client/me/notifications/sms-code/confirm', (route) => {
    if (route.request().postDataJSON().code !== '123456')
      return route.fulfill({
        status: 400,
        json: { message: SMS_NUMBER_MESSAGES.codeWrong, fields: { code: SMS_NUMBER_MESSAGES.codeWrong } },
      });
    state = { ...state, smsVerified: true, smsCodePending: false };
    return route.fulfill({ json: state });
  });
  const mine = new MyNotificationsCard(page);
  await mine.open();
  await expect(mine.verification).toContainText('Not verified yet: no texts go to +14155550123');
  await mine.sendCode.click();
  await expectToast(page, 'Code Sent', SMS_NUMBER_MESSAGES.codeSent);
  await mine.code.fill('000000');
  await mine.confirmCode.click();
  await expect(mine.card.getByRole('alert')).toHaveText(SMS_NUMBER_MESSAGES.codeWrong);
  await expect(mine.code).toHaveAttribute('aria-invalid', 'true');
  await page.mouse.move(0, 0);
  await screenshotBothWidths(page, 'settings-my-notifications-code');
  await expectNoSeriousA11yViolations(page, 'My notifications with a code to confirm');
  await mine.code.fill('123456');
  await mine.confirmCode.click();
  await expectToast(page, 'Number Verified', SMS_NUMBER_MESSAGES.verified);
  await expect(mine.card.getByTestId('sms-verified')).toHaveText(
    '+14155550123 is verified: texts can go to it.',
  );
  // Typing another number asks to save it before verifying it.
  await mine.smsNumber.fill('+1 415 555 0199');
  await expect(mine.verification).toContainText('Save your new number, then verify it with a code.');
});

test('a person without receive_texts chooses e-mail only', async ({ page, request }) => {
  await loginAsNewClient(page, request, 'my-notify-no-texts');
  // The browser's view of a person without receive_texts (the server's side:
  // tests/api/sms-verification.test.ts); the save itself is real and sends e-mail only.
  await page.route('**/api/client/me/notifications', async (route) => {
    const body = route.request().postDataJSON();
    if (body) expect(Object.keys(body)).toEqual(['email']);
    const response = await route.fetch();
    return route.fulfill({ response, json: { ...(await response.json()), smsAllowed: false } });
  });
  const mine = new MyNotificationsCard(page);
  await mine.open();
  await expect(mine.card.getByRole('group', { name: 'Text messages (SMS)' })).toHaveCount(0);
  await expect(mine.smsNumber).toHaveCount(0);
  await expect(mine.card).toContainText('Text messages are for people whose role allows them');
  await mine.radio('email', 'off').check();
  await mine.save.click();
  await expectToast(page, 'Notifications Updated', 'Your notification choices have been saved.');
  await expect(mine.smsNumber).toHaveCount(0);
  await screenshotBothWidths(page, 'settings-my-notifications-no-texts');
});
