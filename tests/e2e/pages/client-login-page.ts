import { expect, type Locator, type Page } from '@playwright/test';

export class ClientLoginPage {
  readonly email: Locator;
  readonly password: Locator;
  readonly submit: Locator;

  constructor(readonly page: Page) {
    this.email = page.getByLabel('Email Address');
    this.password = page.getByPlaceholder('Enter your password');
    this.submit = page.getByRole('button', { name: /^Sign In|Signing In\.\.\.$/ });
  }

  async open() {
    await this.page.goto('/client-login');
    await expect(this.page.getByText('Client Dashboard Login')).toBeVisible();
  }

  async login(email: string, password: string) {
    await this.email.fill(email);
    await this.password.fill(password);
    await this.submit.click();
  }

  /** The first sign-in with the agency's password: /choose-password, then the dashboard. */
  async chooseOwnPassword(temporaryPassword: string, ownPassword: string) {
    await expect(this.page).toHaveURL(/\/choose-password$/);
    await expect(this.page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await this.page.getByLabel('Temporary password').fill(temporaryPassword);
    await this.page.getByLabel('New password', { exact: true }).fill(ownPassword);
    await this.page.getByLabel('Confirm new password').fill(ownPassword);
    await this.page.getByRole('button', { name: 'Save and continue' }).click();
    await expect(this.page).toHaveURL(/\/dashboard$/);
  }
}
