import { describe, expect, it } from 'vitest';
import { type AdminBrand, BrandSettings, defaultBrandSettings } from '../../../../contract/brand';
import { brandPalette } from '../../../../contract/brand-contrast';
import { changedFields, formValuesOf } from './brand-form-values';

function savedBrand(overrides: Partial<AdminBrand> = {}): AdminBrand {
  const settings = defaultBrandSettings('Call Analytics');
  const { adjusted, ...palette } = brandPalette(settings.primaryColor, settings.accentColor);
  return {
    ...settings,
    logoUrl: null,
    logoDarkUrl: null,
    iconUrl: null,
    saved: false,
    updatedAt: null,
    palette,
    contrast: { adjusted },
    ...overrides,
  };
}

describe('brand form values', () => {
  it('shows unset fields as empty text and parses back to the same brand', () => {
    const brand = savedBrand({ supportPhone: '+1 555 0100' });
    const values = formValuesOf(brand);
    expect(values.supportEmail).toBe('');
    expect(values.supportPhone).toBe('+1 555 0100');
    expect(changedFields(BrandSettings.parse(values), brand)).toEqual({});
  });

  it('sends only what changed, cleared fields as null, colours as the contract writes them', () => {
    const brand = savedBrand({ footerText: 'Old footer' });
    const values = {
      ...formValuesOf(brand),
      name: '  Northwind Voice ',
      primaryColor: '#FFD400',
      footerText: '',
    };
    expect(changedFields(BrandSettings.parse(values), brand)).toEqual({
      name: 'Northwind Voice',
      primaryColor: '#ffd400',
      footerText: null,
    });
  });
});
