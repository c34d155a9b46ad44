/** Option lists of SPEC §3 as select items (create and edit variants differ). */
import {
  ACCOUNT_TYPES,
  ACCOUNT_TYPE_LABELS,
  COMPANY_SIZES_CREATE,
  COMPANY_SIZES_EDIT,
  INDUSTRIES_CREATE,
  INDUSTRIES_EDIT,
  INDUSTRY_LABELS,
} from '../../../contract/admin';
import { VOICE_PROVIDERS, VOICE_PROVIDER_NAMES } from '../../../contract/providers';

/** The voice platforms a client's agents can run on. */
export const PROVIDER_OPTIONS = VOICE_PROVIDERS.map((value) => ({
  value,
  label: VOICE_PROVIDER_NAMES[value],
}));

const industry = (value: string) => ({ value, label: INDUSTRY_LABELS[value] ?? value });
const size = (value: string) => ({ value, label: `${value} employees` });

export const CREATE_INDUSTRY_OPTIONS = INDUSTRIES_CREATE.map(industry);
export const EDIT_INDUSTRY_OPTIONS = INDUSTRIES_EDIT.map(industry);
export const CREATE_SIZE_OPTIONS = COMPANY_SIZES_CREATE.map(size);
export const EDIT_SIZE_OPTIONS = COMPANY_SIZES_EDIT.map(size);
export const ACCOUNT_TYPE_OPTIONS = ACCOUNT_TYPES.map((value) => ({
  value,
  label: ACCOUNT_TYPE_LABELS[value],
}));
