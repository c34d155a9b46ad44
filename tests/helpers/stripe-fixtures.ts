/**
 * Stripe publishes, beside its OpenAPI document, one complete example of every API object
 * (openapi/fixtures3.json in stripe/openapi; copied to specs/stripe). These checks hold an object
 * our Stripe stand-in answers against Stripe's example of the same type: no field Stripe does not
 * have is invented, and each value has the JSON type Stripe's has (an id where Stripe has an id
 * may be the expanded object). Nested objects with an `object` type are checked the same way.
 * Fields Stripe sends that the stand-in leaves out (tax, shipping, Connect…) are listed by
 * `stripeOmissions`, for the README's record, not failed: nothing here reads them, and the
 * behaviour tests fail if a field the product reads goes missing.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const fixtures = (
  JSON.parse(readFileSync(path.resolve('specs/stripe/fixtures3.json'), 'utf8')) as {
    resources: Record<string, Record<string, Json>>;
  }
).resources;

/** Fields Stripe leaves out unless asked for with expand[] ("includable"), absent from the examples. */
const INCLUDABLE: Record<string, string[]> = { invoice: ['confirmation_secret', 'payments'] };

const kind = (v: Json) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

export function stripeShapeProblems(value: Json, where = '(root)'): string[] {
  const problems: string[] = [];
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) problems.push(...stripeShapeProblems(v, `${where}[${i}]`));
    return problems;
  }
  if (value === null || typeof value !== 'object') return problems;
  const type = typeof value.object === 'string' ? value.object : null;
  const example = type ? fixtures[type] : undefined;
  if (type && example) {
    const includable = INCLUDABLE[type] ?? [];
    for (const [key, ours] of Object.entries(value)) {
      if (!(key in example)) {
        if (!includable.includes(key))
          problems.push(`${where} (${type}) has ${key}, which Stripe's ${type} does not`);
        continue;
      }
      const theirs = example[key];
      if (ours === null || theirs === null) continue;
      const expanded = kind(theirs) === 'string' && kind(ours) === 'object';
      if (kind(ours) !== kind(theirs) && !expanded)
        problems.push(`${where}.${key} (${type}) is ${kind(ours)} where Stripe's is ${kind(theirs)}`);
    }
  }
  for (const [key, v] of Object.entries(value)) {
    if (v && typeof v === 'object') problems.push(...stripeShapeProblems(v, `${where}.${key}`));
  }
  return problems;
}

/** Per object type, the fields Stripe's example has and `value` (with what it nests) lacks. */
export function stripeOmissions(
  value: Json,
  into = new Map<string, Set<string>>(),
): Map<string, Set<string>> {
  if (Array.isArray(value)) {
    for (const v of value) stripeOmissions(v, into);
    return into;
  }
  if (value === null || typeof value !== 'object') return into;
  const type = typeof value.object === 'string' ? value.object : null;
  const example = type ? fixtures[type] : undefined;
  if (type && example) {
    const missing = into.get(type) ?? new Set<string>();
    for (const key of Object.keys(example)) if (!(key in value)) missing.add(key);
    into.set(type, missing);
  }
  for (const v of Object.values(value)) if (v && typeof v === 'object') stripeOmissions(v, into);
  return into;
}
