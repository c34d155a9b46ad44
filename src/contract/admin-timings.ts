/**
 * SPEC §9's timings of the admin area, as plain values: the admin's query module is in the
 * browser's first bundle (the client view's first screen seeds its cache) and must not carry zod
 * (see log-options.ts). admin.ts re-exports them.
 */
/** SPEC §9. */
export const WEBHOOK_POLL_INTERVAL_MS = 2000;
