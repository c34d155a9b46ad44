/**
 * Stripe's v1 wire format for request parameters: `application/x-www-form-urlencoded` with
 * bracketed nesting (`metadata[clientId]=…`, `items[0][price]=…`, `expand[]=…`), the same syntax in
 * query strings. Values stay strings, as they arrive; handlers read them through the typed getters.
 */
import { StripeSimError } from './errors';

export type FormValue = string | FormValue[] | FormObject;
export interface FormObject {
  [key: string]: FormValue;
}

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

export function parseForm(text: string): FormObject {
  const root: FormObject = {};
  if (!text) return root;
  for (const pair of text.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const key = decode(eq === -1 ? pair : pair.slice(0, eq));
    const value = decode(eq === -1 ? '' : pair.slice(eq + 1));
    assign(root, splitKey(key), value, key);
  }
  return arrayify(root, '') as FormObject;
}

function decode(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    throw StripeSimError.invalid(`Invalid URL encoding: ${raw.slice(0, 50)}`);
  }
}

function splitKey(key: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) throw StripeSimError.invalid(`Invalid parameter name: ${key}`);
  const path = [match[1]];
  for (const m of match[2].matchAll(/\[([^[\]]*)\]/g)) path.push(m[1]);
  for (const segment of path) {
    if (FORBIDDEN.has(segment)) throw StripeSimError.invalid(`Invalid parameter name: ${key}`);
  }
  return path;
}

function assign(root: FormObject, path: string[], value: string, key: string): void {
  let container: FormObject = root;
  for (let i = 0; i < path.length; i++) {
    // `[]` appends: the next free position in what becomes an array.
    const segment = path[i] === '' ? String(Object.keys(container).length) : path[i];
    if (i === path.length - 1) {
      if (typeof container[segment] === 'object') throw StripeSimError.invalid(`Invalid hash: ${key}`);
      container[segment] = value;
      return;
    }
    const next = container[segment];
    if (next === undefined) {
      const created: FormObject = {};
      container[segment] = created;
      container = created;
    } else if (typeof next === 'string' || Array.isArray(next)) {
      throw StripeSimError.invalid(`Invalid hash: ${key}`);
    } else {
      container = next;
    }
  }
}

/** Objects keyed 0..n-1 become arrays (metadata stays a hash whatever its keys look like). */
function arrayify(value: FormValue, parentKey: string): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  for (const k of keys) value[k] = arrayify(value[k], k);
  if (parentKey === 'metadata' || keys.length === 0 || !keys.every((k) => /^\d+$/.test(k))) return value;
  const indices = keys.map(Number).sort((a, b) => a - b);
  if (indices.some((n, i) => n !== i)) throw StripeSimError.invalid(`Invalid array: ${parentKey}`);
  return indices.map((n) => value[String(n)]);
}

// ---- typed getters: the messages follow Stripe's ("Invalid boolean: yes", "Invalid integer: x") ----

export function optString(params: FormObject, name: string): string | undefined {
  const v = params[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw StripeSimError.invalid(`Invalid string: ${name}`, name);
  return v;
}

export function reqString(params: FormObject, name: string): string {
  const v = optString(params, name);
  if (v === undefined || v === '') throw StripeSimError.missing(name);
  return v;
}

export function optBool(params: FormObject, name: string): boolean | undefined {
  const v = optString(params, name);
  if (v === undefined) return undefined;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw StripeSimError.invalid(`Invalid boolean: ${v}`, name);
}

export function optInt(params: FormObject, name: string): number | undefined {
  const v = optString(params, name);
  if (v === undefined) return undefined;
  if (!/^-?\d+$/.test(v)) throw StripeSimError.invalid(`Invalid integer: ${v}`, name);
  return Number(v);
}

export function optObject(params: FormObject, name: string): FormObject | undefined {
  const v = params[name];
  if (v === undefined || v === '') return undefined;
  if (typeof v === 'string' || Array.isArray(v))
    throw StripeSimError.invalid(`Invalid object: ${name}`, name);
  return v;
}

export function optArray(params: FormObject, name: string): FormValue[] | undefined {
  const v = params[name];
  if (v === undefined || v === '') return undefined;
  if (!Array.isArray(v)) throw StripeSimError.invalid(`Invalid array: ${name}`, name);
  return v;
}

export function stringList(params: FormObject, name: string): string[] {
  const list = optArray(params, name) ?? [];
  return list.map((v) => {
    if (typeof v !== 'string') throw StripeSimError.invalid(`Invalid array: ${name}`, name);
    return v;
  });
}

/** Metadata: strings only; an empty value deletes that key, `metadata=` clears the hash. */
export function applyMetadata(current: Record<string, string>, params: FormObject): Record<string, string> {
  const raw = params.metadata;
  if (raw === undefined) return current;
  if (raw === '') return {};
  if (typeof raw === 'string' || Array.isArray(raw))
    throw StripeSimError.invalid('Invalid hash: metadata', 'metadata');
  const next = { ...current };
  for (const [k, v] of Object.entries(raw)) {
    if (typeof v !== 'string') throw StripeSimError.invalid(`Invalid string: metadata[${k}]`, 'metadata');
    if (v === '') delete next[k];
    else next[k] = v;
  }
  return next;
}

/** Real Stripe answers 400 parameter_unknown for any top-level name an endpoint does not take. */
export function rejectUnknown(params: FormObject, allowed: readonly string[]): void {
  for (const name of Object.keys(params)) {
    if (!allowed.includes(name)) {
      throw new StripeSimError(400, {
        type: 'invalid_request_error',
        code: 'parameter_unknown',
        param: name,
        message: `Received unknown parameter: ${name}`,
      });
    }
  }
}
