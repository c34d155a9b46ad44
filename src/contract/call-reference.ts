/**
 * A call's reference: the short, copyable name of a call a person reads in the call log, the
 * call drawer, an e-mail about the call and a webhook event, and types into the log's search to
 * find it again. It is the start of the call's own id (`call.id`, ours, never the voice
 * platform's), so a developer matching a webhook's `call.id` sees the same characters. Pure and
 * schema-free: the browser's entry bundle may read it.
 */

/** Characters of the id a reference keeps: the first group of a UUID. */
export const CALL_REFERENCE_LENGTH = 8;

/** The reference of a call id: its first letters and digits, lower case ("3f2a91c0"). */
export function callReference(callId: string): string {
  return callId
    .replace(/[^0-9A-Za-z]/g, '')
    .slice(0, CALL_REFERENCE_LENGTH)
    .toLowerCase();
}

const REFERENCE = new RegExp(`^#?([0-9a-f]{${CALL_REFERENCE_LENGTH}})$`, 'i');

/** The reference a search text names (as shown, with or without a leading #, any case), or null. */
export function referenceOf(text: string): string | null {
  const match = REFERENCE.exec(text.trim());
  return match?.[1] ? match[1].toLowerCase() : null;
}
