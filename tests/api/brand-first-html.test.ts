/**
 * The first HTML carries the brand, so no page flashes the product's own name and
 * blue before the app asks for the brand: the title, the theme colour, the manifest and icon
 * links, the CSS variables (brand-style) and the public brand as JSON (brand-data) that
 * src/web/lib/brand.ts reads. A name made to break out of the JSON block cannot. The built
 * assets are still served precompressed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminUser, loginAdmin } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

/** The shape of Vite's built index.html: its own title and icon, the bundle and stylesheet in <head>. */
const TEMPLATE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <link rel="icon" href="data:image/svg+xml,%3Csvg%3E%3C/svg%3E" />
    <title>Advanced Call Analytics &amp; Management Platform</title>
    <script type="module" crossorigin src="/assets/index-test.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-test.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;
const BUNDLE = `console.log(${JSON.stringify('x'.repeat(4000))});\n`;

const HOSTILE_NAME = '</script><script>alert(1)</script><!-- x';

describe(`first HTML with the brand (${TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;
  let webDir: string;
  beforeAll(async () => {
    webDir = mkdtempSync(path.join(tmpdir(), 'brand-web-'));
    mkdirSync(path.join(webDir, 'assets'));
    writeFileSync(path.join(webDir, 'index.html'), TEMPLATE);
    writeFileSync(path.join(webDir, 'assets', 'index-test.js'), BUNDLE);
    writeFileSync(path.join(webDir, 'assets', 'index-test.js.br'), brotliCompressSync(BUNDLE));
    writeFileSync(path.join(webDir, 'assets', 'index-test.css'), ':root{--primary:blue}');
    t = await createTestApp({ webDir, env: { AGENCY_NAME: 'Acme Answering' } });
    const a = await createAdminUser(t.deps);
    admin = await loginAdmin(t.app, a.username, a.password);
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  const page = async (url = '/') => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode, url).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-cache');
    return res.body;
  };
  const brandData = (html: string) => {
    const blocks = [
      ...html.matchAll(/<script type="application\/json" id="brand-data">([\s\S]*?)<\/script>/g),
    ];
    expect(blocks).toHaveLength(1);
    return JSON.parse(blocks[0][1]);
  };
  const publicBrand = async () => (await t.app.inject({ method: 'GET', url: '/api/brand' })).json();
  const save = (payload: object) =>
    t.app.inject({ method: 'PUT', url: '/api/admin/brand', headers: { cookie: admin }, payload });

  it('carries the configured name and the product’s colours before a brand is saved', async () => {
    const html = await page('/');
    expect(html).toContain('<title>Acme Answering</title>');
    // The template's own title and icon give way to the brand's.
    expect(html).not.toContain('Advanced Call Analytics');
    expect(html).not.toContain('data:image/svg+xml');
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html).toContain('<meta name="theme-color" content="#155dfc" />');
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest" />');
    expect(brandData(html)).toEqual(await publicBrand());
    // The product's own colours are the stylesheet's: the style element is there, empty.
    expect(html).toContain('<style id="brand-style"></style>');
    // It comes after the stylesheet, so a brand's variables win over its defaults.
    expect(html.indexOf('id="brand-style"')).toBeGreaterThan(html.indexOf('rel="stylesheet"'));
    expect(html.indexOf('id="brand-data"')).toBeLessThan(html.indexOf('</head>'));
  });

  it('links the same versioned icons as the manifest', async () => {
    const html = await page('/login');
    const favicon =
      /<link rel="icon" type="image\/png" sizes="32x32" href="(\/brand-icons\/32\.png\?v=([0-9a-f]{16}))"/.exec(
        html,
      );
    const touch = /<link rel="apple-touch-icon" href="(\/brand-icons\/192\.png\?v=[0-9a-f]{16})"/.exec(html);
    expect(favicon).not.toBeNull();
    expect(touch).not.toBeNull();
    const manifest = (await t.app.inject({ method: 'GET', url: '/manifest.webmanifest' })).json();
    expect(manifest.icons[0].src).toBe(touch?.[1]);
    const icon = await t.app.inject({ method: 'GET', url: favicon?.[1] ?? '' });
    expect(icon.statusCode).toBe(200);
    expect(await sharp(icon.rawPayload).metadata()).toMatchObject({ width: 32, height: 32 });
  });

  it('carries a saved brand on every page: name, colours as CSS variables, the brand JSON', async () => {
    expect(
      (await save({ name: 'Northwind Voice', primaryColor: '#ffd400', accentColor: '#aa00aa' })).statusCode,
    ).toBe(200);
    const brand = await publicBrand();
    for (const url of ['/', '/login', '/admin/login', '/no-such-page', '/index.html']) {
      const html = await page(url);
      expect(html, url).toContain('<title>Northwind Voice</title>');
      expect(html).toContain('<meta name="theme-color" content="#ffd400" />');
      expect(brandData(html)).toEqual(brand);
    }
    const html = await page('/');
    const style = /<style id="brand-style">([^<]*)<\/style>/.exec(html)?.[1] ?? '';
    const p = brand.palette;
    expect(style).toContain(
      `:root:root{--primary:#ffd400;--primary-foreground:#000000;--primary-hover:${p.primaryHover};--primary-text:${p.primaryText};--accent-brand:${p.accent}}`,
    );
    expect(style).toContain(
      `:root.dark{--primary:${p.primaryDark};--primary-foreground:${p.primaryDarkForeground};`,
    );
    // Every value in the style is a #rrggbb colour, or the dark hover mixed from one.
    for (const [, value] of style.matchAll(/--[a-z-]+:([^;}]+)/g)) {
      expect(value).toMatch(/^(#[0-9a-f]{6}|color-mix\(in oklch,#[0-9a-f]{6},(black|white) 15%\))$/);
    }
  });

  it('keeps a name made to break out of the JSON block inside it', async () => {
    expect((await save({ name: HOSTILE_NAME })).statusCode).toBe(200);
    const html = await page('/login');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<!-- x');
    // Only the template's module script and the brand's JSON block.
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html).toContain('<title>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!-- x</title>');
    expect(brandData(html).name).toBe(HOSTILE_NAME);
  });

  it('moves the icon links when an icon is uploaded', async () => {
    const before = /32\.png\?v=([0-9a-f]{16})/.exec(await page('/'))?.[1];
    const bytes = await sharp({ create: { width: 64, height: 64, channels: 4, background: '#2e7d32' } })
      .png()
      .toBuffer();
    const boundary = 'first-html-boundary';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="i.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/admin/brand/logo?variant=icon',
      headers: { cookie: admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(up.statusCode, up.body).toBe(200);
    const html = await page('/');
    const after = /32\.png\?v=([0-9a-f]{16})/.exec(html)?.[1];
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    expect(brandData(html).iconUrl).toBe(up.json().url);
  });

  it('still serves the built assets precompressed, and a missing asset is not the page', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/assets/index-test.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toContain('immutable');
    expect((await t.app.inject({ method: 'GET', url: '/assets/index-gone.js' })).statusCode).toBe(404);
  });
});
