/**
 * The admin's Brand tab: the admin types "Northwind Voice" and the yellow #ffd400, the
 * live preview follows before anything is saved and "Adjusted for readability" names the pairs
 * the guard changed; the save keeps only the changed fields and survives a reload. Then the
 * images: a wide PNG logo, a dark logo, and an SVG app icon carrying a script and an onload
 * handler, which shows as a picture and runs nothing; a file over 1 MB is refused in the browser;
 * a logo is removed. Chosen or removed images wait for "Save brand": until then no client sees
 * them, and "Discard changes" puts the saved ones back. Screenshots and axe at 1280 and 390 px.
 *
 * The brand is shared by every spec on this server: afterAll puts the saved settings back and
 * removes the images, whatever happened in between.
 */
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { AdminDashboardPage } from './pages/admin-dashboard-page';
import { AdminLoginPage } from './pages/admin-login-page';
import { BrandTab } from './pages/brand-tab';
import { expectNoSeriousA11yViolations } from './support/axe';
import { rememberBrand, restoreBrand, type SavedBrand } from './support/brand';
import { ADMIN, BASE_URL } from './support/env';
import { screenshotBothWidths } from './support/screenshots';
import { expectToast } from './support/toast';

test.describe.configure({ mode: 'serial', timeout: 120_000 });
test.use({ contextOptions: { reducedMotion: 'reduce' } });

let admin: APIRequestContext;
let before: SavedBrand;

test.beforeAll(async ({ playwright }) => {
  admin = await playwright.request.newContext({ baseURL: BASE_URL });
  const login = await admin.post('/api/admin/login', {
    data: { username: ADMIN.username, password: ADMIN.password },
  });
  expect(login.status()).toBe(200);
  before = await rememberBrand(admin);
});

test.afterAll(async () => {
  // Put back what was there, whatever the tests did: other specs assert texts and contrast.
  for (const variant of ['light', 'dark', 'icon']) {
    await admin.delete(`/api/admin/brand/logo?variant=${variant}`);
  }
  await restoreBrand(admin, before);
  await admin.dispose();
});

async function openBrandTab(page: Page): Promise<BrandTab> {
  const login = new AdminLoginPage(page);
  await login.open();
  await login.login(ADMIN.username, ADMIN.password);
  await new AdminDashboardPage(page).waitForClients();
  const brand = new BrandTab(page);
  await brand.open();
  return brand;
}

