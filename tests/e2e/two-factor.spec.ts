/**
 * Two-factor sign-in: an Owner sets it up in Settings › Security (QR code, the key by
 * hand, a code computed here from that key), gets ten recovery codes once, and then signs in with
 * the password and a code from the same key. An admin does the same in the console's Support Tools.
 */
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { generate } from 'otplib';
import { AdminLoginPage } from './pages/admin-login-page';
import { ClientLoginPage } from './pages/client-login-page';
import { loginAsNewClient } from './pages/settings-page';
import { TwoFactorCardPage, TwoFactorLoginStep } from './pages/two-factor';
import { expectNoSeriousA11yViolations } from './support/axe';
import { ADMIN } from './support/env';
import { screenshotBothWidths } from './support/screenshots';

test.use({ contextOptions: { reducedMotion: 'reduce' } });

/** The code of the step `stepsAhead` steps from now (the server takes one step either way). */
const codeAt = (secret: string, stepsAhead = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });

test('an Owner sets up two-factor sign-in and signs in with a code', async ({ page, request }) => {
  const client = await loginAsNewClient(page, request, 'two-factor');
  const card = new TwoFactorCardPage(page);
  await card.open();
  await expect(card.status).toHaveText('Off');
  // Requiring it of everyone waits until the Owner has it.
  await expect(card.requireForEveryone).toBeDisabled();

  const secret = await card.startSetup();
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await screenshotBothWidths(page, 'two-factor-setup');
  await expectNoSeriousA11yViolations(page, 'two-factor set-up dialog (desktop)');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSeriousA11yViolations(page, 'two-factor set-up dialog (phone)');
  await page.setViewportSize({ width: 1280, height: 900 });

  await card.code.fill('000000');
  await card.turnOn.click();
  await expect(card.dialog.getByRole('alert')).toContainText('That code is not valid');
  await card.code.fill(await codeAt(secret));
  await card.turnOn.click();
  await expect(card.recoveryCodes).toHaveCount(10);
  await expect(card.dialog.getByRole('button', { name: 'Download' })).toBeVisible();
  await screenshotBothWidths(page, 'two-factor-recovery-codes');
  await expectNoSeriousA11yViolations(page, 'two-factor recovery codes');
  await card.done.click();
  await expect(card.status).toHaveText('On');
  await expect(card.requireForEveryone).toBeEnabled();

  // Signed out, the password alone no longer signs in: the code step follows.
  await page.request.post('/api/client/logout');
  const login = new ClientLoginPage(page);
  await login.open();
  await login.login(client.email, client.password);
  const step = new TwoFactorLoginStep(page);
  await expect(step.prompt).toBeVisible();
  await expect(step.code).toBeFocused();
  await expect(step.code).toHaveAttribute('autocomplete', 'one-time-code');
  // The pointer that pressed Sign In now hovers Verify (a lighter blue): axe judges the resting state.
  await page.mouse.move(0, 0);
  await screenshotBothWidths(page, 'two-factor-login-step');
  await expectNoSeriousA11yViolations(page, 'login code step (desktop)');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSeriousA11yViolations(page, 'login code step (phone)');
  await page.setViewportSize({ width: 1280, height: 900 });

  // The enable used this step's code: the next step's is new (and within the server's window).
  await step.code.fill(await codeAt(secret, 1));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('an admin sets up two-factor sign-in in Support Tools and signs in with a code', async ({
  page,
  request,
}) => {
  // A new admin of its own: the seeded one signs other specs in with its password alone.
  expect(
    (
      await request.post('/api/admin/login', { data: { username: ADMIN.username, password: ADMIN.password } })
    ).status(),
  ).toBe(200);
  const username = `tfa-${randomUUID().slice(0, 8)}`;
  const created = await request.post('/api/admin/admins', { data: { username, name: 'Tess Factor' } });
  expect(created.status()).toBe(201);
  const { temporaryPassword } = await created.json();

  const login = new AdminLoginPage(page);
  await login.open();
  await login.login(username, temporaryPassword);
  await expect(page).toHaveURL(/\/admin$/);
  await page.getByRole('tab', { name: 'Support Tools' }).click();
  const card = new TwoFactorCardPage(page);
  await expect(card.status).toHaveText('Off');
  const secret = await card.startSetup();
  await expectNoSeriousA11yViolations(page, 'admin two-factor set-up dialog');
  await card.code.fill(await codeAt(secret));
  await card.turnOn.click();
  await expect(card.recoveryCodes).toHaveCount(10);
  await card.done.click();
  await expect(card.status).toHaveText('On');
  await expect(
    card.card.getByRole('switch', { name: 'Require two-factor sign-in for every administrator' }),
  ).toBeEnabled();

  await page.request.post('/api/admin/logout');
  await login.open();
  await login.login(username, temporaryPassword);
  const step = new TwoFactorLoginStep(page);
  await expect(step.prompt).toBeVisible();
  await step.code.fill(await codeAt(secret, 1));
  await step.verify.click();
  await expect(page).toHaveURL(/\/admin$/);
});
