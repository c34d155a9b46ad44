/**
 * Where a client is, as far as dates go: the time zone suggested from its country and US state
 * (the wizard's default), and the locale its dates are written in (derived from the country; the
 * client has no locale of its own, docs/design/notifications.md "Time zones and date formats").
 * A small table, not a geography: a country spread over several zones gets its most populous one,
 * and a country not listed suggests nothing (the browser's zone then) and writes dates as en-US.
 */

interface Country {
  /** ISO 3166-1 alpha-2. */
  code: string;
  /** Lower-case names and abbreviations people type, beside the code. */
  names: string[];
  zone: string;
  locale: string;
}

const COUNTRIES: Country[] = [
  {
    code: 'US',
    names: ['usa', 'us', 'united states', 'united states of america', 'america'],
    zone: 'America/New_York',
    locale: 'en-US',
  },
  { code: 'CA', names: ['canada'], zone: 'America/Toronto', locale: 'en-CA' },
  { code: 'MX', names: ['mexico', 'méxico'], zone: 'America/Mexico_City', locale: 'es-MX' },
  {
    code: 'GB',
    names: [
      'uk',
      'united kingdom',
      'great britain',
      'britain',
      'england',
      'scotland',
      'wales',
      'northern ireland',
    ],
    zone: 'Europe/London',
    locale: 'en-GB',
  },
  { code: 'IE', names: ['ireland', 'eire'], zone: 'Europe/Dublin', locale: 'en-IE' },
  { code: 'DE', names: ['germany', 'deutschland'], zone: 'Europe/Berlin', locale: 'de-DE' },
  { code: 'AT', names: ['austria', 'österreich'], zone: 'Europe/Vienna', locale: 'de-AT' },
  { code: 'CH', names: ['switzerland', 'schweiz', 'suisse'], zone: 'Europe/Zurich', locale: 'de-CH' },
  { code: 'FR', names: ['france'], zone: 'Europe/Paris', locale: 'fr-FR' },
  { code: 'BE', names: ['belgium', 'belgique', 'belgië'], zone: 'Europe/Brussels', locale: 'nl-BE' },
  {
    code: 'NL',
    names: ['netherlands', 'the netherlands', 'holland', 'nederland'],
    zone: 'Europe/Amsterdam',
    locale: 'nl-NL',
  },
  { code: 'LU', names: ['luxembourg'], zone: 'Europe/Luxembourg', locale: 'fr-LU' },
  { code: 'ES', names: ['spain', 'españa'], zone: 'Europe/Madrid', locale: 'es-ES' },
  { code: 'PT', names: ['portugal'], zone: 'Europe/Lisbon', locale: 'pt-PT' },
  { code: 'IT', names: ['italy', 'italia'], zone: 'Europe/Rome', locale: 'it-IT' },
  { code: 'SE', names: ['sweden', 'sverige'], zone: 'Europe/Stockholm', locale: 'sv-SE' },
  { code: 'NO', names: ['norway', 'norge'], zone: 'Europe/Oslo', locale: 'nb-NO' },
  { code: 'DK', names: ['denmark', 'danmark'], zone: 'Europe/Copenhagen', locale: 'da-DK' },
  { code: 'FI', names: ['finland', 'suomi'], zone: 'Europe/Helsinki', locale: 'fi-FI' },
  { code: 'PL', names: ['poland', 'polska'], zone: 'Europe/Warsaw', locale: 'pl-PL' },
  { code: 'CZ', names: ['czechia', 'czech republic'], zone: 'Europe/Prague', locale: 'cs-CZ' },
  { code: 'GR', names: ['greece'], zone: 'Europe/Athens', locale: 'el-GR' },
  { code: 'RO', names: ['romania'], zone: 'Europe/Bucharest', locale: 'ro-RO' },
  { code: 'TR', names: ['turkey', 'türkiye', 'turkiye'], zone: 'Europe/Istanbul', locale: 'tr-TR' },
  { code: 'UA', names: ['ukraine'], zone: 'Europe/Kyiv', locale: 'uk-UA' },
  { code: 'RU', names: ['russia', 'russian federation'], zone: 'Europe/Moscow', locale: 'ru-RU' },
  { code: 'IL', names: ['israel'], zone: 'Asia/Jerusalem', locale: 'he-IL' },
  { code: 'AE', names: ['uae', 'united arab emirates'], zone: 'Asia/Dubai', locale: 'en-AE' },
  { code: 'SA', names: ['saudi arabia'], zone: 'Asia/Riyadh', locale: 'en-SA' },
  { code: 'EG', names: ['egypt'], zone: 'Africa/Cairo', locale: 'en-EG' },
  { code: 'ZA', names: ['south africa'], zone: 'Africa/Johannesburg', locale: 'en-ZA' },
  { code: 'NG', names: ['nigeria'], zone: 'Africa/Lagos', locale: 'en-NG' },
  { code: 'KE', names: ['kenya'], zone: 'Africa/Nairobi', locale: 'en-KE' },
  { code: 'IN', names: ['india'], zone: 'Asia/Kolkata', locale: 'en-IN' },
  { code: 'PK', names: ['pakistan'], zone: 'Asia/Karachi', locale: 'en-PK' },
  { code: 'SG', names: ['singapore'], zone: 'Asia/Singapore', locale: 'en-SG' },
  { code: 'MY', names: ['malaysia'], zone: 'Asia/Kuala_Lumpur', locale: 'en-MY' },
  { code: 'PH', names: ['philippines'], zone: 'Asia/Manila', locale: 'en-PH' },
  { code: 'ID', names: ['indonesia'], zone: 'Asia/Jakarta', locale: 'id-ID' },
  { code: 'TH', names: ['thailand'], zone: 'Asia/Bangkok', locale: 'th-TH' },
  { code: 'VN', names: ['vietnam', 'viet nam'], zone: 'Asia/Ho_Chi_Minh', locale: 'vi-VN' },
  { code: 'CN', names: ['china'], zone: 'Asia/Shanghai', locale: 'zh-CN' },
  { code: 'HK', names: ['hong kong'], zone: 'Asia/Hong_Kong', locale: 'en-HK' },
  { code: 'TW', names: ['taiwan'], zone: 'Asia/Taipei', locale: 'zh-TW' },
  { code: 'JP', names: ['japan'], zone: 'Asia/Tokyo', locale: 'ja-JP' },
  { code: 'KR', names: ['south korea', 'korea'], zone: 'Asia/Seoul', locale: 'ko-KR' },
  { code: 'AU', names: ['australia'], zone: 'Australia/Sydney', locale: 'en-AU' },
  { code: 'NZ', names: ['new zealand'], zone: 'Pacific/Auckland', locale: 'en-NZ' },
  { code: 'BR', names: ['brazil', 'brasil'], zone: 'America/Sao_Paulo', locale: 'pt-BR' },
  { code: 'AR', names: ['argentina'], zone: 'America/Argentina/Buenos_Aires', locale: 'es-AR' },
  { code: 'CL', names: ['chile'], zone: 'America/Santiago', locale: 'es-CL' },
  { code: 'CO', names: ['colombia'], zone: 'America/Bogota', locale: 'es-CO' },
  { code: 'PE', names: ['peru', 'perú'], zone: 'America/Lima', locale: 'es-PE' },
];

