/**
 * Update bodies are patches: a field left out keeps the stored value, never a default.
 * These helpers turn a parsed body into the columns to set, leaving out what was not sent, so
 * neither the UPDATE nor an audit row's list of changed fields names it.
 */

/** A text sent empty clears its column; left out, the column is not in the update. */
export function textOrNull(sent: string | undefined): string | null | undefined {
  return sent === undefined ? undefined : sent || null;
}

/** Applies `to` to a value that was sent; left out stays left out. */
export function ifSent<T, R>(sent: T | undefined, to: (value: T) => R): R | undefined {
  return sent === undefined ? undefined : to(sent);
}

/** The changes without the columns the body left out. */
export function sentOnly<T extends object>(changes: T): Partial<T> {
  // Object.fromEntries loses the key types; these are T's own keys, minus some
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as Partial<T>;
}
