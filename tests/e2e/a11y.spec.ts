/**
 * Every page and dialog, signed out and signed in, at desktop and phone widths, checked with
 * axe-core: no serious or critical violation anywhere. Keyboard reachability of the main actions
 * is checked beside it.
 */
import { expect, type Page, test } from '@playwright/test';
import { AdminLoginPage } from './pages/admin-login-page';
import { useStripeStandIn } from './pages/checkout-page';
import { DashboardPage } from './pages/dashboard-page';
import { loginAsNewClient } from './pages/settings-page';
import { clientSession, loginClientApi, placeTestCall } from './support/api';
import { expectNoSeriousA11yViolations } from './support/axe';
import { ADMIN, CLIENT } from './support/env';
import { expectToast } from './support/toast';

// Each test checks many pages at two widths.
test.describe.configure({ timeout: 120_000 });
// With reduced motion (which the app honours) no dialog or toast is caught half-faded.
test.use({ contextOptions: { reducedMotion: 'reduce' } });

const WIDTHS = [
  ['desktop', 1280, 900],
  ['phone', 390, 844],
] as const;

/** Runs axe at both widths; `ready` waits for what the page shows once loaded. */
async function checkBothWidths(page: Page, where: string, ready: () => Promise<void>) {
  for (const [label, width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    await ready();
    await expectNoSeriousA11yViolations(page, `${where} (${label})`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The first call: a table row at desktop width, a card on a phone. */
const callRowOrCard = (page: Page) => page.getByTestId(/^call-(row|card)$/).first();

test('public pages: landing, logins, demo and the 404 page', async ({ page }) => {
  await page.goto('/');
  await checkBothWidths(page, 'landing', async () => {
    await expect(page.getByRole('link').first()).toBeVisible();
  });
  await page.goto('/client-login');
  await checkBothWidths(page, 'client login', async () => {
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  });
  // An error toast, checked while it shows: its text sits on the destructive colour.
  await page.getByLabel('Email Address').fill('nobody@example.com');
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expectToast(page, 'Login Failed', 'Invalid email or password');
  await expectNoSeriousA11yViolations(page, 'client login with an error toast');
  await page.goto('/admin-login');
  await checkBothWidths(page, 'admin login', async () => {
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  });
  await page.goto('/demo');
  await checkBothWidths(page, 'demo', async () => {
    await expect(callRowOrCard(page)).toBeVisible();
    await expect(page.getByTestId('calls-chart')).toBeVisible();
  });
  await page.goto('/no-such-page');
  await checkBothWidths(page, '404', async () => {
    await expect(page.getByRole('link').first()).toBeVisible();
  });
});

test('the client dashboard: data, an open transcript, the search box and the delete dialog', async ({
  page,
}) => {
  await loginClientApi(page, CLIENT.email, CLIENT.password);
  const { webhookUrl } = await clientSession(page.request);
  await placeTestCall(page.request, webhookUrl, CLIENT.apiKey, { status: 'completed' });
  const dashboard = new DashboardPage(page);
  await dashboard.open();
  await dashboard.waitForLog();
  await checkBothWidths(page, 'dashboard', async () => {
    await expect(callRowOrCard(page)).toBeVisible();
    await expect(page.getByTestId('calls-chart')).toBeVisible();
  });

  // The chart is one named tab stop, reached from the filter bar by the keyboard.
  const chart = page.getByRole('application', { name: 'Chart of completed calls per day or hour' });
  await expect(chart).toHaveAttribute('tabindex', '0');

  await dashboard.openSearch();
  await checkBothWidths(page, 'dashboard with search', async () => {
    await expect(page.getByRole('searchbox', { name: 'Search calls' })).toBeVisible();
  });

  await dashboard.rows.first().getByRole('button', { name: 'Delete call' }).click();
  await checkBothWidths(page, 'delete dialog', async () => {
    await expect(dashboard.deleteDialog).toBeVisible();
  });
  await page.keyboard.press('Escape');
});

test('settings, every tab, and checkout', async ({ page, request }) => {
  await useStripeStandIn(page);
  await loginAsNewClient(page, request, 'a11y');
  for (const tab of ['account', 'subscription', 'notifications', 'security']) {
    await page.goto(`/settings?tab=${tab}`);
    await checkBothWidths(page, `settings ${tab}`, async () => {
      await expect(page.getByRole('tabpanel')).toBeVisible();
    });
  }
  await page.goto('/settings?tab=security');
  await page.getByRole('button', { name: 'Change Password' }).click();
  await checkBothWidths(page, 'change password dialog', async () => {
    await expect(page.getByRole('dialog')).toBeVisible();
  });
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Rotate Webhook URL' }).click();
  await checkBothWidths(page, 'rotate webhook URL dialog', async () => {
    await expect(page.getByRole('alertdialog')).toBeVisible();
  });
  await page.keyboard.press('Escape');

  await page.goto('/checkout?plan=starter');
  await checkBothWidths(page, 'checkout', async () => {
    await expect(page.getByText('Subscribe to Starter')).toBeVisible();
  });
});

test('admin: the client list, the edit dialog, the wizard and a client view', async ({ page }) => {
  const login = new AdminLoginPage(page);
  await login.open();
  await login.login(ADMIN.username, ADMIN.password);
  await expect(page.getByTestId('client-row').first()).toBeVisible();
  await checkBothWidths(page, 'admin dashboard', async () => {
    await expect(page.getByTestId('client-row').first()).toBeVisible();
  });

  await page
    .getByTestId('client-row')
    .first()
    .getByRole('button', { name: /^Edit / })
    .click();
  await checkBothWidths(page, 'edit client dialog', async () => {
    await expect(page.getByRole('dialog')).toBeVisible();
  });
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Create Client' }).click();
  await checkBothWidths(page, 'create client wizard', async () => {
    await expect(page.getByRole('dialog')).toBeVisible();
  });
  await page.keyboard.press('Escape');

  await page
    .getByTestId('client-row')
    .first()
    .getByRole('button', { name: /^Login as / })
    .click();
  await expect(page).toHaveURL(/\/admin\/client\//);
  await checkBothWidths(page, 'admin client view', async () => {
    await expect(page.getByText('Admin View')).toBeVisible();
    await expect(page.getByTestId('call-log')).toBeVisible();
  });
});
