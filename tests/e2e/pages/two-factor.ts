/**
 * Page models of two-factor sign-in: the card in Settings › Security with its set-up
 * dialog, and the login's code step.
 */
import { expect, type Locator, type Page } from '@playwright/test';

export class TwoFactorCardPage {
  readonly card: Locator;
  readonly status: Locator;
  readonly setUp: Locator;
  readonly dialog: Locator;
  readonly qrCode: Locator;
  readonly manualKey: Locator;
  readonly code: Locator;
  readonly turnOn: Locator;
  readonly recoveryCodes: Locator;
  readonly done: Locator;
  readonly requireForEveryone: Locator;

  constructor(readonly page: Page) {
    this.card = page.getByTestId('two-factor-card');
    this.status = this.card.getByTestId('two-factor-status');
    this.setUp = this.card.getByRole('button', { name: 'Set up two-factor sign-in' });
    this.dialog = page.getByRole('dialog');
    this.qrCode = this.dialog.getByRole('img', { name: 'QR code to scan with your authenticator app' });
    this.manualKey = this.dialog.locator('#two-factor-key');
    this.code = this.dialog.getByLabel('Code from your app');
    this.turnOn = this.dialog.getByRole('button', { name: 'Turn on' });
    this.recoveryCodes = this.dialog.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    this.done = this.dialog.getByRole('button', { name: 'Done' });
    this.requireForEveryone = this.card.getByRole('switch', {
      name: 'Require two-factor sign-in for everyone',
    });
  }

  async open() {
    await this.page.goto('/settings?tab=security');
    await expect(this.status).toBeVisible();
  }

  /** Opens the set-up and answers the secret shown for typing by hand. */
  async startSetup(): Promise<string> {
    await this.setUp.click();
    await expect(this.qrCode).toBeVisible();
    return ((await this.manualKey.textContent()) ?? '').replace(/\s/g, '');
  }
}

export class TwoFactorLoginStep {
  readonly prompt: Locator;
  readonly code: Locator;
  readonly verify: Locator;

  constructor(readonly page: Page) {
    this.prompt = page.getByText('Enter the 6-digit code from your authenticator app, or a recovery code.');
    this.code = page.getByLabel('Authentication code');
    this.verify = page.getByRole('button', { name: /^Verify/ });
  }
}
