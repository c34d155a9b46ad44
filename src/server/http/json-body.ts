/**
 * JSON bodies with a bounded nesting depth. A body nested thousands deep parses fine but overflows
 * the stack wherever it is later walked recursively (serialised for storage, validated), so the
 * depth is checked on the raw text before anything parses it: one pass, no recursion.
 */
import { badRequest } from './errors';

export const MAX_JSON_DEPTH = 64;

/** The deepest nesting of objects and arrays in JSON text, stopping once past `limit`. */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return deepest;
}

/** Throws the 400 every JSON route answers for a body nested deeper than the bound. */
export function assertJsonDepth(text: string): void {
  if (jsonDepth(text) > MAX_JSON_DEPTH) {
    throw badRequest(`Request body is nested too deeply (more than ${MAX_JSON_DEPTH} levels)`);
  }
}

/** A stored JSON object (details, analysis); anything else, or unreadable text, is null. */
export function parseJsonObject(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}
