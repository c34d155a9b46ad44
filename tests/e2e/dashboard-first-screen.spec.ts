/**
 * The dashboard's first screen in one data request: the client dashboard, the admin's
 * view of a client and the demo each ask GET …/dashboard once, beside the session check (which
 * SPEC keeps: fetched on mount, never cached) and the live stream; every other read of the first
 * screen is served from that answer. The screen shows the numbers the separate endpoints give, and
 * a later change of the filters reads the separate endpoints. While that one read is on its way,
 * the page is already drawn with SPEC's loading states (the stats' four skeletons, the chart's and
 * the log's), not held behind the "Loading..." spinner, and nothing else is asked meanwhile.
 */
import { expect, type Page, type Request, test } from '@playwright/test';
import { AdminClientViewPage } from './pages/admin-client-view-page';
import { DashboardPage } from './pages/dashboard-page';
import { clientSession, loginClientApi, placeTestCall } from './support/api';
import { expectNoSeriousA11yViolations } from './support/axe';
import { ADMIN, CLIENT } from './support/env';
import { screenshotBothWidths } from './support/screenshots';

test.describe.configure({ mode: 'serial' });

/** Not data requests of the first screen: the session checks SPEC keeps, and the live streams. */
const NOT_DATA = [/^\/api\/(client|admin)\/session$/, /\/events$/];

/** Collects the page's /api/ requests (path and query) from now on. */
function recordApiRequests(page: Page): { data: () => string[]; all: string[] } {
  const all: string[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) all.push(`${url.pathname}${url.search}`);
  });
  return {
    all,
    data: () => all.filter((u) => !NOT_DATA.some((pattern) => pattern.test(u.split('?')[0] ?? ''))),
  };
}

const paths = (urls: string[]) => urls.map((u) => u.split('?')[0]);

/**
 * Holds the answers to requests whose path matches until `release()`: the first screen's read
 * stays pending for as long as the test looks at the page meanwhile.
 */
async function holdResponses(page: Page, path: RegExp): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    (url) => path.test(url.pathname),
    async (route) => {
      await released;
      await route.continue();
    },
  );
  return release;
}

/** The workspace's loading states while the first screen's read is held: the page is not waiting behind a spinner. */
async function expectLoadingStates(page: Page) {
  await expect(page.getByTestId('stats-loading')).toBeVisible();
  await expect(page.getByTestId('stats-loading').locator('[data-slot="skeleton"]')).toHaveCount(4);
  await expect(page.getByTestId('chart-loading').first()).toBeVisible();
  await expect(page.getByTestId('calls-loading')).toBeVisible();
  await expect(page.getByText('Loading...', { exact: true })).toHaveCount(0);
}

/** What a view's separate stats endpoint answers for the window the one request asked about. */
async function statsOfSameWindow(page: Page, statsPath: string, dashboardUrl: string) {
  const query = new URL(`http://x${dashboardUrl}`).searchParams;
  const window = new URLSearchParams({
    dateRange: query.get('dateRange') ?? '',
    startDate: query.get('startDate') ?? '',
    endDate: query.get('endDate') ?? '',
    pathway: 'all',
  });
  return (await page.request.get(`${statsPath}?${window}`)).json();
}
const number = (text: string | null) => Number((text ?? '').replace(/[^\d.]/g, ''));