async function axeBothWidths(page: Page, where: string) {
  for (const [label, width, height] of [
    ['desktop', 1280, 900],
    ['phone', 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expectNoSeriousA11yViolations(page, `${where} (${label})`);
    // Stacked on a phone: nothing wider than the screen.
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth),
      `${where} (${label})`,
    ).toBeLessThanOrEqual(width);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

const rgb = (hex: string) => {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${n >> 16}, ${(n >> 8) & 255}, ${n & 255})`;
};

test('the preview follows the form as the admin types, and the save keeps only what changed', async ({
  page,
}) => {
  const brand = await openBrandTab(page);
  const login = brand.previewOf('Login page');
  const button = login.getByText('Sign In', { exact: true });

  // The product's own blue until the admin types (afterAll of every brand spec restores it).
  await expect(button).not.toHaveCSS('background-color', rgb('#ffd400'));
  await expect(brand.adjusted).not.toContainText('#ffd400');

  await brand.name.fill('Northwind Voice');
  // By keyboard: the name, then the colour's picker and its text field.
  await brand.name.press('Tab');
  await expect(brand.primaryPicker).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(brand.primary).toBeFocused();
  await brand.primary.fill('#ffd400');
  await brand.field('Login headline').fill('Welcome to Northwind Voice');

  // Before any save: the preview is drawn from the form, with the foreground the guard picked.
  await expect(login).toContainText('Northwind Voice');
  await expect(login).toContainText('Welcome to Northwind Voice');
  await expect(button).toHaveCSS('background-color', rgb('#ffd400'));
  await expect(button).toHaveCSS('color', rgb('#000000'));
  await expect(brand.previewOf('E-mail')).toContainText('Northwind Voice');
  await expect(brand.primaryPicker).toHaveValue('#ffd400');
  await expect(brand.adjusted).toContainText(
    'White text on #ffd400 is hard to read (1.4:1), so text on it is black',
  );
  await expect(brand.adjusted).toContainText(/Yellow text on white is hard to read \(1\.4:1\)/);

  // A half-typed colour is an error on its field, not a broken preview.
  await brand.accent.fill('#12');
  await brand.save.click();
  await expect(brand.form.getByText('Use a colour as #rrggbb')).toBeVisible();
  await expect(button).toHaveCSS('background-color', rgb('#ffd400'));
  await brand.accent.fill(String(before.settings.accentColor));

  const put = page.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith('/api/admin/brand'));
  await brand.save.click();
  const sent = (await put).postDataJSON();
  expect(Object.keys(sent).sort()).toEqual(['loginHeadline', 'name', 'primaryColor']);
  await expectToast(page, 'Brand saved');

  await page.reload();
  await new AdminDashboardPage(page).waitForClients();
  await brand.open();
  await expect(brand.name).toHaveValue('Northwind Voice');
  await expect(brand.primary).toHaveValue('#ffd400');
  await expect(brand.adjusted).toContainText('White text on #ffd400');
  const saved = await (await admin.get('/api/admin/brand')).json();
  expect(saved).toMatchObject({ name: 'Northwind Voice', primaryColor: '#ffd400', saved: true });
});

test('the server’s field messages show beside their fields', async ({ page }) => {
  const brand = await openBrandTab(page);
  // A refusal the browser's own check cannot foresee (say, a newer server's rule): the 400's
  // `fields` reach the inputs they name.
  await page.route('**/api/admin/brand', (route) =>
    route.request().method() === 'PUT'
      ? route.fulfill({
          status: 400,
          json: {
            message: 'supportPhone: Not a phone number',
            fields: { supportPhone: 'Not a phone number' },
          },
        })
      : route.fallback(),
  );
  await brand.field('Support phone').fill('call us');
  await brand.save.click();
  await expect(brand.field('Support phone')).toHaveAttribute('aria-invalid', 'true');
  await expect(brand.form.getByText('Not a phone number')).toBeVisible();
  await expectToast(page, 'Brand not saved', 'supportPhone: Not a phone number');
});

/** A wide logo (5:1): a navy mark and the name, drawn by sharp. */
function wideLogo(fill: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="100" viewBox="0 0 600 100">
    <rect x="4" y="10" width="80" height="80" rx="16" fill="${fill}"/>
    <text x="100" y="66" font-family="sans-serif" font-size="44" font-weight="700" fill="${fill}">Northwind Voice</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A square SVG carrying what must never run: a script and an onload handler. */
const HOSTILE_SVG =
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256"
  onload="window.top.__brandSvgRan = 'onload'; alert('onload')">
  <script>window.top.__brandSvgRan = 'script'; alert('script');</script>
  <rect width="256" height="256" rx="48" fill="#ffd400"/>
  <text x="128" y="170" font-family="sans-serif" font-size="140" font-weight="700" text-anchor="middle">N</text>
</svg>`);

test('the admin uploads a wide logo, a dark logo and an SVG icon that runs nothing, and removes one', async ({
  page,
}) => {
  const dialogs: string[] = [];
  const consoleErrors: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  const brand = await openBrandTab(page);

  const publicImages = async () => {
    const b = await (await admin.get('/api/brand')).json();
    return [b.logoUrl, b.logoDarkUrl, b.iconUrl];
  };
  const imagesBefore = await publicImages();
  await brand.upload('light logo', {
    name: 'northwind.png',
    mimeType: 'image/png',
    buffer: await wideLogo('#1b2a4a'),
  });
  await brand.upload('dark logo', {
    name: 'northwind-dark.png',
    mimeType: 'image/png',
    buffer: await wideLogo('#f8fafc'),
  });
  await brand.upload('app icon', { name: 'icon.svg', mimeType: 'image/svg+xml', buffer: HOSTILE_SVG });
  // Chosen, shown, not saved: the public brand has none of them yet.
  for (const which of ['light logo', 'dark logo', 'app icon'] as const) {
    await expect(brand.stagedThumbnail(which)).toBeVisible();
    await expect(brand.stagedNote(which)).toContainText('not saved yet');
  }
  expect(await publicImages()).toEqual(imagesBefore);
  await brand.save.click();
  await expectToast(page, 'Brand saved');
  await expect(brand.stagedNote('light logo')).toHaveCount(0);

  for (const which of ['light logo', 'dark logo', 'app icon'] as const) {
    const thumbnail = brand.thumbnail(which);
    await expect(thumbnail).toBeVisible();
    // Decoded and drawn: an image the browser could not load has no natural width.
    await expect
      .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);
  }
  // The wide logo keeps its shape at the thumbnail's height.
  const box = await brand.thumbnail('light logo').boundingBox();
  expect((box?.width ?? 0) / (box?.height ?? 1)).toBeGreaterThan(3);
  // The preview shows the logos where the name was, named after the agency.
  const name = await brand.name.inputValue();
  await expect(brand.previewOf('Login page').getByRole('img', { name })).toBeVisible();
  await expect(
    brand.previewOf('Dashboard header, light and dark theme').getByRole('img', { name }),
  ).toHaveCount(2);

  // The icon is served as the server's own picture, never as the SVG that was sent.
  const iconUrl = await brand.thumbnail('app icon').getAttribute('src');
  const served = await page.request.get(String(iconUrl));
  expect(served.status()).toBe(200);
  expect(served.headers()['content-type']).not.toContain('svg');
  expect(served.headers()['x-content-type-options']).toBe('nosniff');
  const body = (await served.body()).toString('latin1');
  expect(body).not.toContain('__brandSvgRan');
  expect(body).not.toContain('<script');
  expect(await page.evaluate(() => (window as { __brandSvgRan?: string }).__brandSvgRan)).toBeUndefined();
  expect(dialogs).toEqual([]);
  expect(consoleErrors).toEqual([]);

  // Opened on its own, too, nothing runs. (Chromium's image viewer logs that the asset's CSP
  // blocks its own inline styles: that is the CSP working, so this page's console is not checked.)
  const alone = await page.context().newPage();
  alone.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await alone.goto(String(iconUrl));
  expect(await alone.evaluate(() => (window as { __brandSvgRan?: string }).__brandSvgRan)).toBeUndefined();
  await alone.close();
  expect(dialogs).toEqual([]);

  // Over 1 MB: refused in the browser, before any request.
  let uploads = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/api/admin/brand/logo')) uploads += 1;
  });
  await brand.upload('light logo', {
    name: 'huge.png',
    mimeType: 'image/png',
    buffer: Buffer.alloc(1024 * 1024 + 1, 1),
  });
  await expect(brand.image('light logo').getByText('The image is larger than 1 MB')).toBeVisible();
  expect(uploads).toBe(0);
  await expect(brand.thumbnail('light logo')).toBeVisible();

  await screenshotBothWidths(page, 'brand-admin');
  await axeBothWidths(page, 'Admin › Brand');

  await brand.remove('dark logo');
  await expect(brand.thumbnail('dark logo')).toHaveCount(0);
  await expect(brand.image('dark logo')).toContainText('No image');
  await expect(brand.stagedNote('dark logo')).toHaveText('Removed when you save the brand.');
  expect((await (await admin.get('/api/brand')).json()).logoDarkUrl).not.toBeNull();
  await brand.save.click();
  await expectToast(page, 'Brand saved');
  const after = await (await admin.get('/api/admin/brand')).json();
  expect(after.logoDarkUrl).toBeNull();
  expect(after.logoUrl).not.toBeNull();
});

