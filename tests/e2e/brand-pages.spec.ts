/**
 * The agency's brand on every page a client sees: the admin saves "Northwind Voice"
 * with a wide logo and the yellow #ffd400 (white text on it fails AA, and so does yellow text on
 * white), then, signed out, the landing page (the agency's own, without the admin entry), both
 * login pages (the clients' welcome only on theirs), the 404 and the demo, and signed in, the
 * client's dashboard and settings and the admin's console, carry the name, the logo and the
 * colours; a client's logout returns to the branded sign-in; axe-core finds nothing serious at
 * 1280 and 390 px. public.spec.ts and dashboard.spec.ts hold the same pages with no brand saved.
 *
 * The brand is shared by every spec on this server: afterAll puts the saved one back (or none)
 * and removes the logo, whatever happened in between.
 */
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { AdminClientViewPage } from './pages/admin-client-view-page';
import { AdminLoginPage } from './pages/admin-login-page';
import { BrandTab } from './pages/brand-tab';
import { CallDrawer } from './pages/call-drawer';
import { ClientLoginPage } from './pages/client-login-page';
import { DashboardPage } from './pages/dashboard-page';
import { clientSession, loginClientApi, placeTestCall } from './support/api';
import { expectNoSeriousA11yViolations } from './support/axe';
import { rememberBrand, restoreBrand, type SavedBrand } from './support/brand';
import { ADMIN, BASE_URL, CLIENT } from './support/env';
import { screenshotBothWidths } from './support/screenshots';

// Many pages, each checked at two widths.
test.describe.configure({ mode: 'serial', timeout: 120_000 });
// With reduced motion (which the app honours) axe never catches a dialog or toast half-faded.
test.use({ contextOptions: { reducedMotion: 'reduce' } });

const NAME = 'Northwind Voice';
const BRAND = {
  name: NAME,
  primaryColor: '#ffd400',
  accentColor: '#0b7285',
  supportEmail: 'help@northwind.example',
  supportPhone: '+1 555 0100',
  supportUrl: 'https://help.northwind.example/start',
  loginHeadline: 'Welcome to Northwind Voice',
  loginText: 'Your calls, answered by our voice agents, in one place.',
  footerText: 'Northwind Voice · 1 Harbour Road, Seattle',
  landingHeadline: 'Every call answered, every lead followed up',
  landingText: 'Northwind Voice answers your phones around the clock. Sign in to hear how each call went.',
};
let admin: APIRequestContext;
let before: SavedBrand;
/** The brand's colour as lines and text on light surfaces, as the contrast guard derived it. */
let primaryText = '';

