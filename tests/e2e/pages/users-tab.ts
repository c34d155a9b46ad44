/** Page model of Settings › Users and of the Invite user dialog. */
import { expect, type Locator, type Page } from '@playwright/test';

export class UsersTab {
  readonly inviteButton: Locator;
  readonly dialog: Locator;

  constructor(readonly page: Page) {
    this.inviteButton = page.getByRole('button', { name: 'Invite user' });
    this.dialog = page.getByRole('dialog', { name: 'Invite user' });
  }

  async open() {
    await this.page.goto('/settings?tab=users');
    await expect(this.page.getByRole('heading', { name: 'Users', level: 2 })).toBeVisible();
  }

  /** A user's row (wide screens) or card (phones), found by e-mail. */
  entry(email: string): Locator {
    return this.page
      .locator('[data-testid="user-row"], [data-testid="user-card"]')
      .filter({ hasText: email });
  }

  async openInvite() {
    await this.inviteButton.click();
    await expect(this.dialog).toBeVisible();
  }

  async fillInvite(invite: {
    email: string;
    name?: string;
    role: 'Owner' | 'Manager' | 'Viewer';
    extras?: string[];
  }) {
    await this.dialog.getByLabel('E-mail').fill(invite.email);
    if (invite.name) await this.dialog.getByLabel('Name').fill(invite.name);
    await this.dialog.getByLabel('Role').selectOption({ label: invite.role });
    for (const extra of invite.extras ?? []) await this.dialog.getByLabel(extra).check();
  }

  async sendInvite() {
    await this.dialog.getByRole('button', { name: 'Send invitation' }).click();
  }
}

/** Page model of /accept-invite. */
export class AcceptInvitePage {
  readonly name: Locator;
  readonly password: Locator;
  readonly confirm: Locator;
  readonly submit: Locator;

  constructor(readonly page: Page) {
    this.name = page.getByLabel('Your name');
    this.password = page.getByLabel(/^(New password|Password)/);
    this.confirm = page.getByLabel(/^Confirm password/);
    this.submit = page.getByRole('button', { name: /Join and sign in|Set password and sign in/ });
  }

  async accept(name: string, password: string) {
    await this.name.fill(name);
    await this.password.fill(password);
    await this.confirm.fill(password);
    await this.submit.click();
  }
}
