/**
 * The client dashboard against calls this spec creates: webhooks placed through the voice
 * simulator, the sample-data button and sync. The seeded CLIENT's calls are cleared first, so
 * the numbers on screen can be checked against the calls the spec made.
 */
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { formatDuration, formatMoney } from '../../src/contract/format';
import { formatPhone } from '../../src/web/features/calls/phone';
import { DashboardPage } from './pages/dashboard-page';
import { clientSession, loginClientApi, placeTestCall } from './support/api';
import { CLIENT, VOICE_SIM_URL } from './support/env';
import { screenshotBothWidths } from './support/screenshots';
import { expectToast } from './support/toast';

test.describe.configure({ mode: 'serial' });

const EMPTY_TEXT = 'No call logs found. Click the sync button to fetch your calls.';
const DELETE_TEXT =
  'Are you sure you want to delete this call log? This action cannot be undone and will permanently remove the call data, including recording and transcript information.';

interface ListedCall {
  id: string;
  fromNumber: string;
  recordingUrl?: string;
  status: string;
  createdAt: string;
}

async function allCalls(request: APIRequestContext): Promise<ListedCall[]> {
  const calls: ListedCall[] = [];
  for (let page = 1; ; page++) {
    const res = await request.get(`/api/client/calls?status=all&limit=100&page=${page}`);
    expect(res.status()).toBe(200);
    const body = await res.json();
    calls.push(...body.calls);
    if (page >= body.pagination.totalPages) return calls;
  }
}

async function deleteAllCalls(request: APIRequestContext) {
  for (const call of await allCalls(request)) {
    expect((await request.delete(`/api/client/calls/${call.id}`)).status()).toBe(200);
  }
}

async function placeCalls(page: Page, count: number, overrides: Record<string, unknown> = {}) {
  const { webhookUrl } = await clientSession(page.request);
  for (let i = 0; i < count; i++)
    // The stand-in places a finished call unless asked for one in progress.
    await placeTestCall(page.request, webhookUrl, CLIENT.apiKey, overrides);
}

async function statNumber(dashboard: DashboardPage, key: 'totalCalls' | 'totalTransfers') {
  return Number(((await dashboard.statValue(key).textContent()) ?? '').replace(/,/g, ''));
}

test.beforeEach(async ({ page }) => {
  await loginClientApi(page, CLIENT.email, CLIENT.password);
});

