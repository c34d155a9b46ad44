/**
 * The agency's brand: GET /api/brand before any is saved (AGENCY_NAME), PUT as a
 * patch with the contrast report, 400s naming the field, no secrets in the public answer, and
 * nobody but an admin changing it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetBrand } from '../../src/server/brand/brand-store';
import { createAdminUser, createSignedInClient, loginAdmin } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

describe(`brand settings (${TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    const a = await createAdminUser(t.deps);
    admin = await loginAdmin(t.app, a.username, a.password);
  });
  afterAll(() => t.close());

  const put = (payload: unknown, cookie = admin) =>
    t.app.inject({ method: 'PUT', url: '/api/admin/brand', headers: { cookie }, payload: payload as object });
  const publicBrand = async () => (await t.app.inject({ method: 'GET', url: '/api/brand' })).json();

  it('answers the configured name and the product’s colours until a brand is saved', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/brand' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('max-age=60');
    const brand = res.json();
    // Not saved: the browser shows the product's own landing page, in SPEC's words.
    expect(brand).toMatchObject({
      name: t.deps.config.brandName,
      logoUrl: null,
      primaryColor: '#155dfc',
      saved: false,
    });
    const saved = (
      await t.app.inject({ method: 'GET', url: '/api/admin/brand', headers: { cookie: admin } })
    ).json();
    expect(saved).toMatchObject({ saved: false, updatedAt: null });
    // The product's own blue reads on white; only its dark-theme shade is lighter.
    expect(saved.contrast.adjusted.map((a: { pair: string }) => a.pair)).toEqual([
      'Primary colour as text on the dark theme',
    ]);
  });

  it('saves a yellow brand, keeps the fill, puts black text on it and reports the darker text shade', async () => {
    const res = await put({
      name: 'Northwind Voice',
      primaryColor: '#FFD400',
      supportEmail: 'help@northwind.example',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ name: 'Northwind Voice', primaryColor: '#ffd400', saved: true });
    expect(body.palette.primaryForeground).toBe('#000000');
    expect(body.contrast.adjusted).toEqual([
      expect.objectContaining({
        pair: 'Primary colour as text on white',
        from: '#ffd400',
        to: body.palette.primaryText,
      }),
    ]);
    expect(await publicBrand()).toMatchObject({
      name: 'Northwind Voice',
      primaryColor: '#ffd400',
      primaryForeground: '#000000',
      supportEmail: 'help@northwind.example',
    });
  });

  it('is a patch: what is left out stays, an empty text clears its field', async () => {
    await put({ loginHeadline: 'Your calls, answered', footerText: 'Northwind Voice Ltd' });
    const body = (await put({ footerText: '' })).json();
    expect(body).toMatchObject({
      name: 'Northwind Voice',
      loginHeadline: 'Your calls, answered',
      footerText: null,
    });
  });

  it('gives the saved brand its own public page: headline and text default from the name', async () => {
    expect(await publicBrand()).toMatchObject({
      saved: true,
      landingHeadline: 'Welcome to Northwind Voice',
      landingText: expect.stringContaining('Sign in'),
    });
    const body = (
      await put({ landingHeadline: ' Calls that close ', landingText: 'Your line, our agents.' })
    ).json();
    expect(body).toMatchObject({
      landingHeadline: 'Calls that close',
      landingText: 'Your line, our agents.',
    });
    expect(await publicBrand()).toMatchObject({
      landingHeadline: 'Calls that close',
      landingText: 'Your line, our agents.',
    });
    // Cleared, they fall back to the defaults again.
    await put({ landingHeadline: '', landingText: '' });
    expect(await publicBrand()).toMatchObject({ landingHeadline: 'Welcome to Northwind Voice' });
  });

  it('refuses a bad field with a 400 naming it, and changes nothing', async () => {
    const before = await publicBrand();
    for (const [payload, field] of [
      [{ primaryColor: 'yellow' }, 'primaryColor'],
      [{ accentColor: '#12345' }, 'accentColor'],
      [{ supportUrl: 'javascript:alert(1)' }, 'supportUrl'],
      [{ supportUrl: 'http://plain.example' }, 'supportUrl'],
      [{ supportEmail: 'not-an-email' }, 'supportEmail'],
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(81) }, 'name'],
      [{ landingHeadline: 'x'.repeat(121) }, 'landingHeadline'],
      [{ landingText: 'x'.repeat(401) }, 'landingText'],
      [{ landingHeadline: 42 }, 'landingHeadline'],
      [{ logoUrl: 'https://evil.example/x.png' }, 'logoUrl'],
    ] as const) {
      const res = await put(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(JSON.stringify(res.json()), JSON.stringify(payload)).toContain(field);
    }
    expect((await put({})).statusCode).toBe(400);
    expect(await publicBrand()).toEqual(before);
  });

  it('keeps sender settings out of the public answer', async () => {
    await put({ emailSenderName: 'Northwind Support', emailReplyTo: 'replies@northwind.example' });
    const brand = await publicBrand();
    expect(JSON.stringify(brand)).not.toContain('replies@northwind.example');
    expect(brand).not.toHaveProperty('emailSenderName');
  });

  it('lets no client and nobody signed out read or change the saved brand', async () => {
    const { cookie } = await createSignedInClient(t);
    for (const [cookieHeader, status] of [
      [cookie, 403],
      ['', 401],
    ] as const) {
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/admin/brand', headers: { cookie: cookieHeader } }))
          .statusCode,
      ).toBe(status);
      expect((await put({ name: 'Hijacked' }, cookieHeader)).statusCode).toBe(status);
      expect(
        (await t.app.inject({ method: 'DELETE', url: '/api/admin/brand', headers: { cookie: cookieHeader } }))
          .statusCode,
      ).toBe(status);
    }
    expect((await publicBrand()).name).toBe('Northwind Voice');
  });

  it('records each save in the audit log with the fields changed', async () => {
    await put({ accentColor: '#aa00aa' });
    const row = await t.deps.db
      .selectFrom('audit_log')
      .select(['action', 'detail'])
      .where('action', '=', 'brand.update')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(String(row.detail))).toEqual({ fields: ['accentColor'] });
  });

  it('falls back to the defaults, field by field, when the stored row no longer reads', async () => {
    await t.deps.db
      .updateTable('agency_brand')
      .set({ settings: '{"name": 42, "primaryColor": "#00aa00"' })
      .execute();
    forgetBrand(t.deps);
    const brand = await publicBrand();
    expect(brand.name).toBe(t.deps.config.brandName);
    await t.deps.db
      .updateTable('agency_brand')
      .set({ settings: '{"name": "Recovered", "primaryColor": "nope"}' })
      .execute();
    forgetBrand(t.deps);
    expect((await publicBrand()).name).toBe(t.deps.config.brandName);
  });

  it('forgets the saved brand on DELETE: the product, and its own landing page, return', async () => {
    await put({ name: 'Northwind Voice', landingHeadline: 'Calls that close' });
    const res = await t.app.inject({ method: 'DELETE', url: '/api/admin/brand', headers: { cookie: admin } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ saved: false, name: t.deps.config.brandName, landingHeadline: null });
    expect(await publicBrand()).toMatchObject({ saved: false, name: t.deps.config.brandName });
    const row = await t.deps.db
      .selectFrom('audit_log')
      .select(['detail'])
      .where('action', '=', 'brand.update')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(String(row.detail))).toEqual({ reset: true });
  });
});
