/**
 * One error type and one envelope. Handlers throw HttpError (or let a ZodError escape from
 * `parseInput`); the error handler in app.ts turns both into JSON {message, fields?}.
 */
import type { ZodError, ZodTypeAny, z } from 'zod';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly fields?: Record<string, string>,
    /** Sent beside `message`: what the browser must do before anything else answers. */
    readonly flags?: { mustChangePassword: true },
  ) {
    super(message);
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) =>
  new HttpError(400, message, fields);
export const unauthorized = (message = 'Unauthorized') => new HttpError(401, message);
export const forbidden = (message = 'Forbidden') => new HttpError(403, message);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const tooManyRequests = (message: string) => new HttpError(429, message);
export const badGateway = (message: string) => new HttpError(502, message);
export const serviceUnavailable = (message: string) => new HttpError(503, message);

/** First message per field path, so forms can show them beside their inputs. */
export function zodFields(error: Pick<ZodError, 'issues'>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    fields[key] ??= issue.message;
  }
  return fields;
}

/** The 400 for input that failed its schema: the first bad field named, every field's message listed. */
export function invalidInput(error: Pick<ZodError, 'issues'>, what = 'request'): HttpError {
  const fields = zodFields(error);
  const [path, message] = Object.entries(fields)[0] ?? ['_', 'Invalid input'];
  return badRequest(path === '_' ? `Invalid ${what}: ${message}` : `${path}: ${message}`, fields);
}

/** Validates untrusted input; a failure becomes a 400 naming the first bad field. */
export function parseInput<S extends ZodTypeAny>(schema: S, value: unknown, what = 'request'): z.output<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  throw invalidInput(result.error, what);
}