test('empty state, then webhook calls: stats match the table, formats and pagination', async ({ page }) => {
  await deleteAllCalls(page.request);
  const dashboard = new DashboardPage(page);
  await dashboard.open();

  await expect(page.getByRole('heading', { name: CLIENT.company })).toBeVisible();
  await expect(page.getByTestId('client-email')).toHaveText(CLIENT.email);
  await expect(page.getByText('Monitor your AI voice agent performance and call metrics')).toBeVisible();
  await expect(page.getByText(EMPTY_TEXT)).toBeVisible();
  await expect(page.getByText('No call data available for the selected period')).toBeVisible();
  await expect(dashboard.statValue('totalCalls')).toHaveText('0');
  await expect(dashboard.statValue('totalCost')).toHaveText('$0.00');
  await expect(dashboard.statValue('avgDuration')).toHaveText('0:00');
  await expect(dashboard.statChange('totalCalls')).toHaveText('+0.0%');
  await expect(page.getByText('vs last period')).toHaveCount(4);
  await expect(dashboard.pagination).toHaveCount(0);
  await screenshotBothWidths(page, 'dashboard-empty');

  await placeCalls(page, 12);
  await placeCalls(page, 1, { recording_url: null });
  await page.reload();
  await dashboard.waitForLog();

  await expect(dashboard.rows).toHaveCount(10);
  await expect(dashboard.pagination).toContainText('Showing 1 to 10 of 13 results');
  await expect(dashboard.pagination.getByRole('button', { name: /^Page \d$/ })).toHaveCount(2);
  await expect(dashboard.pagination.getByRole('button', { name: 'Previous' })).toBeDisabled();
  await expect(dashboard.pagination.getByRole('button', { name: 'Next' })).toBeEnabled();

  // Formats of every column.
  const first = dashboard.rows.first();
  await expect(first.locator('td').nth(4)).toHaveText(/^\d+:\d{2}$/);
  await expect(first.locator('td').nth(3)).toHaveText('completed');
  await expect(first.locator('td').nth(0)).toHaveText(/^\d{1,2}\/\d{1,2}\/\d{4}, \d{1,2}:\d{2} (AM|PM)$/);
  // Numbers grouped for reading ("+1 415 555 0123"), the E.164 form kept in the title.
  await expect(first.locator('td').nth(1)).toHaveText(/^\+\d[\d ]*\d\s*\+\d[\d ]*\d$/);
  await expect(first.locator('td').nth(1).locator('span[title^="+"]').first()).toHaveAttribute(
    'title',
    /^\+\d+$/,
  );
  await expect(first.locator('td').nth(6)).toHaveText(/^\$\d+\.\d{2}$/);

  const durations = await dashboard.rowDurations();
  await dashboard.page.getByRole('button', { name: 'Next' }).click();
  await expect(dashboard.pagination).toContainText('Showing 11 to 13 of 13 results');
  await expect(dashboard.rows).toHaveCount(3);
  await expect(dashboard.pagination.getByRole('button', { name: 'Next' })).toBeDisabled();
  durations.push(...(await dashboard.rowDurations()));
  expect(durations).toHaveLength(13);

  // The strip says what the table holds (all 13 are completed, inside the last 7 days).
  const seconds = durations.reduce((a, b) => a + b, 0);
  await expect(dashboard.statValue('totalCalls')).toHaveText('13');
  await expect(dashboard.statValue('avgDuration')).toHaveText(formatDuration(Math.round(seconds / 13)));
  await expect(dashboard.statValue('totalCost')).toHaveText(
    // $0.15/min is 2,500 micro-dollars a second; integer maths, rounded to cents as the server does.
    formatMoney(Math.round((seconds * 2_500) / 10_000) / 100),
  );
  await expect(dashboard.statValue('totalTransfers')).toHaveText('0');
  // Nothing in the week before: no made-up "+100.0%", but "new", under SPEC's "vs last period".
  await expect(dashboard.statChange('totalCalls')).toHaveText('new');
  await expect(page.getByTestId('stat-totalCalls')).toContainText('vs last period');
  // Transfers were 0 then and are 0 now: that is no change.
  await expect(dashboard.statChange('totalTransfers')).toHaveText('+0.0%');
  await expect(dashboard.statChange('totalTransfers')).toHaveClass(/text-green-700/);

  // The chart draws a blue line of width 2 over a dashed grid, 300 px high, with "Mar 5" dates.
  const chart = page.getByTestId('calls-chart');
  await expect(chart).toBeVisible();
  await expect(page.getByText('Calls Over Time')).toBeVisible();
  await expect(page.getByText('Completed Calls')).toBeVisible();
  const line = chart.locator('.recharts-line-curve');
  await expect(line).toHaveAttribute('stroke', '#3b82f6');
  await expect(line).toHaveAttribute('stroke-width', '2');
  await expect(chart.locator('.recharts-cartesian-grid line').first()).toHaveAttribute(
    'stroke-dasharray',
    '3 3',
  );
  expect((await chart.boundingBox())?.height).toBe(300);
  const today = new Date().toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
  await expect(chart.getByText(today, { exact: true })).toBeVisible();

  await screenshotBothWidths(page, 'dashboard');
});

