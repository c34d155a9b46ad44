/**
 * A browser's User-Agent as a person reads it in the sessions list: "Chrome on macOS". Only the
 * common browsers and systems; anything else is "Unknown browser" / "unknown system". A full UA
 * database is not worth its weight here: the label helps a person recognise their own devices,
 * nothing decides on it.
 */

// Order matters: Edge and Opera also say "Chrome", Chrome also says "Safari", iOS browsers "Mobile Safari".
const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bCriOS\//, 'Chrome'],
  [/\bHeadlessChrome\//, 'Chrome'],
  [/\bChrom(e|ium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/\bcurl\//, 'curl'],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

export function describeDevice(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown device';
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (!browser && !system) return 'Unknown device';
  return `${browser ?? 'Unknown browser'} on ${system ?? 'unknown system'}`;
}