const rgb = (hex: string) => {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${n >> 16}, ${(n >> 8) & 255}, ${n & 255})`;
};

/** A wide logo (about 5:1), as agencies' logos are: a navy mark and the name on a transparent ground. */
function wideLogo(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="540" height="100" viewBox="0 0 540 100">
    <rect x="4" y="10" width="80" height="80" rx="16" fill="#1b2a4a"/>
    <path d="M24 70V30l40 40V30" stroke="#ffd400" stroke-width="10" fill="none"/>
    <text x="100" y="66" font-family="sans-serif" font-size="40" font-weight="700" fill="#1b2a4a">Northwind Voice</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

test.beforeAll(async ({ playwright }) => {
  admin = await playwright.request.newContext({ baseURL: BASE_URL });
  const login = await admin.post('/api/admin/login', {
    data: { username: ADMIN.username, password: ADMIN.password },
  });
  expect(login.status()).toBe(200);
  before = await rememberBrand(admin);

  const put = await admin.put('/api/admin/brand', { data: BRAND });
  expect(put.status()).toBe(200);
  // The guard keeps the yellow fill and reports the text shade it derived.
  const answer = await put.json();
  expect(answer.palette.primary).toBe('#ffd400');
  expect(answer.palette.primaryForeground).toBe('#000000');
  expect(answer.contrast.adjusted.length).toBeGreaterThan(0);
  primaryText = answer.palette.primaryText;
  expect(primaryText).not.toBe('#ffd400');

  const upload = await admin.post('/api/admin/brand/logo?variant=light', {
    multipart: { file: { name: 'northwind.png', mimeType: 'image/png', buffer: await wideLogo() } },
  });
  expect(upload.status()).toBe(200);
});

test.afterAll(async () => {
  // Put back what was there, whatever the tests did: other specs assert texts and contrast.
  for (const variant of ['light', 'dark']) {
    await admin.delete(`/api/admin/brand/logo?variant=${variant}`);
  }
  await restoreBrand(admin, before);
  await admin.dispose();
});

const literally = (text: string) => text.replace(/[()]/g, '\\$&');

const WIDTHS = [
  ['desktop', 1280, 900],
  ['phone', 390, 844],
] as const;

/** axe at both widths; the logo must also stay inside the page's width on a phone. */
async function checkBothWidths(page: Page, where: string) {
  for (const [label, width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    await expect(logo(page)).toBeVisible();
    const box = await logo(page).boundingBox();
    expect(box, `${where}: the logo's box`).not.toBeNull();
    expect(
      (box?.x ?? 0) + (box?.width ?? 0),
      `${where} (${label}): logo inside the page`,
    ).toBeLessThanOrEqual(width);
    await expectNoSeriousA11yViolations(page, `${where} (${label})`);
    // Nothing wider than the screen: a wide logo must not push the page sideways.
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth),
      `${where} (${label}): not wider than the screen`,
    ).toBeLessThanOrEqual(width);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The header's (or the page's) logo: the first image named after the agency. */
const logo = (page: Page) => page.getByRole('img', { name: NAME }).first();

/** Counts the page's own requests for GET /api/brand: none when the first HTML carried the brand. */
function countBrandRequests(page: Page): () => number {
  let count = 0;
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/brand') count++;
  });
  return () => count;
}

test('signed out: / is the agency’s page, with its words and no admin entry', async ({ page }) => {
  const brandRequests = countBrandRequests(page);
  await page.goto('/');
  // The agency's page replaces the product's: its headline and text, not SPEC's.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(BRAND.landingHeadline);
  await expect(page.getByText(BRAND.landingText)).toBeVisible();
  await expect(page.getByText('Advanced Call Analytics & Management Platform')).toHaveCount(0);
  await expect(page.getByText(/Admin Portal|Admin Login/)).toHaveCount(0);
  await expect(page.getByRole('link', { name: /admin/i })).toHaveCount(0);
  await expect(page.getByText(/Bland|Vapi|Retell/)).toHaveCount(0);
  await expect(logo(page)).toBeVisible();
  await expect(page.getByTestId('brand-footer')).toHaveText(BRAND.footerText);
  await expect(page.getByRole('navigation', { name: 'Support' })).toBeVisible();
  await expect(page).toHaveTitle(NAME);
  // The yellow fill keeps its black text; the yellow never serves as text on white.
  const signIn = page.getByRole('link', { name: 'Sign In' });
  await expect(signIn).toHaveCSS('background-color', 'rgb(255, 212, 0)');
  await expect(signIn).toHaveCSS('color', 'rgb(0, 0, 0)');
  await checkBothWidths(page, 'landing');
  await screenshotBothWidths(page, 'brand-landing');
  // The page took the brand from its first HTML: nothing was fetched, so nothing flashed.
  expect(brandRequests()).toBe(0);
  await signIn.click();
  await expect(page).toHaveURL(/\/client-login$/);
});

