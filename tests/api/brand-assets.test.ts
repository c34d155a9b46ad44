/**
 * The brand's images: uploads of each type are re-encoded and served from their own
 * address with nosniff and a CSP that forbids script; an SVG carrying script, handlers,
 * foreignObject or an external image is stored as a PNG with none of it; what is too big, not an
 * image or not square is refused and nothing is stored; DELETE removes; only admins may change
 * them. Then the web app manifest and its icons, before and after a brand is saved.
 */
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRAND_ASSET_MAX_BYTES } from '../../src/contract/brand';
import { createAdminUser, createSignedInClient, loginAdmin } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A multipart body, built by hand so the test says exactly what is sent. */
function multipart(files: { name?: string; filename: string; type: string; bytes: Buffer }[]) {
  const boundary = '----brand-test-boundary';
  const parts = files.flatMap((f) => [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${f.name ?? 'file'}"; filename="${f.filename}"\r\nContent-Type: ${f.type}\r\n\r\n`,
    ),
    f.bytes,
    Buffer.from('\r\n'),
  ]);
  return {
    payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

const solid = (width: number, height: number, colour: string) =>
  sharp({ create: { width, height, channels: 4, background: colour } });

/** A PNG whose header claims `width` × `height` (a decompression bomb needs no real pixels to be refused). */
function pngClaiming(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    PNG_MAGIC,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

const HOSTILE_SVG = `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="400" height="100" viewBox="0 0 400 100" onload="alert('onload')">
  <script>alert('script')</script>
  <rect width="400" height="100" fill="#0a7f3f" onclick="alert('click')"/>
  <foreignObject width="100" height="50"><div xmlns="http://www.w3.org/1999/xhtml">foreignObject</div></foreignObject>
  <image href="http://evil.example/track.png" x="0" y="0" width="50" height="50"/>
  <image xlink:href="https://evil.example/other.png" x="60" y="0" width="50" height="50"/>
  <a href="javascript:alert('link')"><text x="200" y="60" fill="#ffffff">Northwind</text></a>
</svg>`;

describe(`brand images (${TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;
  let pngLogo: Buffer;
  let webpLogo: Buffer;
  let squareIcon: Buffer;
  beforeAll(async () => {
    t = await createTestApp();
    const a = await createAdminUser(t.deps);
    admin = await loginAdmin(t.app, a.username, a.password);
    pngLogo = await solid(1600, 400, '#1d4ed8').png().toBuffer();
    webpLogo = await solid(600, 120, '#b91c1c').webp().toBuffer();
    squareIcon = await solid(300, 300, '#7c3aed').png().toBuffer();
  });
  afterAll(() => t.close());

  const upload = (
    variant: string,
    file: { filename: string; type: string; bytes: Buffer },
    cookie = admin,
  ) => {
    const body = multipart([file]);
    return t.app.inject({
      method: 'POST',
      url: `/api/admin/brand/logo?variant=${variant}`,
      headers: { cookie, 'content-type': body.contentType },
      payload: body.payload,
    });
  };
  const remove = (variant: string, cookie = admin) =>
    t.app.inject({ method: 'DELETE', url: `/api/admin/brand/logo?variant=${variant}`, headers: { cookie } });
  const get = (url: string) => t.app.inject({ method: 'GET', url });
  const publicBrand = async () => (await get('/api/brand')).json();
  const storedVariants = async () =>
    (await t.deps.db.selectFrom('brand_assets').select('variant').orderBy('variant').execute()).map(
      (r) => r.variant,
    );

  it('stores a PNG logo re-encoded, 256 px high, and serves it with its own type, nosniff and a script-free CSP', async () => {
    const res = await upload('light', { filename: 'logo.png', type: 'image/png', bytes: pngLogo });
    expect(res.statusCode, res.body).toBe(200);
    const { url } = res.json();
    expect(url).toMatch(/^\/brand-assets\/light-[0-9a-f]{16}\.png$/);
    expect((await publicBrand()).logoUrl).toBe(url);

    const served = await get(url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // E-mails show the logo from other origins (webmail pages): not helmet's same-origin.
    expect(served.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({
      format: 'png',
      width: 1024,
      height: 256,
    });

    const audit = await t.deps.db
      .selectFrom('audit_log')
      .select('detail')
      .where('action', '=', 'brand.asset')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(String(audit.detail))).toEqual({
      variant: 'light',
      action: 'upload',
      width: 1024,
      height: 256,
    });
  });

  it('stores a WebP dark logo as WebP, and a new upload replaces the old address', async () => {
    const first = (
      await upload('dark', { filename: 'dark.webp', type: 'image/webp', bytes: webpLogo })
    ).json();
    expect(first.url).toMatch(/^\/brand-assets\/dark-[0-9a-f]{16}\.webp$/);
    const served = await get(first.url);
    expect(served.headers['content-type']).toBe('image/webp');
    // A small raster is not enlarged: enlarging only blurs it.
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({
      format: 'webp',
      width: 600,
      height: 120,
    });

    const other = await solid(600, 120, '#065f46').webp().toBuffer();
    const second = (await upload('dark', { filename: 'dark.webp', type: 'image/webp', bytes: other })).json();
    expect(second.url).not.toBe(first.url);
    expect((await get(first.url)).statusCode).toBe(404);
    expect((await get(second.url)).statusCode).toBe(200);
    expect((await publicBrand()).logoDarkUrl).toBe(second.url);
  });

  it('draws an SVG carrying script, handlers, foreignObject and external images to a PNG with none of it', async () => {
    const res = await upload('light', {
      filename: 'logo.svg',
      type: 'image/svg+xml',
      bytes: Buffer.from(HOSTILE_SVG),
    });
    expect(res.statusCode, res.body).toBe(200);
    const { url } = res.json();
    // Never stored or served as SVG.
    expect(url).toMatch(/\.png$/);
    const served = await get(url);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.subarray(0, 8).equals(PNG_MAGIC)).toBe(true);
    const text = served.rawPayload.toString('latin1');
    for (const word of [
      'script',
      'onload',
      'onclick',
      'foreignObject',
      'evil.example',
      'javascript',
      'svg',
    ]) {
      expect(text.toLowerCase()).not.toContain(word.toLowerCase());
    }
    // Drawn to the logo height from its 400 × 100 viewBox, the wide aspect kept.
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ width: 1024, height: 256 });
    const stored = await t.deps.db
      .selectFrom('brand_assets')
      .select(['content_type', 'bytes'])
      .where('variant', '=', 'light')
      .executeTakeFirstOrThrow();
    expect(stored.content_type).toBe('image/png');
    expect(Buffer.from(stored.bytes).toString('latin1')).not.toContain('script');
  });

  it('draws an SVG declaring a huge size at the logo size, not at its declared one', async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="200000" height="50000"><rect width="100%" height="100%" fill="#123456"/></svg>';
    const res = await upload('light', {
      filename: 'big.svg',
      type: 'image/svg+xml',
      bytes: Buffer.from(svg),
    });
    expect(res.statusCode, res.body).toBe(200);
    const served = await get(res.json().url);
    const { width, height } = await sharp(served.rawPayload).metadata();
    expect(height).toBe(256);
    // 4:1 at 256 high, give or take the rounding of the drawing density.
    expect(Math.abs((width ?? 0) - 1024)).toBeLessThanOrEqual(1);
  });

  it('stores a square icon at 512 × 512, and refuses one that is not square', async () => {
    const res = await upload('icon', { filename: 'icon.png', type: 'image/png', bytes: squareIcon });
    expect(res.statusCode, res.body).toBe(200);
    const served = await get(res.json().url);
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({
      format: 'png',
      width: 512,
      height: 512,
    });

    const before = (await publicBrand()).iconUrl;
    const wide = await solid(300, 280, '#7c3aed').png().toBuffer();
    const refused = await upload('icon', { filename: 'icon.png', type: 'image/png', bytes: wide });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('The app icon must be square');
    expect(refused.json().fields).toHaveProperty('file');
    expect((await publicBrand()).iconUrl).toBe(before);
    // 2% off square is still square (an export rounding its size).
    const nearly = await solid(500, 492, '#7c3aed').png().toBuffer();
    expect((await upload('icon', { filename: 'i.png', type: 'image/png', bytes: nearly })).statusCode).toBe(
      200,
    );
  });

  it('refuses a file over 1 MB, and stores nothing', async () => {
    await remove('dark');
    const big = Buffer.concat([
      await solid(10, 10, '#000000').png().toBuffer(),
      Buffer.alloc(BRAND_ASSET_MAX_BYTES),
    ]);
    const res = await upload('dark', { filename: 'big.png', type: 'image/png', bytes: big });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toContain('1 MB');
    expect(await storedVariants()).not.toContain('dark');
  });

  it('refuses what is not a PNG, WebP or SVG whatever its name or declared type, and stores nothing', async () => {
    await remove('dark');
    const jpeg = await solid(200, 50, '#333333').jpeg().toBuffer();
    const gif = await solid(200, 50, '#333333').gif().toBuffer();
    for (const file of [
      { filename: 'notes.png', type: 'image/png', bytes: Buffer.from('just some text, not an image\n') },
      { filename: 'photo.png', type: 'image/png', bytes: jpeg },
      { filename: 'anim.webp', type: 'image/webp', bytes: gif },
      { filename: 'page.svg', type: 'image/svg+xml', bytes: Buffer.from('<html><body>hi</body></html>') },
      { filename: 'empty.png', type: 'image/png', bytes: Buffer.alloc(0) },
    ]) {
      const res = await upload('dark', file);
      expect(res.statusCode, file.filename).toBe(400);
      expect(res.json().fields, file.filename).toHaveProperty('file');
    }
    expect(await storedVariants()).not.toContain('dark');
  });

  it('refuses a decompression bomb by its pixel count before decoding it', async () => {
    const res = await upload('dark', {
      filename: 'bomb.png',
      type: 'image/png',
      bytes: pngClaiming(30_000, 30_000),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('too many pixels');
    expect(await storedVariants()).not.toContain('dark');
  });

  it('takes exactly one file, as multipart, for a known variant', async () => {
    const two = multipart([
      { filename: 'a.png', type: 'image/png', bytes: pngLogo },
      { name: 'other', filename: 'b.png', type: 'image/png', bytes: pngLogo },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/brand/logo?variant=dark',
      headers: { cookie: admin, 'content-type': two.contentType },
      payload: two.payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Send exactly one file');

    const json = await t.app.inject({
      method: 'POST',
      url: '/api/admin/brand/logo?variant=dark',
      headers: { cookie: admin },
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(415);
    const badVariant = await upload('banner', { filename: 'a.png', type: 'image/png', bytes: pngLogo });
    expect(badVariant.statusCode).toBe(400);
    expect(badVariant.json().message).toContain('variant');
    expect(await storedVariants()).not.toContain('dark');
  });

  it('removes an image: its address is gone, the brand says null, the audit says so', async () => {
    const { url } = (
      await upload('dark', { filename: 'd.webp', type: 'image/webp', bytes: webpLogo })
    ).json();
    const res = await remove('dark');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ logoDarkUrl: null });
    expect((await publicBrand()).logoDarkUrl).toBeNull();
    expect((await get(url)).statusCode).toBe(404);
    const audit = await t.deps.db
      .selectFrom('audit_log')
      .select('detail')
      .where('action', '=', 'brand.asset')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(String(audit.detail))).toEqual({
      variant: 'dark',
      action: 'remove',
      width: 600,
      height: 120,
    });
    // Removing again changes nothing and still answers the brand.
    expect((await remove('dark')).statusCode).toBe(200);
  });

  it('answers 404 for a made-up or malformed image address', async () => {
    for (const url of [
      '/brand-assets/light-0000000000000000.png',
      '/brand-assets/banner-0000000000000000.png',
      '/brand-assets/..%2F..%2Fetc%2Fpasswd',
    ]) {
      expect((await get(url)).statusCode, url).toBe(404);
    }
  });

  it('lets no client and nobody signed out upload or remove', async () => {
    const { cookie } = await createSignedInClient(t);
    const before = await storedVariants();
    for (const [who, status] of [
      [cookie, 403],
      ['', 401],
    ] as const) {
      const up = await upload('dark', { filename: 'a.png', type: 'image/png', bytes: pngLogo }, who);
      expect(up.statusCode).toBe(status);
      expect((await remove('light', who)).statusCode).toBe(status);
    }
    expect(await storedVariants()).toEqual(before);
  });
});

describe(`web app manifest and icons (${TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { AGENCY_NAME: 'Acme Answering Services' } });
    const a = await createAdminUser(t.deps);
    admin = await loginAdmin(t.app, a.username, a.password);
  });
  afterAll(() => t.close());

  const manifest = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/manifest+json');
    return res.json();
  };
  const icon = async (src: string) => {
    const res = await t.app.inject({ method: 'GET', url: src });
    expect(res.statusCode, src).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    return res;
  };
  const pixel = async (png: Buffer, x: number, y: number) => {
    const { data } = await sharp(png).extract({ left: x, top: y, width: 1, height: 1 }).raw().toBuffer({
      resolveWithObject: true,
    });
    return `#${[...data.subarray(0, 3)].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
  };

  it('names the configured agency and draws its initial until a brand is saved', async () => {
    const m = await manifest();
    expect(m).toMatchObject({
      id: '/',
      name: 'Acme Answering Services',
      short_name: 'Acme',
      start_url: '/dashboard',
      scope: '/',
      display: 'standalone',
      theme_color: '#155dfc',
      background_color: '#ffffff',
    });
    expect(m.short_name.length).toBeLessThanOrEqual(12);
    const purposes = m.icons.map((i: { sizes: string; purpose: string }) => `${i.sizes} ${i.purpose}`);
    expect(purposes).toEqual(['192x192 any', '512x512 any', '192x192 maskable', '512x512 maskable']);
    for (const i of m.icons) {
      expect(i.src).toMatch(/^\/brand-icons\/[a-z0-9-]+\.png\?v=[0-9a-f]{16}$/);
      const res = await icon(i.src);
      // The versioned address never changes content.
      expect(res.headers['cache-control']).toContain('immutable');
      expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
      const size = Number(i.sizes.split('x')[0]);
      expect(await sharp(res.rawPayload).metadata()).toMatchObject({
        format: 'png',
        width: size,
        height: size,
      });
    }
    // The maskable icon is full bleed in the brand's primary.
    const maskable = await icon(m.icons[3].src);
    expect(await pixel(maskable.rawPayload, 2, 2)).toBe('#155dfc');
    const favicon = await icon('/favicon.ico');
    expect(await sharp(favicon.rawPayload).metadata()).toMatchObject({ width: 32, height: 32 });
  });

  it('follows a saved brand: new name, colour and icon addresses; then the logo; then the icon', async () => {
    const before = await manifest();
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/brand',
      headers: { cookie: admin },
      payload: { name: 'Northwind Voice', primaryColor: '#ffd400' },
    });
    expect(put.statusCode).toBe(200);
    const saved = await manifest();
    expect(saved).toMatchObject({ name: 'Northwind Voice', short_name: 'Northwind', theme_color: '#ffd400' });
    expect(saved.icons[0].src).not.toBe(before.icons[0].src);
    const initial = await icon(saved.icons[3].src);
    expect(await pixel(initial.rawPayload, 2, 2)).toBe('#ffd400');

    // A dark logo reads on yellow: it sits on the primary.
    const logo = await sharp({ create: { width: 400, height: 100, channels: 4, background: '#111111' } })
      .png()
      .toBuffer();
    const up = await uploadAs(t, admin, 'light', logo);
    expect(up.statusCode, up.body).toBe(200);
    const withLogo = await manifest();
    expect(withLogo.icons[1].src).not.toBe(saved.icons[1].src);
    const big = await icon(withLogo.icons[1].src);
    expect(await sharp(big.rawPayload).metadata()).toMatchObject({ width: 512, height: 512 });
    expect(await pixel(big.rawPayload, 2, 2)).toBe('#ffd400');
    expect(await pixel(big.rawPayload, 256, 256)).toBe('#111111');

    // A logo in the brand's own yellow would vanish on yellow: it sits on white.
    const pale = await sharp({ create: { width: 400, height: 100, channels: 4, background: '#ffd400' } })
      .png()
      .toBuffer();
    await uploadAs(t, admin, 'light', pale);
    const paleIcon = await icon((await manifest()).icons[1].src);
    expect(await pixel(paleIcon.rawPayload, 2, 2)).toBe('#ffffff');

    // The uploaded icon wins over the logo.
    const square = await sharp({ create: { width: 64, height: 64, channels: 4, background: '#2e7d32' } })
      .png()
      .toBuffer();
    await uploadAs(t, admin, 'icon', square);
    const withIcon = await manifest();
    const any = await icon(withIcon.icons[0].src);
    expect(await sharp(any.rawPayload).metadata()).toMatchObject({ width: 192, height: 192 });
    expect(await pixel(any.rawPayload, 96, 96)).toBe('#2e7d32');
    const favicon = await icon('/favicon.ico');
    expect(await pixel(favicon.rawPayload, 16, 16)).toBe('#2e7d32');
  });

  it('revalidates an icon asked for at an old version, and answers 404 for an unknown icon', async () => {
    const stale = await icon('/brand-icons/192.png?v=0000000000000000');
    expect(stale.headers['cache-control']).toBe('no-cache');
    expect((await t.app.inject({ method: 'GET', url: '/brand-icons/1024.png' })).statusCode).toBe(404);
  });
});

function uploadAs(t: TestApp, cookie: string, variant: string, bytes: Buffer) {
  const body = multipart([{ filename: 'image.png', type: 'image/png', bytes }]);
  return t.app.inject({
    method: 'POST',
    url: `/api/admin/brand/logo?variant=${variant}`,
    headers: { cookie, 'content-type': body.contentType },
    payload: body.payload,
  });
}
