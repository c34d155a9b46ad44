/**
 * Between the saved brand and the Brand form: the form holds text ('' for "not set"), the contract
 * parses it (BrandSettings: trimmed, '' → null, colours lower-cased), and a save sends only the
 * fields that differ from what is saved.
 */
import type { z } from 'zod';
import { type AdminBrand, BRAND_SETTING_FIELDS, type BrandSettings } from '../../../../contract/brand';

export type BrandFormInput = z.input<typeof BrandSettings>;
export type BrandField = keyof BrandSettings;

export const BRAND_FIELDS = BRAND_SETTING_FIELDS;

export function isBrandField(name: string): name is BrandField {
  // includes takes only BrandField; `name` is any string until it passes
  return (BRAND_FIELDS as readonly string[]).includes(name);
}

export function formValuesOf(brand: AdminBrand): BrandFormInput {
  return {
    name: brand.name,
    primaryColor: brand.primaryColor,
    accentColor: brand.accentColor,
    supportEmail: brand.supportEmail ?? '',
    supportPhone: brand.supportPhone ?? '',
    supportUrl: brand.supportUrl ?? '',
    loginHeadline: brand.loginHeadline ?? '',
    loginText: brand.loginText ?? '',
    footerText: brand.footerText ?? '',
    landingHeadline: brand.landingHeadline ?? '',
    landingText: brand.landingText ?? '',
    emailSenderName: brand.emailSenderName ?? '',
    emailReplyTo: brand.emailReplyTo ?? '',
  };
}

/** The parsed fields whose value differs from the saved brand: the body of the PUT. */
export function changedFields(next: BrandSettings, saved: AdminBrand): Partial<BrandSettings> {
  const changes: Partial<BrandSettings> = {};
  const copyIfChanged = <K extends BrandField>(field: K) => {
    if (next[field] !== saved[field]) changes[field] = next[field];
  };
  for (const field of BRAND_FIELDS) copyIfChanged(field);
  return changes;
}
