/** Option lists of SPEC §3 as select items: the wizard and Edit Client offer the same ones. */
import {
  ACCOUNT_TYPE_LABELS,
  ACCOUNT_TYPES,
  COMPANY_SIZES,
  INDUSTRIES,
  INDUSTRY_LABELS,
} from '../../../contract/admin';
import { VOICE_PLATFORMS, VOICE_PROVIDERS } from '../../../contract/providers';

/** The voice platforms a client's agents can run on. */
export const PROVIDER_OPTIONS = VOICE_PROVIDERS.map((value) => ({
  value,
  label: VOICE_PLATFORMS[value].name,
}));

const industry = (value: string) => ({ value, label: INDUSTRY_LABELS[value] ?? value });
const size = (value: string) => ({ value, label: `${value} employees` });

export const INDUSTRY_OPTIONS = INDUSTRIES.map(industry);
export const SIZE_OPTIONS = COMPANY_SIZES.map(size);

/** The sizes offered for a client: the one list, and the client's own size if an older list gave it. */
export function sizeOptionsFor(stored: string | null | undefined) {
  // includes takes only CompanySize; `stored` is any string until it passes
  const offered = (COMPANY_SIZES as readonly string[]).includes(stored ?? '');
  return stored && !offered ? [...SIZE_OPTIONS, size(stored)] : SIZE_OPTIONS;
}
export const ACCOUNT_TYPE_OPTIONS = ACCOUNT_TYPES.map((value) => ({
  value,
  label: ACCOUNT_TYPE_LABELS[value],
}));
