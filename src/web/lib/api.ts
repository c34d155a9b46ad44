/**
 * The one HTTP client of the browser (SPEC §7, §8 "Generic"). Every request includes credentials
 * (the session cookie); a JSON content type and body are sent only when there is a body. Any
 * non-ok answer throws ApiError with the message `${status}: ${body text || status text}`.
 */
import type { QueryFunction } from '@tanstack/react-query';

export class ApiError extends Error {
  /** The `message` of a JSON error body ({message}), when the server sent one. */
  readonly serverMessage: string | undefined;

  constructor(
    readonly status: number,
    statusText: string,
    readonly bodyText: string,
  ) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = 'ApiError';
    this.serverMessage = parseServerMessage(bodyText);
  }
}

function parseServerMessage(bodyText: string): string | undefined {
  if (!bodyText) return undefined;
  try {
    const body: unknown = JSON.parse(bodyText);
    if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') {
      return body.message || undefined;
    }
  } catch {
    // Not JSON (a proxy's HTML page, say): there is no server message to show.
  }
  return undefined;
}

async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const bodyText = await res.text().catch(() => '');
  throw new ApiError(res.status, res.statusText, bodyText);
}

/** Sends a request and returns the raw Response (already checked for ok). */
export async function apiRequest(method: string, path: string, body?: unknown): Promise<Response> {
  const hasBody = body !== undefined;
  const res = await fetch(path, {
    method,
    headers: hasBody ? { 'Content-Type': 'application/json' } : {},
    body: hasBody ? JSON.stringify(body) : undefined,
    credentials: 'include',
  });
  await throwIfNotOk(res);
  return res;
}

/** apiRequest plus the parsed JSON answer; an empty body yields undefined. */
export async function apiJson<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await apiRequest(method, path, body);
  const text = await res.text();
  // JSON.parse is any: the caller names the answer's type, which the route's response schema guarantees.
  return (text ? JSON.parse(text) : undefined) as T;
}

/** GET a path and parse its JSON answer. */
export function getJson<T>(path: string): Promise<T> {
  return apiJson<T>('GET', path);
}

/** The unauthorized-session test of SPEC §8: a 401 whose message contains "Unauthorized". */
export function isUnauthorizedError(error: unknown): boolean {
  return error instanceof Error && /^401: .*Unauthorized/.test(error.message);
}

/** The server's own words for a failed request, or the fallback (for toasts). */
export function serverMessageOf(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;
}

/** The per-field messages of a 400 answer ({message, fields}), to show beside the inputs. */
export function serverFieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.status !== 400) return {};
  try {
    // JSON.parse is any: a 400's body is {message, fields?}; fields is tested next.
    const body = JSON.parse(error.bodyText) as { fields?: unknown };
    if (!body.fields || typeof body.fields !== 'object') return {};
    return Object.fromEntries(
      Object.entries(body.fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  } catch {
    return {};
  }
}

/**
 * The URL a query key stands for: key[0] is the path; plain-object parts become the query
 * string (null, undefined and '' are left out). Other parts only separate cache entries.
 */
export function urlForQueryKey(queryKey: readonly unknown[]): string {
  const [path, ...rest] = queryKey;
  if (typeof path !== 'string') throw new Error('The first part of a query key must be the URL path');
  const params = new URLSearchParams();
  for (const part of rest) {
    if (!part || typeof part !== 'object' || Array.isArray(part)) continue;
    for (const [name, value] of Object.entries(part)) {
      if (value === undefined || value === null || value === '') continue;
      params.append(name, String(value));
    }
  }
  const query = params.toString();
  if (!query) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${query}`;
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/**
 * A TanStack query function that GETs the URL of the query key. With on401 'returnNull' a 401
 * (and any status in alsoNullOn) yields null instead of an error: "not logged in".
 */
export function getQueryFn<T>(options: {
  on401: UnauthorizedBehavior;
  alsoNullOn?: number[];
}): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const res = await fetch(urlForQueryKey(queryKey), { credentials: 'include', signal });
    const nullStatuses = options.on401 === 'returnNull' ? [401, ...(options.alsoNullOn ?? [])] : [];
    if (nullStatuses.includes(res.status)) return null;
    await throwIfNotOk(res);
    const text = await res.text();
    // JSON.parse is any: the caller names the answer's type, which the route's response schema guarantees.
    return (text ? JSON.parse(text) : null) as T;
  };
}
