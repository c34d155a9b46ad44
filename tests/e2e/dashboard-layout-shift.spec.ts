/**
 * The dashboard does not jump while it loads (issue 41's Lighthouse run measured a cumulative
 * layout shift of 0.335 on /dashboard). Opened cold with every API answer slowed down, and the
 * first screen's read slower than the session check, so the page is drawn with its loading states
 * first and filled in afterwards, as on a slow network: the layout shifts the browser reports
 * (PerformanceObserver, buffered, from the first paint) add up to less than 0.1, Web Vitals' "good".
 * Measured at a desktop width and on a phone (touch, where the header's icon buttons carry labels),
 * with the header's late parts shown: the first screen's answer says calls need attention and
 * offers sample data (rewritten in the browser, so no other spec's account changes).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, type Page, test } from '@playwright/test';
import { clientSession, loginClientApi, placeTestCall } from './support/api';
import { CLIENT } from './support/env';

/** Each API answer waits this long; the first screen's read this much longer again. */
const API_DELAY_MS = 800;
const FIRST_SCREEN_EXTRA_DELAY_MS = 1200;
const GOOD_CLS = 0.1;

interface Shift {
  value: number;
  hadRecentInput: boolean;
  sources: string[];
}

/** Records every layout shift of the page from its first paint, with the elements that moved. */
async function recordLayoutShifts(page: Page) {
  await page.addInitScript(() => {
    const shifts: unknown[] = [];
    Object.assign(window, { __layoutShifts: shifts });
    const nameOf = (node: Node | null) =>
      node instanceof Element
        ? `${node.tagName.toLowerCase()}${node.getAttribute('data-testid') ? `[data-testid=${node.getAttribute('data-testid')}]` : ''} "${(node.textContent ?? '').slice(0, 40)}"`
        : String(node?.nodeName);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as {
        value: number;
        hadRecentInput: boolean;
        sources: { node: Node | null }[];
      }[]) {
        shifts.push({
          value: entry.value,
          hadRecentInput: entry.hadRecentInput,
          sources: entry.sources.map((s) => nameOf(s.node)),
        });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

async function slowDownApi(page: Page) {
  await page.route('**/api/**', async (route) => {
    const { pathname } = new URL(route.request().url());
    // The live stream stays open: delaying it only delays "Live".
    if (pathname.endsWith('/events')) return route.continue();
    if (pathname === '/api/client/dashboard') {
      await sleep(API_DELAY_MS + FIRST_SCREEN_EXTRA_DELAY_MS);
      const response = await route.fetch();
      const body = await response.json();
      // The header's parts that depend on the answer: the attention badge and "Add sample data".
      body.attention = { ...body.attention, total: 3 };
      body.sampleData = { sampleCalls: 0, hasRealCalls: false };
      return route.fulfill({ response, json: body });
    }
    await sleep(API_DELAY_MS);
    await route.continue().catch(() => undefined);
  });
}

test.beforeAll(async ({ browser }) => {
  // Rows in the log, so the loaded page has everything a client's dashboard shows.
  const page = await browser.newPage();
  await loginClientApi(page, CLIENT.email, CLIENT.password);
  const { webhookUrl } = await clientSession(page.request);
  for (let i = 0; i < 2; i++) await placeTestCall(page.request, webhookUrl, CLIENT.apiKey);
  await page.close();
});

for (const device of [
  { name: 'desktop', viewport: { width: 1280, height: 900 }, isMobile: false, hasTouch: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
]) {
  test(`/dashboard on a ${device.name}: the header keeps its size and the layout shifts add up to less than ${GOOD_CLS} while it loads`, async ({
    browser,
  }) => {
    const { name, ...options } = device;
    const context = await browser.newContext(options);
    const page = await context.newPage();
    await loginClientApi(page, CLIENT.email, CLIENT.password);
    await recordLayoutShifts(page);
    await slowDownApi(page);

    // Not waiting for the load event: on a busy machine it can come after the slowed first screen.
    await page.goto('/dashboard', { waitUntil: 'commit' });
    // The loading states first: the slowed first screen is what this measures.
    await expect(page.getByTestId('stats-loading')).toBeVisible();
    // The header is drawn with the session; what the first screen adds to it has its place already.
    const header = page.locator('header').first();
    const headerWhileLoading = await header.boundingBox();
    // The log's rows: a table on a desktop, cards on a phone.
    await expect(page.getByTestId(/^call-(row|card)$/).first()).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('calls-chart')).toBeVisible();
    await expect(page.getByTestId('live-indicator')).toHaveText('Live');
    await expect(page.getByTestId('attention-button')).toHaveAccessibleName('3 calls need attention');
    // A desktop shows sample data in the header's row; a phone in the header's menu, opened at the end.
    if (name === 'desktop') await expect(page.getByRole('button', { name: 'Add sample data' })).toBeVisible();
    // Two frames, so a shift caused by the last change is reported too.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );

    expect(await header.boundingBox(), 'the header keeps its size').toEqual(headerWhileLoading);

    const shifts = (await page.evaluate(
      () => (window as unknown as { __layoutShifts: Shift[] }).__layoutShifts,
    )) as Shift[];
    const unexpected = shifts.filter((s) => !s.hadRecentInput);
    const total = unexpected.reduce((sum, s) => sum + s.value, 0);
    expect(total, `layout shifts on ${name}:\n${JSON.stringify(unexpected, null, 1)}`).toBeLessThan(GOOD_CLS);
    if (name === 'phone') {
      await page.getByRole('button', { name: 'Menu' }).click();
      await expect(page.getByRole('menuitem', { name: 'Add sample data' })).toBeVisible();
    }
    await context.close();
  });
}