test('any filter change goes back to page 1; status, pathway and search filter the log', async ({ page }) => {
  const dashboard = new DashboardPage(page);
  await placeCalls(page, 1, { completed: false });
  await dashboard.open();
  await dashboard.waitForLog();

  // Each filter change asks for page 1 again.
  const nextCallsRequest = (param: string) =>
    page.waitForRequest((r) => r.url().includes('/api/client/calls?') && r.url().includes(param));
  const pageOf = (url: string) => new URL(url).searchParams.get('page');

  await dashboard.goToPage(2);
  await expect(dashboard.currentPageButton()).toHaveText('2');
  let request = nextCallsRequest('pathway=all');
  await dashboard.selectDateRange('Last 30 days');
  expect(pageOf((await request).url())).toBe('1');
  await expect(dashboard.currentPageButton()).toHaveText('1');
  await expect(dashboard.pagination).toContainText('Showing 1 to 10 of 13 results');

  await dashboard.goToPage(2);
  request = nextCallsRequest('pathway=support');
  await dashboard.selectPathway('Support');
  expect(pageOf((await request).url())).toBe('1');
  await expect(dashboard.rows.locator('td:nth-child(6)').filter({ hasNotText: 'Support' })).toHaveCount(0);
  // The stats and the chart follow the date range and pathway too, and count what the log lists.
  await expect(page.getByTestId('filter-scope-note')).toHaveText(
    'Date range and call type apply to the whole page. Status, outcome, needs attention and search filter the call log only; the calls chart shows calls that completed.',
  );
  const total = async (status: string) =>
    (
      await (
        await page.request.get(
          `/api/client/calls?status=${status}&pathway=support&limit=1&startDate=${new Date(Date.now() - 30 * 86_400_000).toISOString()}`,
        )
      ).json()
    ).pagination.total;
  await expect(dashboard.statValue('totalCalls')).toHaveText(String(await total('all')));
  const completedSupport = await total('completed');
  if (completedSupport > 0)
    await expect(dashboard.chartDescription()).toContainText(`Total ${completedSupport} in the period`);
  else await expect(page.getByText('No call data available for the selected period')).toBeVisible();
  await dashboard.selectPathway('All Pathways');
  await expect(dashboard.chartDescription()).toContainText('Total 13 in the period');
  await expect(dashboard.pagination).toContainText('Showing 1 to 10 of 13 results');

  await dashboard.goToPage(2);
  request = nextCallsRequest('status=active');
  await dashboard.setStatus('Active');
  expect(pageOf((await request).url())).toBe('1');
  await expect(dashboard.rows).toHaveCount(1);
  await expect(dashboard.pagination).toHaveCount(0);
  await expect(dashboard.rows.first().locator('td').nth(3)).toHaveText('active');
  await dashboard.setStatus('Completed');
  await expect(dashboard.currentPageButton()).toHaveText('1');

  // The filter icon opens a search over phone numbers, call ids and transcripts.
  const calls = (await allCalls(page.request)).filter((c) => c.status === 'completed');
  const target = calls[4];
  await dashboard.openSearch();
  await dashboard.search(target.fromNumber);
  await expect(dashboard.row(target.id)).toBeVisible();
  await expect(dashboard.rows.filter({ hasNotText: formatPhone(target.fromNumber) })).toHaveCount(0);
  await dashboard.search(target.id);
  await expect(dashboard.rows).toHaveCount(1);
  await expect(dashboard.row(target.id)).toBeVisible();
  await dashboard.search('no-such-call-anywhere');
  // A search that matches nothing says so; syncing would not help.
  await expect(
    page.getByText(
      'No calls match these filters. Try another status, call type, outcome, date range or search.',
    ),
  ).toBeVisible();
  await expect(page.getByText(EMPTY_TEXT)).toHaveCount(0);
  // One clear button: ours empties the box (the browser's own is hidden), then the box closes.
  const box = page.getByRole('searchbox', { name: 'Search calls' });
  // Where Chromium draws its own clear button a click does nothing: there is none.
  const size = await box.boundingBox();
  await box.click({ position: { x: (size?.width ?? 0) - 8, y: (size?.height ?? 0) / 2 } });
  await expect(box).toHaveValue('no-such-call-anywhere');
  await expect(page.getByRole('button', { name: /^(Clear|Close) search$/ })).toHaveCount(1);
  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(box).toHaveValue('');
  await expect(box).toBeFocused();
  await expect(dashboard.rows).toHaveCount(10);
  await page.getByRole('button', { name: 'Close search' }).click();
  await expect(page.getByTestId('call-search')).toHaveCount(0);
});

