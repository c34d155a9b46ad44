import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultBrandSettings, toPublicBrand } from '../../contract/brand';
import {
  applyBrandPalette,
  BRAND_STYLE_ID,
  brandCss,
  DEFAULT_BRAND,
  fetchBrand,
  isDefaultPalette,
  parsePublicBrand,
  readBrandFromDocument,
} from './brand';
import { pageTitle } from './use-page-title';

const NO_ASSETS = { logoUrl: null, logoDarkUrl: null, iconUrl: null };
const northwind = toPublicBrand(
  {
    ...defaultBrandSettings('Northwind Voice'),
    primaryColor: '#ffd400',
    supportUrl: 'https://help.example.com',
  },
  { ...NO_ASSETS, logoUrl: '/brand-assets/light-0123456789abcdef.png' },
);

/**
 * Just enough of a Document for the functions under test (the unit project runs in Node, without
 * a DOM); the tests cast it to Document because these functions touch nothing else.
 */
function fakeDocument(elements: Record<string, { textContent: string | null }> = {}) {
  const head: Array<{ id: string; textContent: string | null }> = [];
  return {
    head: { append: (el: { id: string; textContent: string | null }) => head.push(el) },
    createElement: () => ({ id: '', textContent: null as string | null }),
    getElementById: (id: string) => elements[id] ?? head.find((el) => el.id === id) ?? null,
    appended: head,
  };
}

describe('parsePublicBrand', () => {
  it('accepts the server’s answer as it is', () => {
    expect(parsePublicBrand(JSON.parse(JSON.stringify(northwind)))).toEqual(northwind);
  });

  it('refuses what is not a PublicBrand, so the defaults stay', () => {
    expect(parsePublicBrand(null)).toBeNull();
    expect(parsePublicBrand({ name: 'Northwind Voice' })).toBeNull();
    expect(parsePublicBrand('<html>')).toBeNull();
    expect(parsePublicBrand({ ...northwind, name: '   ' })).toBeNull();
    // A field of another type, a missing one, a palette colour left out: none is a PublicBrand.
    expect(parsePublicBrand({ ...northwind, supportEmail: 42 })).toBeNull();
    const { footerText: _, ...withoutFooter } = northwind;
    expect(parsePublicBrand(withoutFooter)).toBeNull();
    const { accent: __, ...paletteWithoutAccent } = northwind.palette;
    expect(parsePublicBrand({ ...northwind, palette: paletteWithoutAccent })).toBeNull();
    expect(parsePublicBrand({ ...northwind, palette: [] })).toBeNull();
  });

  it('keeps only the PublicBrand’s fields', () => {
    const parsed = parsePublicBrand({
      ...northwind,
      secret: 'x',
      palette: { ...northwind.palette, extra: '#000000' },
    });
    expect(parsed).toEqual(northwind);
  });

  it('refuses a palette colour that is not #rrggbb: it would be written into a style sheet', () => {
    const injected = { ...northwind, palette: { ...northwind.palette, primary: 'red}body{display:none' } };
    expect(parsePublicBrand(injected)).toBeNull();
  });

  it('drops image addresses off this origin and support links that are not https', () => {
    const parsed = parsePublicBrand({
      ...northwind,
      logoUrl: 'https://evil.example/logo.png',
      logoDarkUrl: '//evil.example/logo.png',
      iconUrl: 'javascript:alert(1)',
      supportUrl: 'http://help.example.com',
    });
    expect(parsed).toMatchObject({ logoUrl: null, logoDarkUrl: null, iconUrl: null, supportUrl: null });
    expect(parsed?.name).toBe('Northwind Voice');
  });
});

describe('readBrandFromDocument', () => {
  it('reads the first HTML’s brand-data block', () => {
    const doc = fakeDocument({ 'brand-data': { textContent: JSON.stringify(northwind) } });
    expect(readBrandFromDocument(doc as unknown as Document)).toEqual(northwind);
  });

  it('is null without the block (npm run dev, tests) or with a broken one', () => {
    expect(readBrandFromDocument(fakeDocument() as unknown as Document)).toBeNull();
    const broken = fakeDocument({ 'brand-data': { textContent: '{"name": "Nor' } });
    expect(readBrandFromDocument(broken as unknown as Document)).toBeNull();
  });
});

