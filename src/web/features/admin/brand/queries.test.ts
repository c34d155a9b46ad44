import { describe, expect, it } from 'vitest';
import { BRAND_ASSET_MAX_BYTES } from '../../../../contract/brand';
import { brandFileProblem } from './queries';

const file = (name: string, type: string, size = 2048) => ({ name, type, size });

describe('brandFileProblem', () => {
  it('takes PNG, WebP and SVG up to 1 MB', () => {
    expect(brandFileProblem(file('logo.png', 'image/png'))).toBeNull();
    expect(brandFileProblem(file('logo.webp', 'image/webp'))).toBeNull();
    expect(brandFileProblem(file('logo.svg', 'image/svg+xml', BRAND_ASSET_MAX_BYTES))).toBeNull();
  });

  it('refuses other types, a file over 1 MB and an empty one before any request', () => {
    expect(brandFileProblem(file('logo.jpg', 'image/jpeg'))).toBe('Choose a PNG, WebP or SVG image');
    expect(brandFileProblem(file('logo.png', 'image/png', BRAND_ASSET_MAX_BYTES + 1))).toBe(
      'The image is larger than 1 MB',
    );
    expect(brandFileProblem(file('logo.png', 'image/png', 0))).toBe('The file is empty');
  });

  it('decides by the name when the system gave the file no type', () => {
    expect(brandFileProblem(file('logo.SVG', ''))).toBeNull();
    expect(brandFileProblem(file('logo.gif', ''))).toBe('Choose a PNG, WebP or SVG image');
  });
});