test('failed and transferred calls can be listed, and a phone shows each call as a card', async ({
  page,
}) => {
  const dashboard = new DashboardPage(page);
  await placeCalls(page, 1, { status: 'failed', completed: true, error_message: 'busy' });
  await placeCalls(page, 1, { transferred_to: '+14155550199' });
  await dashboard.open();
  await dashboard.waitForLog();
  const statuses = () => dashboard.rows.locator('td:nth-child(4)').allInnerTexts();

  await dashboard.setStatus('Failed');
  await expect(dashboard.rows.first().locator('td').nth(3)).toHaveText('failed');
  expect(new Set(await statuses())).toEqual(new Set(['failed']));
  await dashboard.setStatus('Transferred');
  await expect(dashboard.rows.first().locator('td').nth(3)).toHaveText('transferred');
  expect(new Set(await statuses())).toEqual(new Set(['transferred']));
  await dashboard.setStatus('All');
  const all = await allCalls(page.request);
  const inWeek = all.filter((c) => Date.parse(c.createdAt) > Date.now() - 7 * 24 * 3600_000);
  await expect(dashboard.pagination).toContainText(`of ${inWeek.length} results`);

  // 390 px: cards with every figure and every action (in the card's menu), nothing cut off sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(dashboard.rows).toHaveCount(0);
  const card = dashboard.cards.first();
  await expect(dashboard.cards).toHaveCount(10);
  for (const label of ['Duration', 'Cost', 'Call type', 'Outcome']) await expect(card).toContainText(label);
  const menu = dashboard.cardMenuButton(card);
  await expect(menu).toBeVisible();
  const box = await menu.boundingBox();
  expect((box?.x ?? 999) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await menu.click();
  await expect(page.getByRole('menuitem', { name: 'Delete call…' })).toBeVisible();
  await page.keyboard.press('Escape');
  await dashboard.cardAction(card, 'Show transcript');
  await expect(card.getByTestId('transcript')).toBeVisible();
  await screenshotBothWidths(page, 'dashboard-all-statuses');
  await dashboard.setStatus('Completed');
});

test('transcripts open one at a time; recordings play, switch, stop and download', async ({ page }) => {
  const dashboard = new DashboardPage(page);
  await dashboard.open();
  await dashboard.waitForLog();
  const withRecording = new Set(
    (await allCalls(page.request)).filter((c) => c.recordingUrl).map((c) => c.id),
  );
  const [a, b] = (await dashboard.rowIds()).filter((id) => withRecording.has(id));

  await dashboard.row(a).getByRole('button', { name: 'Show transcript' }).click();
  await expect(dashboard.transcripts).toHaveCount(1);
  await expect(dashboard.transcripts).toContainText('AI Agent');
  await expect(dashboard.transcripts).toContainText('Caller');
  const style = await dashboard.transcripts.evaluate((el) => getComputedStyle(el));
  expect(style.overflowY).toBe('auto');
  expect(Number.parseFloat(style.maxHeight)).toBeGreaterThan(100);
  await expect(page.getByTestId('calls-chart').locator('.recharts-line-curve')).toBeVisible();
  await screenshotBothWidths(page, 'dashboard-transcript');

  await dashboard.row(b).getByRole('button', { name: 'Show transcript' }).click();
  await expect(dashboard.transcripts).toHaveCount(1);
  await expect(dashboard.row(a).getByRole('button', { name: 'Show transcript' })).toBeVisible();
  await dashboard.row(b).getByRole('button', { name: 'Hide transcript' }).click();
  await expect(dashboard.transcripts).toHaveCount(0);

  // Play a, switch to b, stop b.
  await dashboard.playButton(a).click();
  await expect(dashboard.playButton(a)).toHaveAttribute('data-playback', 'playing');
  await expect(dashboard.playButton(a)).toHaveAccessibleName('Stop recording');
  let audio = await dashboard.audioState();
  expect(audio.paused).toBe(false);
  expect(audio.src).toBe(`/api/client/recording/${a}`);

  await dashboard.playButton(b).click();
  await expect(dashboard.playButton(b)).toHaveAttribute('data-playback', 'playing');
  await expect(dashboard.playButton(a)).toHaveAttribute('data-playback', 'idle');
  expect((await dashboard.audioState()).src).toBe(`/api/client/recording/${b}`);

  await dashboard.playButton(b).click();
  await expect(dashboard.playButton(b)).toHaveAttribute('data-playback', 'idle');
  audio = await dashboard.audioState();
  expect(audio.paused).toBe(true);

  // The one call without a recording has greyed-out play and download buttons.
  const noRecording = (await allCalls(page.request)).find((c) => c.status === 'completed' && !c.recordingUrl);
  expect(noRecording).toBeTruthy();
  await dashboard.openSearch();
  await dashboard.search(noRecording?.id ?? '');
  await expect(dashboard.rows).toHaveCount(1);
  await expect(
    dashboard.row(noRecording?.id ?? '').getByRole('button', { name: 'Play recording' }),
  ).toBeDisabled();
  await expect(
    dashboard.row(noRecording?.id ?? '').getByRole('button', { name: 'Download recording' }),
  ).toBeDisabled();
  await page.getByRole('button', { name: 'Search calls', pressed: true }).click();

  const downloadPromise = page.waitForEvent('download');
  await dashboard.row(a).getByRole('button', { name: 'Download recording' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe(`recording-${a}.mp3`);
  await expectToast(page, 'Download started', 'Recording download initiated');

  // A recording the provider no longer has: back to idle with "Playback failed".
  const { webhookUrl } = await clientSession(page.request);
  const gone = await placeTestCall(page.request, webhookUrl, CLIENT.apiKey, { status: 'completed' });
  expect(
    (
      await page.request.post(`${VOICE_SIM_URL}/_sim/expire-recording`, { data: { callId: gone.call_id } })
    ).status(),
  ).toBe(200);
  await dashboard.openSearch();
  await dashboard.search(gone.call_id);
  await expect(dashboard.rows).toHaveCount(1);
  const broken = dashboard.rows.first().locator('[data-playback]');
  await broken.click();
  await expectToast(
    page,
    'Playback failed',
    'Unable to load recording: it has expired at the voice provider.',
  );
  // Expired for good: both recording buttons turn off and say why.
  await expect(broken).toBeDisabled();
  const downloadButton = dashboard.rows.first().getByRole('button', { name: 'Download recording' });
  await expect(downloadButton).toBeDisabled();
  await expect(downloadButton).toHaveAttribute('title', 'Recording expired');
  await expect(broken).toHaveAttribute('data-playback', 'idle');
});

test('delete asks first, is not closed by an outside click, and updates log and stats', async ({ page }) => {
  const dashboard = new DashboardPage(page);
  await dashboard.open();
  await dashboard.waitForLog();
  const before = await statNumber(dashboard, 'totalCalls');
  const [victim] = await dashboard.rowIds();

  await dashboard.row(victim).getByRole('button', { name: 'Delete call' }).click();
  await expect(dashboard.deleteDialog).toBeVisible();
  await expect(dashboard.deleteDialog.getByRole('heading', { name: 'Delete Call Log' })).toBeVisible();
  await expect(dashboard.deleteDialog).toContainText(DELETE_TEXT);
  await expect(page.getByTestId('calls-chart').locator('.recharts-line-curve')).toBeVisible();
  await screenshotBothWidths(page, 'dashboard-delete-dialog');
  await page.mouse.click(5, 5);
  await expect(dashboard.deleteDialog).toBeVisible();
  await dashboard.deleteDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dashboard.deleteDialog).toBeHidden();
  await expect(dashboard.row(victim)).toBeVisible();
  // Focus goes back to the button that opened the dialog, also when closed from the keyboard.
  const victimDelete = dashboard.row(victim).getByRole('button', { name: 'Delete call' });
  await expect(victimDelete).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dashboard.deleteDialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dashboard.deleteDialog).toBeHidden();
  await expect(victimDelete).toBeFocused();

  const [, next] = await dashboard.rowIds();
  await victimDelete.click();
  await dashboard.deleteDialog.getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, 'Call deleted successfully');
  await expect(dashboard.deleteDialog).toBeHidden();
  await expect(dashboard.row(victim)).toHaveCount(0);
  await expect(dashboard.statValue('totalCalls')).toHaveText(String(before - 1));
  // The deleted row's button is gone: focus is on the delete button of the row now in its place.
  await expect(dashboard.row(next).getByRole('button', { name: 'Delete call' })).toBeFocused();
});

