import { expect, test } from '@playwright/test';
import { AdminLoginPage } from './pages/admin-login-page';
import { ClientLoginPage } from './pages/client-login-page';
import { ADMIN, CLIENT } from './support/env';
import { screenshotBothWidths } from './support/screenshots';
import { expectToast } from './support/toast';

test('landing page offers the three entry cards with their targets', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByText('Advanced Call Analytics & Management Platform')).toBeVisible();
  await expect(
    page.getByText('Secure access to your AI voice agent analytics and management tools'),
  ).toBeVisible();
  await screenshotBothWidths(page, 'landing');
  await page
    .getByRole('button', { name: 'Sign In' })
    .or(page.getByRole('link', { name: 'Sign In' }))
    .first()
    .click();
  await expect(page).toHaveURL(/\/client-login$/);
  await page.goto('/');
  await page
    .getByRole('button', { name: 'Admin Login' })
    .or(page.getByRole('link', { name: 'Admin Login' }))
    .first()
    .click();
  await expect(page).toHaveURL(/\/admin-login$/);
  await page.goto('/');
  await page
    .getByRole('button', { name: 'View Demo' })
    .or(page.getByRole('link', { name: 'View Demo' }))
    .first()
    .click();
  await expect(page).toHaveURL(/\/demo$/);
});

test('client login: empty fields, wrong password, then success', async ({ page }) => {
  const login = new ClientLoginPage(page);
  await login.open();
  await expect(page.getByText('Access your call analytics and dashboard')).toBeVisible();
  await expect(
    page.getByText('Need help accessing your account? Contact your administrator for assistance.'),
  ).toBeVisible();
  await expect(login.email).toHaveAttribute('type', 'email');
  await expect(login.email).toHaveAttribute('placeholder', 'Enter your email');
  await screenshotBothWidths(page, 'client-login');

  let posted = 0;
  page.on('request', (r) => {
    if (r.url().endsWith('/api/client/login')) posted++;
  });
  await login.submit.click();
  await expectToast(page, 'Required Fields', 'Please enter both email and password');
  expect(posted).toBe(0);

  await expect(login.password).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: /show password/i }).click();
  await expect(login.password).toHaveAttribute('type', 'text');

  await login.login(CLIENT.email, 'wrong-password');
  await expectToast(page, 'Login Failed', 'Invalid email or password');
  await expect(page).toHaveURL(/\/client-login$/);

  await login.login(CLIENT.email, CLIENT.password);
  await expectToast(page, 'Login Successful', 'Welcome to your dashboard');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('admin login: missing fields, failure, success', async ({ page }) => {
  const login = new AdminLoginPage(page);
  await login.open();
  await screenshotBothWidths(page, 'admin-login');
  await login.username.fill('   ');
  await login.password.fill('x');
  await login.submit.click();
  await expectToast(page, 'Missing Information', 'Please enter both username and password.');

  await login.login(ADMIN.username, 'not-the-password');
  await expectToast(page, 'Login Failed');
  await expect(page).toHaveURL(/\/admin-login$/);

  await login.login(ADMIN.username, ADMIN.password);
  await expectToast(page, 'Login Successful');
  await expect(page).toHaveURL(/\/admin$/);
});

test('admin login has a way back to the landing page', async ({ page }) => {
  await page.goto('/admin-login');
  await page.getByRole('button', { name: 'Back to Dashboard' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('guards: dashboard without a session goes home; admin without one goes to admin login', async ({
  page,
}) => {
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin-login$/);
  await expectToast(page, 'Admin Access Required', 'Please log in to access the admin dashboard.');
});

test('unknown paths show the 404 page; unknown API paths answer JSON', async ({ page, request }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText(/404/).first()).toBeVisible();
  await screenshotBothWidths(page, 'not-found');
  const res = await request.get('/api/no-such-endpoint');
  expect(res.status()).toBe(404);
  expect(await res.json()).toEqual({ message: 'Not found' });
});

test('assets arrive compressed and cached for a year; the page itself always revalidates', async ({
  page,
  request,
}) => {
  const scripts: { url: string; encoding?: string; cache?: string }[] = [];
  page.on('response', (res) => {
    if (res.url().includes('/assets/') && res.url().endsWith('.js')) {
      const headers = res.headers();
      scripts.push({
        url: res.url(),
        encoding: headers['content-encoding'],
        cache: headers['cache-control'],
      });
    }
  });
  const landing = await page.goto('/');
  expect(landing?.headers()['cache-control']).toBe('no-cache');
  await expect(page.getByRole('link', { name: /demo/i }).first()).toBeVisible();
  expect(scripts.length).toBeGreaterThan(0);
  let compressed = 0;
  for (const script of scripts) {
    expect(script.cache, script.url).toBe('public, max-age=31536000, immutable');
    const plain = await request.get(script.url, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers()['content-encoding']).toBeUndefined();
    // Chromium asks for br; every file worth compressing (1 KB and up) comes as the build's brotli.
    if ((await plain.body()).length < 1024) continue;
    expect(script.encoding, script.url).toBe('br');
    compressed++;
    // A client that only takes gzip gets gzip, smaller than the plain file.
    const gzip = await request.get(script.url, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers()['content-encoding']).toBe('gzip');
    expect(Number(gzip.headers()['content-length'])).toBeLessThan((await plain.body()).length);
  }
  expect(compressed).toBeGreaterThan(0);
});
