import { type Locator, type Page, expect } from '@playwright/test';

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
}