test('sample data before the first real call: marked, free, removable; then sync brings real calls', async ({
  page,
  request,
}) => {
  await deleteAllCalls(page.request);
  const dashboard = new DashboardPage(page);
  await dashboard.open();
  await dashboard.waitForLog();
  const addSamples = page.getByRole('button', { name: 'Add sample data' });
  const removeSamples = page.getByRole('button', { name: 'Remove sample data' });
  await expect(removeSamples).toHaveCount(0);

  await addSamples.click();
  await expectToast(page, 'Demo Data Added', 'Sample call logs have been added to your dashboard');
  await expect(dashboard.statValue('totalCalls')).toHaveText('25');
  // Marked in the log, free in the totals, and offered once.
  await dashboard.setStatus('All');
  await expect(dashboard.rows.first().getByTestId('sample-badge')).toHaveText('Sample');
  await expect(page.getByTestId('sample-badge')).toHaveCount(10);
  await expect(dashboard.statValue('totalCost')).toHaveText('$0.00');
  await expect(addSamples).toHaveCount(0);
  await screenshotBothWidths(page, 'dashboard-sample-data');

  await dashboard.selectPathway('Sales');
  await expect(dashboard.rows.first()).toBeVisible();
  await expect(dashboard.rows.locator('td:nth-child(6)').filter({ hasNotText: 'Sales' })).toHaveCount(0);
  await dashboard.selectPathway('All Pathways');

  await removeSamples.click();
  await expectToast(page, 'Sample data removed');
  await expect(dashboard.statValue('totalCalls')).toHaveText('0');
  await expect(removeSamples).toHaveCount(0);
  await expect(addSamples).toBeVisible();

  // Three calls the webhook never told us about: only a sync brings them in.
  const added = await request.post(`${VOICE_SIM_URL}/_sim/calls`, {
    data: {
      apiKey: CLIENT.apiKey,
      count: 3,
      // Made a minute ago, as new calls are: an earlier sync of this client (another spec's) has
      // moved its watermark past anything back-dated.
      createdAt: Date.now() - 60_000,
      overrides: { status: 'completed', pathway_id: null },
    },
  });
  expect(added.status()).toBe(200);
  await page.getByRole('button', { name: 'Sync calls', exact: true }).click();
  await expectToast(page, 'Calls synced successfully');
  await expect.poll(() => statNumber(dashboard, 'totalCalls')).toBeGreaterThanOrEqual(3);
  const weekAgo = Date.now() - 7 * 86_400_000;
  const stored = (await allCalls(page.request)).filter((c) => Date.parse(c.createdAt) > weekAgo).length;
  await expect(dashboard.statValue('totalCalls')).toHaveText(String(stored));
  // Real calls now: sample data is no longer offered.
  await expect(addSamples).toHaveCount(0);
  await dashboard.setStatus('Completed');
});

