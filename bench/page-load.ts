/**
 * How the client dashboard loads on a slow phone connection: Chromium with the
 * network throttled to 1.6 Mbps down, 750 kbps up and 150 ms round trips (Lighthouse's mobile
 * profile), cold (empty cache) and warm (the same browser again), measuring the bytes that
 * crossed the wire for the whole page (charts included) and the time until the page shows data (the stats' first figure and the
 * call log's first row). The baseline, in the same run, is the cold load with compression
 * refused (Accept-Encoding: identity), so the figures read as a ratio. The targets are
 * 2.0 s cold and 1.0 s warm, the data requests before the rows are counted (one: the first-screen
 * read), and Lighthouse's mobile scores follow (lighthouse.ts).
 */
import { type BrowserContext, chromium } from 'playwright-core';
import { lighthouseRows } from './lighthouse';

export interface PageLoadRow {
  what: string;
  value: string;
  target: string;
  ok: boolean | null;
}

const THROTTLE = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1_000_000) / 8,
  uploadThroughput: (750 * 1_000) / 8,
};
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

interface Load {
  ms: number;
  bytes: number;
  requests: number;
  /** Requests to /api/ before the rows showed, besides the session check and the live stream. */
  dataRequests: number;
}

const NOT_DATA = [/^\/api\/client\/session$/, /\/events$/];

async function measure(context: BrowserContext, url: string, identity: boolean): Promise<Load> {
  const page = context.pages()[0] ?? (await context.newPage());
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', THROTTLE);
  if (identity) await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': 'identity' } });
  let bytes = 0;
  let requests = 0;
  let dataRequests = 0;
  let rowsShown = false;
  cdp.on('Network.loadingFinished', (e: { encodedDataLength: number }) => {
    bytes += e.encodedDataLength;
    requests++;
  });
  cdp.on('Network.requestWillBeSent', (e: { request: { url: string } }) => {
    const path = new URL(e.request.url).pathname;
    if (!rowsShown && path.startsWith('/api/') && !NOT_DATA.some((p) => p.test(path))) dataRequests++;
  });
  const start = performance.now();
  await page.goto(url, { waitUntil: 'commit' });
  await page.getByTestId('stat-value').first().filter({ hasText: /\d/ }).waitFor({ timeout: 60_000 });
  // A row on a wide screen, a card on a phone.
  await page
    .locator('[data-testid="call-row"], [data-testid="call-card"]')
    .first()
    .waitFor({ timeout: 60_000 });
  const ms = performance.now() - start;
  rowsShown = true;
  // The charts' code arrives after the data: wait for it, so the bytes are the whole page's and
  // nothing in flight is counted against the next load.
  await page.waitForLoadState('networkidle');
  await cdp.detach();
  return { ms, bytes, requests, dataRequests };
}

export async function pageLoadRows(base: string, email: string, password: string): Promise<PageLoadRow[]> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const session = async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const res = await context.request.post(`${base}/api/client/login`, { data: { email, password } });
      if (res.status() !== 200) throw new Error(`bench login answered ${res.status()}`);
      return context;
    };
    const url = `${base}/dashboard`;
    const plain = await session();
    const identity = await measure(plain, url, true);
    await plain.close();
    const context = await session();
    const cold = await measure(context, url, false);
    const warm = await measure(context, url, false);
    await context.close();

    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    const s = (n: number) => `${(n / 1000).toFixed(2)} s`;
    const label = '/dashboard on 1.6 Mbps, 150 ms RTT (SQLite data set)';
    return [
      {
        what: `baseline: ${label}, cold, compression refused (${identity.requests} requests, ${identity.dataRequests} of them data before the rows, ${kb(identity.bytes)})`,
        value: s(identity.ms),
        target: '-',
        ok: null,
      },
      {
        what: `${label}, cold: time to data (page: ${cold.requests} requests, ${cold.dataRequests} data before the rows, ${kb(cold.bytes)} on the wire)`,
        value: s(cold.ms),
        target: '≤ 2.0 s',
        ok: cold.ms <= 2000,
      },
      {
        what: `${label}, warm (cached): time to data (page: ${warm.requests} requests, ${warm.dataRequests} data before the rows, ${kb(warm.bytes)} on the wire)`,
        value: s(warm.ms),
        target: '≤ 1.0 s',
        ok: warm.ms <= 1000,
      },
      // Lighthouse after the timed loads, with Chromium of its own.
      // BENCH_LIGHTHOUSE=off leaves them out (twelve Lighthouse runs take minutes on a busy machine).
      ...(process.env.BENCH_LIGHTHOUSE === 'off' ? [] : await lighthouseRows(base, email, password)),
    ];
  } finally {
    await browser.close();
  }
}
