/**
 * Page model of Settings › Notifications: the one panel, its "My notifications" section (the
 * person's own choices) and the panel's one Save.
 */
import { expect, type Locator, type Page } from '@playwright/test';

type Channel = 'email' | 'sms';
type Choice = 'default' | 'on' | 'off';

const LEGENDS: Record<Channel, string> = { email: 'E-mail', sms: 'Text messages (SMS)' };
const LABELS: Record<Choice, RegExp> = { default: /^Account default/, on: /^On$/, off: /^Off$/ };

export class MyNotificationsCard {
  /** The whole panel: My notifications, then the account-wide switches for those who may. */
  readonly panel: Locator;
  readonly card: Locator;
  readonly smsNumber: Locator;
  readonly save: Locator;
  /** Verifying the number: the button that texts a code, the code's field, its confirm button. */
  readonly verification: Locator;
  readonly sendCode: Locator;
  readonly code: Locator;
  readonly confirmCode: Locator;

  constructor(readonly page: Page) {
    this.panel = page.getByTestId('notifications-panel');
    this.card = page.getByTestId('my-notifications');
    this.smsNumber = this.card.getByLabel('Mobile number for texts');
    this.save = this.panel.getByRole('button', { name: 'Save Preferences' });
    this.verification = this.card.getByTestId('sms-verification');
    this.sendCode = this.card.getByRole('button', { name: /^Text me (a|a new) code$/ });
    this.code = this.card.getByLabel('Code from the text');
    this.confirmCode = this.card.getByRole('button', { name: 'Confirm' });
  }

  async open() {
    await this.page.goto('/settings?tab=notifications');
    await expect(this.card.getByText('My notifications', { exact: true })).toBeVisible();
    await expect(this.radio('email', 'default')).toBeVisible();
  }

  radio(channel: Channel, choice: Choice): Locator {
    return this.card
      .getByRole('group', { name: LEGENDS[channel] })
      .getByRole('radio', { name: LABELS[choice] });
  }
}
