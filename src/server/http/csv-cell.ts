/** The one rule for a CSV cell that may hold text someone else wrote (calls, activity, subject exports). */

/**
 * Text a spreadsheet would run as a formula (=, +, -, @, a tab or a return first) is prefixed with
 * an apostrophe (OWASP's advice for CSV injection); a phone number's leading + is left alone.
 */
export function safeCell(text: string): string {
  if (/^[+-][\d\s().-]*$/.test(text)) return text;
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}