test('signed out: the client login shows the logo, the welcome and the support links', async ({ page }) => {
  const brandRequests = countBrandRequests(page);
  const clientLogin = new ClientLoginPage(page);
  await clientLogin.open();
  await expect(logo(page)).toBeVisible();
  await expect(page.getByTestId('brand-login-headline')).toHaveText(BRAND.loginHeadline);
  await expect(page.getByText(BRAND.loginText)).toBeVisible();
  const support = page.getByRole('navigation', { name: 'Support' });
  await expect(support.getByRole('link', { name: BRAND.supportEmail })).toHaveAttribute(
    'href',
    `mailto:${BRAND.supportEmail}`,
  );
  await expect(support.getByRole('link', { name: BRAND.supportPhone })).toHaveAttribute(
    'href',
    'tel:+15550100',
  );
  await expect(support.getByRole('link', { name: 'help.northwind.example' })).toHaveAttribute(
    'href',
    BRAND.supportUrl,
  );
  await expect(page).toHaveTitle(`Client Login · ${NAME}`);
  // Links use the derived text shade, which reads on white; not the saved yellow.
  await expect(support.getByRole('link').first()).not.toHaveCSS('color', 'rgb(255, 212, 0)');
  await checkBothWidths(page, 'client login');
  await screenshotBothWidths(page, 'brand-client-login');
  expect(brandRequests()).toBe(0);
});

test('signed out: the admin login shows the logo, not the clients’ welcome', async ({ page }) => {
  const adminLogin = new AdminLoginPage(page);
  await adminLogin.open();
  await expect(logo(page)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
  // The welcome is written for the agency's clients; the agency's staff sign in here.
  await expect(page.getByTestId('brand-login-headline')).toHaveCount(0);
  await expect(page.getByText(BRAND.loginText)).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Support' })).toBeVisible();
  await expect(page).toHaveTitle(`Admin Login · ${NAME}`);
  await checkBothWidths(page, 'admin login');
  await screenshotBothWidths(page, 'brand-admin-login');
});

test('signed out: the 404 and the demo carry the brand', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await expect(logo(page)).toBeVisible();
  await expect(page).toHaveTitle(`Page Not Found · ${NAME}`);
  await checkBothWidths(page, '404');
  await screenshotBothWidths(page, 'brand-404');

  await page.goto('/demo');
  await expect(page.getByText('Call Analytics Dashboard')).toBeVisible();
  await expect(page.getByTestId(/^call-(row|card)$/).first()).toBeVisible();
  await expect(logo(page)).toBeVisible();
  await expect(page).toHaveTitle(`Demo · ${NAME}`);
  await checkBothWidths(page, 'demo');
  await screenshotBothWidths(page, 'brand-demo');
});

