/**
 * The first HTML's pieces on their own: the JSON block cannot be closed by any text, the style
 * takes only #rrggbb colours, the page still loads (with the configured name) when the brand
 * cannot be read, and the manifest's short name fits a home screen.
 */
import { describe, expect, it } from 'vitest';
import { defaultBrandSettings, toPublicBrand } from '../../contract/brand';
import { shortName } from './assets-routes';
import { brandStyle, createFirstHtml, renderFirstHtml, scriptSafeJson } from './first-html';
import { initialSvg, nameInitial } from './icons';

const brand = (name: string, primaryColor = '#155dfc') =>
  toPublicBrand(
    { ...defaultBrandSettings(name), primaryColor },
    { logoUrl: null, logoDarkUrl: null, iconUrl: null },
  );
const TEMPLATE =
  '<html><head><title>Product</title><link rel="icon" href="x.svg"></head><body></body></html>';

describe('first HTML', () => {
  it('keeps every text inside the JSON block, and parses back to the same value', () => {
    const nasty = '</script><!-- <script>alert(1)</script> & \u2028\u2029 </SCRIPT>';
    const json = scriptSafeJson({ name: nasty });
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual({ name: nasty });
  });

  it('writes only #rrggbb colours into the style, leaving out anything else', () => {
    expect(brandStyle(brand('Acme'))).toBe('');
    const b = brand('Acme', '#0b3d91');
    const style = brandStyle({ ...b, palette: { ...b.palette, primaryHover: 'red;}body{display:none' } });
    expect(style).not.toContain('display');
    expect(style).not.toContain('--primary-hover:red');
    expect(style).toMatch(/^:root:root\{--primary:#0b3d91;--primary-foreground:#ffffff;--primary-text:/);
  });

  it('replaces the template’s title and icon and adds the brand before </head>', () => {
    const html = renderFirstHtml(TEMPLATE, brand('Acme'));
    expect(html).not.toContain('<title>Product</title>');
    expect(html).not.toContain('x.svg');
    expect(html).toMatch(/<title>Acme<\/title>[\s\S]*id="brand-data"[\s\S]*<\/head>/);
  });

  it('sends the page with the configured name when the brand cannot be read', async () => {
    const errors: unknown[] = [];
    const page = createFirstHtml(
      TEMPLATE,
      () => Promise.reject(new Error('database down')),
      'Fallback Agency',
      (e) => errors.push(e),
    );
    const html = await page();
    expect(html).toContain('<title>Fallback Agency</title>');
    expect(errors).toHaveLength(1);
  });

  it('cuts the short name at a word within 12 characters', () => {
    expect(shortName('Acme')).toBe('Acme');
    expect(shortName('Northwind Voice')).toBe('Northwind');
    expect(shortName('Big Red Dog Answering')).toBe('Big Red Dog');
    expect(shortName('Supercalifragilistic Calls')).toBe('Supercalifra');
  });

  it('escapes the initial in the generated icon', () => {
    expect(nameInitial('  émile')).toBe('É');
    const svg = initialSvg('<script>', '#155dfc', '#ffffff', 'any');
    expect(svg).toContain('>&lt;</text>');
    expect(svg).not.toContain('<script');
  });
});