describe('fetchBrand (no brand in the first HTML)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  function answer(status: number, body: string) {
    const fetchMock = vi.fn(async () => new Response(body, { status }));
    vi.stubGlobal('fetch', fetchMock);
    return fetchMock;
  }
  // `as`: the query function reads only the signal; the rest of react-query's context is not built here.
  const run = () =>
    fetchBrand({
      queryKey: ['/api/brand'],
      signal: new AbortController().signal,
      meta: undefined,
      client: undefined as never,
    } as Parameters<typeof fetchBrand>[0]);

  it('reads GET /api/brand, revalidating past the browser’s one-minute cache', async () => {
    const fetchMock = answer(200, JSON.stringify(northwind));
    expect(await run()).toEqual(northwind);
    expect(fetchMock).toHaveBeenCalledWith('/api/brand', expect.objectContaining({ cache: 'no-cache' }));
  });

  it('keeps the product’s defaults on an error status, a non-JSON body or a wrong shape', async () => {
    answer(500, '{"message":"Internal Server Error"}');
    expect(await run()).toEqual(DEFAULT_BRAND);
    answer(200, '<!doctype html><html></html>');
    expect(await run()).toEqual(DEFAULT_BRAND);
    answer(200, JSON.stringify({ ...northwind, palette: { primary: 'yellow' } }));
    expect(await run()).toEqual(DEFAULT_BRAND);
  });
});

describe('brandCss', () => {
  it('writes the palette for the light and the dark theme, dark last', () => {
    const css = brandCss(northwind.palette);
    expect(css).toContain(':root:root{--primary:#ffd400;--primary-foreground:#000000;');
    expect(css).toContain(`--primary-text:${northwind.palette.primaryText};`);
    expect(northwind.palette.primaryText).not.toBe('#ffd400');
    expect(css).toContain(`:root.dark{--primary:${northwind.palette.primaryDark};`);
    expect(css.indexOf('.dark')).toBeGreaterThan(css.indexOf(':root'));
  });

  it('outranks the stylesheet’s :root and .dark, which npm run dev adds after it', () => {
    // Two simple selectors each against the stylesheet's one: order no longer decides.
    const selectors = [...brandCss(northwind.palette).matchAll(/([^{}]+)\{/g)].map((m) => m[1]);
    expect(selectors).toEqual([':root:root', ':root.dark']);
  });

  it('throws on anything but #rrggbb rather than write it', () => {
    expect(() => brandCss({ ...northwind.palette, accent: 'url(x)' })).toThrow();
  });
});

describe('applyBrandPalette', () => {
  it('writes a saved brand’s colours once, and empties them again for the product’s own', () => {
    const doc = fakeDocument();
    applyBrandPalette(doc as unknown as Document, northwind);
    const style = doc.getElementById(BRAND_STYLE_ID);
    expect(style?.textContent).toBe(brandCss(northwind.palette));
    applyBrandPalette(doc as unknown as Document, northwind);
    expect(doc.appended).toHaveLength(1);

    const unsaved = toPublicBrand(defaultBrandSettings('Call Analytics'), NO_ASSETS);
    expect(isDefaultPalette(unsaved)).toBe(true);
    applyBrandPalette(doc as unknown as Document, unsaved);
    expect(style?.textContent).toBe('');
  });
});

describe('pageTitle', () => {
  it('names the page and the agency', () => {
    expect(pageTitle('Dashboard', 'Northwind Voice')).toBe('Dashboard · Northwind Voice');
    expect(pageTitle('', 'Northwind Voice')).toBe('Northwind Voice');
    expect(pageTitle('Client Login', DEFAULT_BRAND.name)).toBe('Client Login · Call Analytics');
  });
});