/** US states (and DC, Puerto Rico): the zone most of each one's people live in. */
const US_STATES: [code: string, name: string, zone: string][] = [
  ['AL', 'alabama', 'America/Chicago'],
  ['AK', 'alaska', 'America/Anchorage'],
  ['AZ', 'arizona', 'America/Phoenix'],
  ['AR', 'arkansas', 'America/Chicago'],
  ['CA', 'california', 'America/Los_Angeles'],
  ['CO', 'colorado', 'America/Denver'],
  ['CT', 'connecticut', 'America/New_York'],
  ['DE', 'delaware', 'America/New_York'],
  ['DC', 'district of columbia', 'America/New_York'],
  ['FL', 'florida', 'America/New_York'],
  ['GA', 'georgia', 'America/New_York'],
  ['HI', 'hawaii', 'Pacific/Honolulu'],
  ['ID', 'idaho', 'America/Boise'],
  ['IL', 'illinois', 'America/Chicago'],
  ['IN', 'indiana', 'America/Indiana/Indianapolis'],
  ['IA', 'iowa', 'America/Chicago'],
  ['KS', 'kansas', 'America/Chicago'],
  ['KY', 'kentucky', 'America/New_York'],
  ['LA', 'louisiana', 'America/Chicago'],
  ['ME', 'maine', 'America/New_York'],
  ['MD', 'maryland', 'America/New_York'],
  ['MA', 'massachusetts', 'America/New_York'],
  ['MI', 'michigan', 'America/Detroit'],
  ['MN', 'minnesota', 'America/Chicago'],
  ['MS', 'mississippi', 'America/Chicago'],
  ['MO', 'missouri', 'America/Chicago'],
  ['MT', 'montana', 'America/Denver'],
  ['NE', 'nebraska', 'America/Chicago'],
  ['NV', 'nevada', 'America/Los_Angeles'],
  ['NH', 'new hampshire', 'America/New_York'],
  ['NJ', 'new jersey', 'America/New_York'],
  ['NM', 'new mexico', 'America/Denver'],
  ['NY', 'new york', 'America/New_York'],
  ['NC', 'north carolina', 'America/New_York'],
  ['ND', 'north dakota', 'America/Chicago'],
  ['OH', 'ohio', 'America/New_York'],
  ['OK', 'oklahoma', 'America/Chicago'],
  ['OR', 'oregon', 'America/Los_Angeles'],
  ['PA', 'pennsylvania', 'America/New_York'],
  ['PR', 'puerto rico', 'America/Puerto_Rico'],
  ['RI', 'rhode island', 'America/New_York'],
  ['SC', 'south carolina', 'America/New_York'],
  ['SD', 'south dakota', 'America/Chicago'],
  ['TN', 'tennessee', 'America/Chicago'],
  ['TX', 'texas', 'America/Chicago'],
  ['UT', 'utah', 'America/Denver'],
  ['VT', 'vermont', 'America/New_York'],
  ['VA', 'virginia', 'America/New_York'],
  ['WA', 'washington', 'America/Los_Angeles'],
  ['WV', 'west virginia', 'America/New_York'],
  ['WI', 'wisconsin', 'America/Chicago'],
  ['WY', 'wyoming', 'America/Denver'],
];

