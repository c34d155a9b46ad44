/**
 * Lighthouse's mobile performance score (≥ 90 on /, /client-login, /demo and /dashboard),
 * run as part of `--page-load`: Lighthouse 12 (devDependency) with its default mobile profile
 * (simulated 4x CPU slowdown, 150 ms RTT, 1.6 Mbps), against Debian's Chromium, offline, three runs
 * per page, the median reported with its largest contentful paint, total blocking time and layout
 * shift. /dashboard is signed in (the session cookie sent with every request of the page).
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

export interface LighthouseRow {
  what: string;
  value: string;
  target: string;
  ok: boolean | null;
}

interface Run {
  score: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  seo: number | null;
}

const RUNS = 3;
const PAGES = ['/', '/client-login', '/demo', '/dashboard'] as const;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function runOnce(port: number, url: string, cookie: string | null): Promise<Run> {
  const result = await lighthouse(
    url,
    {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'seo'],
      ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
    },
    undefined,
  );
  const lhr = result?.lhr;
  if (!lhr) throw new Error(`lighthouse gave no result for ${url}`);
  if (lhr.runtimeError) throw new Error(`lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    lcpMs: audit('largest-contentful-paint'),
    tbtMs: audit('total-blocking-time'),
    cls: audit('cumulative-layout-shift'),
    seo: lhr.categories.seo?.score == null ? null : Math.round(lhr.categories.seo.score * 100),
  };
}

/** Signs in through the API and answers the session's Cookie header. */
async function signIn(base: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/client/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`lighthouse sign-in answered ${res.status}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

export async function lighthouseRows(
  base: string,
  email: string,
  password: string,
): Promise<LighthouseRow[]> {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  const rows: LighthouseRow[] = [];
  try {
    const cookie = await signIn(base, email, password);
    for (const page of PAGES) {
      const runs: Run[] = [];
      const failures: string[] = [];
      for (let i = 0; i < RUNS; i++) {
        try {
          runs.push(await runOnce(chrome.port, `${base}${page}`, page === '/dashboard' ? cookie : null));
        } catch (error) {
          // One run's failure (a page Lighthouse saw no paint of) is reported, not the bench's end.
          failures.push(error instanceof Error ? error.message : String(error));
        }
      }
      if (runs.length === 0) {
        rows.push({
          what: `Lighthouse 12 mobile performance, ${page}: no run finished (${failures[0] ?? 'unknown'})`,
          value: '-',
          target: '≥ 90',
          ok: false,
        });
        continue;
      }
      const score = median(runs.map((r) => r.score));
      // The run whose score is the median, for its figures.
      const mid = runs.find((r) => r.score === score) ?? runs[0];
      const seo = mid?.seo === null || mid?.seo === undefined ? '' : `, SEO ${mid.seo}`;
      rows.push({
        what: `Lighthouse 12 mobile performance, ${page}${page === '/dashboard' ? ' (signed in)' : ''}: median of ${runs.length}${failures.length ? ` (${failures.length} failed: ${failures[0]})` : ''} (runs ${runs.map((r) => r.score).join(', ')}; LCP ${((mid?.lcpMs ?? 0) / 1000).toFixed(2)} s, TBT ${Math.round(mid?.tbtMs ?? 0)} ms, CLS ${(mid?.cls ?? 0).toFixed(3)}${seo})`,
        value: String(score),
        target: '≥ 90',
        ok: score >= 90,
      });
    }
  } finally {
    chrome.kill();
  }
  return rows;
}
