/**
 * The product's own colours, the brand until an agency saves one, as plain values: the browser's
 * first bundle reads them and must not carry zod or the contrast guard's colour library (see
 * log-options.ts). brand.ts re-exports them.
 */
export const DEFAULT_PRIMARY_COLOR = '#155dfc';
export const DEFAULT_ACCENT_COLOR = '#0e7490';