test('loading skeletons, then "No data available" when the stats answer has no totals', async ({ page }) => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  // The first screen arrives in one read; a new date range reads stats and chart on their own.
  const dashboard = new DashboardPage(page);
  await dashboard.open();
  await dashboard.waitForLog();
  await page.route('**/api/client/stats?*', async (route) => {
    await held;
    await route.fulfill({ json: {} });
  });
  await page.route('**/api/client/calls-over-time?*', async (route) => {
    await held;
    await route.continue();
  });
  await dashboard.selectDateRange('Last 30 days');
  await expect(page.getByTestId('stats-loading').locator('[data-slot="skeleton"]')).toHaveCount(4);
  await expect(page.getByTestId('chart-loading')).toBeVisible();
  release();
  await expect(page.getByTestId('stats-strip')).toContainText('No data available');
  await expect(page.getByTestId('stats-loading')).toHaveCount(0);
  await expect(page.getByTestId('calls-over-time')).toBeVisible();
});

test('an expired session on sync says "Unauthorized" and goes to login; logout says goodbye', async ({
  page,
}) => {
  const dashboard = new DashboardPage(page);
  await dashboard.open();
  await page.context().clearCookies();
  await page.getByRole('button', { name: 'Sync calls', exact: true }).click();
  await expectToast(page, 'Unauthorized', 'You are logged out. Logging in again...');
  await expect(page).toHaveURL(/\/client-login$/);

  await loginClientApi(page, CLIENT.email, CLIENT.password);
  await dashboard.open();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expectToast(page, 'Logged Out', 'You have been logged out successfully');
  await expect(page).toHaveURL(/\/$/);
});