test('client dashboard: one data request, the same numbers as the separate reads', async ({ page }) => {
  await loginClientApi(page, CLIENT.email, CLIENT.password);
  const { webhookUrl } = await clientSession(page.request);
  for (let i = 0; i < 3; i++) await placeTestCall(page.request, webhookUrl, CLIENT.apiKey);

  const requests = recordApiRequests(page);
  const dashboard = new DashboardPage(page);
  const release = await holdResponses(page, /^\/api\/client\/dashboard$/);
  await dashboard.open();
  await expectLoadingStates(page);
  await expect(page.getByTestId('client-email')).toHaveText(CLIENT.email);
  await screenshotBothWidths(page, 'dashboard-first-screen-loading');
  await expectNoSeriousA11yViolations(page, 'dashboard first screen, loading');
  release();
  await dashboard.waitForLog();
  await expect(dashboard.rows.first()).toBeVisible();
  // Let anything late (charts, cards) ask now, if it would.
  await page.waitForLoadState('networkidle');
  expect(paths(requests.data()), requests.all.join('\n')).toEqual(['/api/client/dashboard']);
  expect(paths(requests.all).filter((p) => p === '/api/client/session')).toHaveLength(1);

  // The same numbers as the separate endpoints over the same window.
  const query = new URL(`http://x${requests.data()[0]}`).searchParams;
  const stats = await statsOfSameWindow(page, '/api/client/stats', requests.data()[0] ?? '');
  expect(number(await dashboard.statValue('totalCalls').textContent())).toBe(stats.totalCalls);
  expect(stats.totalCalls).toBeGreaterThanOrEqual(3);
  const log = await (await page.request.get(`/api/client/calls?${query}`)).json();
  expect(await dashboard.rowIds()).toEqual(log.calls.map((c: { id: string }) => c.id));

  await screenshotBothWidths(page, 'dashboard-first-screen');
  await expectNoSeriousA11yViolations(page, 'dashboard first screen');

  // Later interactions read the separate endpoints.
  const before = requests.all.length;
  await dashboard.setStatus('Failed');
  await expect.poll(() => paths(requests.all.slice(before))).toContain('/api/client/calls');
  expect(paths(requests.all.slice(before))).not.toContain('/api/client/dashboard');
});

test('demo: one data request', async ({ page }) => {
  const requests = recordApiRequests(page);
  const demo = new DashboardPage(page);
  const release = await holdResponses(page, /^\/api\/demo\/dashboard$/);
  await page.goto('/demo');
  await expectLoadingStates(page);
  await expect(page.getByTestId('recent-activity')).toBeVisible();
  release();
  // The demo brings its generated calls up to date on the first read of the run: it may take a while.
  await expect(demo.rows.first()).toBeVisible({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  expect(paths(requests.data()), requests.all.join('\n')).toEqual(['/api/demo/dashboard']);
  const stats = await statsOfSameWindow(page, '/api/demo/stats', requests.data()[0] ?? '');
  expect(number(await demo.statValue('totalCalls').textContent())).toBe(stats.totalCalls);
  await screenshotBothWidths(page, 'demo-first-screen');
});

test('admin’s view of a client: one data request', async ({ page }) => {
  const login = await page.request.post('/api/admin/login', {
    data: { username: ADMIN.username, password: ADMIN.password },
  });
  expect(login.status()).toBe(200);
  const clients = await (await page.request.get('/api/admin/clients')).json();
  const list: { id: string; email: string }[] = clients.clients ?? clients;
  const client = list.find((c) => c.email === CLIENT.email);
  expect(client).toBeTruthy();

  const requests = recordApiRequests(page);
  const view = new AdminClientViewPage(page);
  const release = await holdResponses(page, /^\/api\/admin\/clients\/[^/]+\/dashboard$/);
  await view.open(client?.id ?? '');
  await expect(view.badge).toBeVisible();
  await expectLoadingStates(page);
  await expect(view.info).toBeVisible();
  await screenshotBothWidths(page, 'admin-client-first-screen-loading');
  await expectNoSeriousA11yViolations(page, 'admin’s view of a client, loading');
  release();
  await view.waitForLoaded();
  await expect(view.callRows.first()).toBeVisible();
  await expect(view.users).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(paths(requests.data()), requests.all.join('\n')).toEqual([
    `/api/admin/clients/${client?.id}/dashboard`,
  ]);
  await screenshotBothWidths(page, 'admin-client-first-screen');
});
