/**
 * The agency's voice platform is its supplier: a client's pages (dashboard, call drawer, Quality
 * tab, every Settings tab) never name it or its terms unless the agency turns "show platform
 * details" on for that client, and then they show SPEC's texts. The key stays the agency's by
 * default: the Update API Key button says so. Screenshots at both widths, off and on.
 */
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { CallDrawer } from './pages/call-drawer';
import { DashboardPage } from './pages/dashboard-page';
import { SettingsPage } from './pages/settings-page';
import { loginClientApi } from './support/api';
import { ADMIN } from './support/env';
import { QUALITY_CALLS, QUALITY_CLIENT } from './support/quality-seed';
import { screenshotBothWidths } from './support/screenshots';

test.describe.configure({ mode: 'serial' });

const PLATFORM_WORDS = /Bland|Vapi|Retell|Pathway|X-Webhook-Signature/i;

async function setShowPlatformDetails(request: APIRequestContext, on: boolean) {
  const login = await request.post('/api/admin/login', { data: ADMIN });
  expect(login.status()).toBe(200);
  const clients = (await (await request.get('/api/admin/clients')).json()) as { id: string; email: string }[];
  const client = clients.find((c) => c.email === QUALITY_CLIENT.email);
  if (!client) throw new Error('no quality client');
  const saved = await request.put(`/api/admin/client-config/${client.id}`, {
    data: { showPlatformDetails: on },
  });
  expect(saved.status()).toBe(200);
}

async function firstCallId(page: Page): Promise<string> {
  const answer = await page.request.get('/api/client/calls?status=all&limit=100');
  const { calls } = (await answer.json()) as { calls: { id: string; providerCallId: string }[] };
  const call = calls.find((c) => c.providerCallId === QUALITY_CALLS.SLOW_SILENT);
  if (!call) throw new Error('no seeded call');
  return call.id;
}

/** The text a person sees on each client page, one entry per page. */
async function crawlClientPages(page: Page, shots: string | null): Promise<Record<string, string>> {
  const seen: Record<string, string> = {};
  // What is rendered and shown, not the DOM's text: hidden text is not what a person reads.
  // biome-ignore lint/performance/useDomNodeTextContent: the visible text is the point
  const visible = () => page.locator('body').innerText();
  const dashboard = new DashboardPage(page);
  await dashboard.open();
  await expect(page.getByTestId('call-filter-bar')).toBeVisible();
  await expect(page.getByTestId('call-card').or(page.getByRole('row')).first()).toBeVisible();
  seen.dashboard = await visible();
  if (shots) await screenshotBothWidths(page, `${shots}-dashboard`);

  const drawer = new CallDrawer(page);
  await drawer.open(await firstCallId(page));
  // Every figure and how the call was timed, behind the quality line's "Details".
  await page.getByTestId('call-quality-details').getByText('Details', { exact: true }).click();
  await expect(page.getByTestId('call-quality-precision').first()).toBeVisible();
  seen.drawer = await visible();
  if (shots) await screenshotBothWidths(page, `${shots}-drawer`);

  await page.goto('/dashboard?view=quality');
  await expect(page.getByTestId('quality-precision')).toBeVisible();
  seen.quality = await visible();

  const settings = new SettingsPage(page);
  await settings.open();
  const tabs = [
    'Account',
    'Subscription',
    'Outcomes',
    'Notifications',
    'Security',
    'Privacy',
    'Users',
    'Activity',
  ];
  for (const tab of tabs) {
    const tabButton = page.getByRole('tab', { name: tab });
    await tabButton.click();
    await expect(tabButton).toHaveAttribute('aria-selected', 'true');
    if (tab === 'Security') await expect(page.getByTestId('api-key-status')).toBeVisible();
    if (tab === 'Privacy') await expect(page.getByTestId('platform-settings')).toBeVisible();
    seen[`settings ${tab}`] = await visible();
    if (shots && (tab === 'Security' || tab === 'Privacy'))
      await screenshotBothWidths(page, `${shots}-settings-${tab.toLowerCase()}`);
  }
  return seen;
}

test('with platform details off, no client page names the platform or its terms', async ({
  page,
  request,
}) => {
  await setShowPlatformDetails(request, false);
  await loginClientApi(page, QUALITY_CLIENT.email, QUALITY_CLIENT.password);
  const seen = await crawlClientPages(page, 'platform-details-off');
  for (const [where, text] of Object.entries(seen)) expect(text, where).not.toMatch(PLATFORM_WORDS);
  expect(seen.dashboard).toContain('Call type');
  // The key is the agency's: SPEC's button stays, says so, and cannot be used.
  expect(seen['settings Security']).toContain('Your agency manages this key.');
  await new SettingsPage(page).tab('Security').click();
  await expect(page.getByRole('button', { name: 'Update API Key' })).toBeDisabled();
});

test('with platform details on, the client sees SPEC’s texts naming the platform', async ({
  page,
  request,
}) => {
  await setShowPlatformDetails(request, true);
  try {
    await loginClientApi(page, QUALITY_CLIENT.email, QUALITY_CLIENT.password);
    const seen = await crawlClientPages(page, 'platform-details-on');
    expect(seen.dashboard).toContain('Pathway');
    expect(seen.quality).toMatch(/\((Retell|Vapi|Bland)\)/);
    expect(seen['settings Security']).toMatch(/(Bland AI|Vapi|Retell AI) API Key/);
    expect(seen['settings Privacy']).toContain('The voice platform’s own copy');
  } finally {
    await setShowPlatformDetails(request, false);
  }
});