test('signed in: the client dashboard and settings carry the brand', async ({ page }) => {
  await loginClientApi(page, CLIENT.email, CLIENT.password);
  const { webhookUrl } = await clientSession(page.request);
  const call = await placeTestCall(page.request, webhookUrl, CLIENT.apiKey, { status: 'completed' });
  const dashboard = new DashboardPage(page);
  await dashboard.open();
  await dashboard.waitForLog();
  await expect(page.getByRole('heading', { name: CLIENT.company })).toBeVisible();
  await expect(logo(page)).toBeVisible();
  await expect(page).toHaveTitle(`Dashboard · ${NAME}`);
  await checkBothWidths(page, 'client dashboard');
  await screenshotBothWidths(page, 'brand-dashboard');

  // The brand's colour reaches the chart's line and the status pills: the fill where text sits
  // on it, the guard's darker shade where it is a line on white.
  await expect(page.locator('[data-testid="calls-chart"] path.recharts-line-curve')).toHaveCSS(
    'stroke',
    rgb(primaryText),
  );
  const completed = page
    .getByTestId(/^call-(row|card)$/)
    .getByText('completed', { exact: true })
    .first();
  await expect(completed).toHaveCSS('background-color', rgb('#ffd400'));
  await expect(completed).toHaveCSS('color', rgb('#000000'));

  // The transcript's current line: ringed in the brand's text shade, as is the chosen speed chip,
  // with the agent's name in that shade too.
  const calls = await (await page.request.get('/api/client/calls')).json();
  const callId: string = calls.calls.find(
    (c: { providerCallId: string }) => c.providerCallId === call.call_id,
  ).id;
  await new CallDrawer(page).open(callId);
  const current = page.locator('[data-testid="transcript-line"][aria-current="true"]');
  await expect(current).toBeVisible();
  const agent = page.getByTestId('transcript-line').getByText('AI Agent', { exact: true }).first();
  await expect(agent).not.toHaveCSS('color', 'rgb(255, 212, 0)');
  await expect(current).toHaveCSS('box-shadow', new RegExp(literally(rgb(primaryText))));
  const speed = page.getByRole('radio', { name: '1×' });
  await expect(speed).toHaveAttribute('data-state', 'on');
  await expect(speed).toHaveCSS('color', rgb(primaryText));
  // A modal: the header's logo is hidden from assistive technology behind it, so axe alone here.
  for (const [label, width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    await expect(current).toBeVisible();
    await expectNoSeriousA11yViolations(page, `call with its transcript (${label})`);
  }
  await screenshotBothWidths(page, 'brand-call-transcript');

  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await expect(logo(page)).toBeVisible();
  await expect(page).toHaveTitle(`Settings · ${NAME}`);
  await checkBothWidths(page, 'settings');

  // The one notification panel, in the brand's colours.
  await page.goto('/settings?tab=notifications');
  await expect(page.getByTestId('notifications-panel')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save Preferences' })).toHaveCSS(
    'background-color',
    rgb('#ffd400'),
  );
  await checkBothWidths(page, 'settings notifications');
  await screenshotBothWidths(page, 'brand-settings-notifications');
});

test('a client who logs out returns to the agency’s sign-in page', async ({ page }) => {
  await loginClientApi(page, CLIENT.email, CLIENT.password);
  const dashboard = new DashboardPage(page);
  await dashboard.open();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/client-login$/);
  await expect(page.getByTestId('brand-login-headline')).toHaveText(BRAND.loginHeadline);
  await expect(page.getByRole('heading', { name: 'Client Dashboard Login' })).toBeVisible();
  await screenshotBothWidths(page, 'brand-after-logout');
});

test('the admin console carries the brand in its header', async ({ page }) => {
  const login = new AdminLoginPage(page);
  await login.open();
  await login.login(ADMIN.username, ADMIN.password);
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  await expect(logo(page)).toBeVisible();
  await expect(page).toHaveTitle(`Admin · ${NAME}`);
  await checkBothWidths(page, 'admin dashboard');
  await screenshotBothWidths(page, 'brand-admin');

  await page
    .getByTestId('client-row')
    .first()
    .getByRole('button', { name: /^Login as / })
    .click();
  const view = new AdminClientViewPage(page);
  await view.waitForLoaded();
  await expect(logo(page)).toBeVisible();
  await expect(page).toHaveTitle(`Client · ${NAME}`);
  await checkBothWidths(page, 'admin client view');
  await screenshotBothWidths(page, 'brand-admin-client-view');
});

test('a brand saved in the Brand tab reaches the open page without a reload', async ({ page }) => {
  const login = new AdminLoginPage(page);
  await login.open();
  await login.login(ADMIN.username, ADMIN.password);
  const createClient = page.getByRole('button', { name: 'Create Client' });
  await expect(createClient).toHaveCSS('background-color', 'rgb(255, 212, 0)');
  // Marks this document: a reload would lose it.
  await page.evaluate(() => {
    (window as { sameDocument?: boolean }).sameDocument = true;
  });

  const brand = new BrandTab(page);
  await brand.open();
  await brand.name.fill('Northwind Calls');
  await brand.primary.fill('#0b7285');
  await brand.save.click();
  await expect(page.getByRole('img', { name: 'Northwind Calls' }).first()).toBeVisible();
  await expect(page).toHaveTitle('Admin · Northwind Calls');
  // The teal needs white text: fill and foreground both follow, through the page's CSS variables.
  await expect(createClient).toHaveCSS('background-color', 'rgb(11, 114, 133)');
  await expect(createClient).toHaveCSS('color', 'rgb(255, 255, 255)');
  expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
});
