/** Page model of Settings › Notifications › "My notifications" (issue 36): the person's own choices. */
import { type Locator, type Page, expect } from '@playwright/test';

type Channel = 'email' | 'sms';
type Choice = 'default' | 'on' | 'off';

const LEGENDS: Record<Channel, string> = { email: 'E-mail', sms: 'Text messages (SMS)' };
const LABELS: Record<Choice, RegExp> = { default: /^Account default/, on: /^On$/, off: /^Off$/ };

export class MyNotificationsCard {
  readonly card: Locator;
  readonly smsNumber: Locator;
  readonly save: Locator;

  constructor(readonly page: Page) {
    this.card = page.getByTestId('my-notifications');
    this.smsNumber = this.card.getByLabel('Mobile number for texts');
    this.save = this.card.getByRole('button', { name: 'Save my choices' });
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