test('a chosen logo waits for Save brand, and Discard keeps the saved one', async ({ page }) => {
  // A logo saved before: the one clients see.
  const saved = await admin.post('/api/admin/brand/logo?variant=light', {
    multipart: { file: { name: 'old.png', mimeType: 'image/png', buffer: await wideLogo('#1b2a4a') } },
  });
  expect(saved.status()).toBe(200);
  const publicLogo = async () => (await (await admin.get('/api/brand')).json()).logoUrl as string | null;
  const oldUrl = await publicLogo();
  expect(oldUrl).not.toBeNull();

  const brand = await openBrandTab(page);
  await expect(brand.thumbnail('light logo')).toHaveAttribute('src', String(oldUrl));
  const newLogo = { name: 'new.png', mimeType: 'image/png', buffer: await wideLogo('#7c2d12') };

  // Chosen, then discarded: clients never saw it and the editor shows the saved logo again.
  await brand.upload('light logo', newLogo);
  await expect(brand.stagedThumbnail('light logo')).toBeVisible();
  await expect(brand.previewOf('Login page').getByRole('img')).toHaveAttribute('src', /^data:image\/png/);
  expect(await publicLogo()).toBe(oldUrl);
  await expect(brand.discard).toBeEnabled();
  await expect(brand.save).toBeEnabled();
  await screenshotBothWidths(page, 'brand-admin-logo-staged');
  await axeBothWidths(page, 'Admin › Brand with a logo not saved yet');
  await brand.discard.click();
  await expect(brand.thumbnail('light logo')).toHaveAttribute('src', String(oldUrl));
  await expect(brand.stagedNote('light logo')).toHaveCount(0);
  await expect(brand.save).toBeDisabled();
  expect(await publicLogo()).toBe(oldUrl);

  // Chosen, then saved: the new logo is the one clients see.
  await brand.upload('light logo', newLogo);
  await brand.save.click();
  await expectToast(page, 'Brand saved');
  await expect.poll(publicLogo).not.toBe(oldUrl);
  const newUrl = await publicLogo();
  expect(newUrl).not.toBeNull();
  await expect(brand.thumbnail('light logo')).toHaveAttribute('src', String(newUrl));
});
