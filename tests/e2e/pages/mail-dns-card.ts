/**
 * The Brand tab's "Mail from your domain" card: the SPF, DKIM and DMARC records with
 * their copy fields, the "Check DNS" button and each record's status after a check.
 */
import type { Locator, Page } from '@playwright/test';

export type MailDnsPurpose = 'SPF' | 'DKIM' | 'DMARC';

export class MailDnsCard {
  readonly card: Locator;
  readonly check: Locator;

  constructor(readonly page: Page) {
    this.card = page.locator('[data-slot="card"]').filter({
      has: page.getByRole('heading', { name: 'Mail from your domain' }),
    });
    this.check = this.card.getByRole('button', { name: 'Check DNS' });
  }

  record(purpose: MailDnsPurpose): Locator {
    return this.card.getByTestId(`mail-dns-${purpose.toLowerCase()}`);
  }

  /** The value to publish, as its copy field shows it. */
  value(purpose: MailDnsPurpose): Locator {
    return this.card.getByLabel(`${purpose} value`, { exact: true });
  }

  nameField(purpose: MailDnsPurpose): Locator {
    return this.card.getByLabel(`${purpose} name`, { exact: true });
  }

  copyValue(purpose: MailDnsPurpose): Locator {
    return this.card.getByRole('button', { name: `Copy ${purpose} value` });
  }
}