/** The default locale of dates: a client whose country is unknown reads them as SPEC's US English. */
export const DEFAULT_LOCALE = 'en-US';

/** "U.S.A." → "usa", "  Deutschland " → "deutschland". */
function normalise(text: string | null | undefined): string {
  return (text ?? '').trim().toLowerCase().replace(/[.,]/g, '').replace(/\s+/g, ' ');
}

function findCountry(country: string | null | undefined): Country | null {
  const key = normalise(country);
  if (!key) return null;
  return COUNTRIES.find((c) => c.code.toLowerCase() === key || c.names.includes(key)) ?? null;
}

function findUsState(state: string | null | undefined): string | null {
  const key = normalise(state);
  if (!key) return null;
  return US_STATES.find(([code, name]) => code.toLowerCase() === key || name === key)?.[2] ?? null;
}

/** Where a client is, as its form says (free text, any spelling the table knows). */
export interface Whereabouts {
  country?: string | null;
  state?: string | null;
}

/**
 * The zone to suggest for a client: its US state's, else its country's most populous one; a US
 * state with no country counts as the US. Null when neither says (the caller falls back to the
 * admin's browser, or UTC).
 */
export function suggestTimeZone({ country, state }: Whereabouts): string | null {
  const found = findCountry(country);
  if (found?.code === 'US' || (!found && !normalise(country))) {
    const zone = findUsState(state);
    if (zone) return zone;
  }
  return found?.zone ?? null;
}

/** The locale a client's dates are written in: its country's, or en-US. */
export function localeOf(country: string | null | undefined): string {
  return findCountry(country)?.locale ?? DEFAULT_LOCALE;
}
