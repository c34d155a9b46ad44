/**
 * Holds the app's real answers to its own API description (/api/openapi.json): an answer to an
 * /api/ route must have its status listed for the operation, a JSON body must match the schema
 * documented for that status, and any other body must have one of the documented media types.
 * createTestApp turns it on for every app it builds, so the API suite's traffic is the test; its
 * close() fails the file with the problems found. Requests are not checked: the suite sends
 * invalid input on purpose, and the server's own schemas refuse it.
 *
 * API_DESCRIPTION_CHECK=off turns it off; API_DESCRIPTION_REPORT=<file> also appends each problem
 * to that file (one line each), to collect them over a whole run.
 */
import { appendFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { DOCS_PATH, OPENAPI_PATH } from '../../src/server/api-docs';
import { openApiPath } from '../../src/server/http/route-docs';
import { OpenApiContract } from './openapi-contract';

type Json = Record<string, unknown>;
export interface Description {
  paths: Record<string, Record<string, { responses?: Record<string, Json> }>>;
}

export interface DescriptionCheck {
  /** Each distinct problem once, with how many answers had it. */
  problems(): string[];
}

export const descriptionCheckEnabled = process.env.API_DESCRIPTION_CHECK !== 'off';

/** A JSON pointer segment. */
const segment = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Adds the onSend hook that checks every answer; call before app.ready(). */
export function checkAnswersAgainstDescription(app: FastifyInstance): DescriptionCheck {
  const found = new Map<string, number>();
  let doc: Description | undefined;
  const report = process.env.API_DESCRIPTION_REPORT;

  app.addHook('onSend', async (request, reply, payload) => {
    const route = request.routeOptions.url;
    const method = request.method.toLowerCase();
    if (!route?.startsWith('/api/') || route === OPENAPI_PATH || route.startsWith(DOCS_PATH)) return payload;
    if (method === 'head' || method === 'options') return payload;
    doc ??= app.swagger() as unknown as Description;
    const problem = answerProblem(doc, {
      method,
      path: openApiPath(route),
      status: reply.statusCode,
      contentType: String(reply.getHeader('content-type') ?? ''),
      payload,
    });
    if (problem) {
      found.set(problem, (found.get(problem) ?? 0) + 1);
      if (report) appendFileSync(report, `${problem}\n`);
    }
    return payload;
  });

  return {
    problems: () => [...found].map(([problem, n]) => (n > 1 ? `${problem} (×${n})` : problem)),
  };
}

export interface Answer {
  method: string;
  path: string;
  status: number;
  contentType: string;
  payload: unknown;
}

const contracts = new WeakMap<object, OpenApiContract>();

/** What is wrong with one answer against the description, or null when it conforms. */
export function answerProblem(doc: Description, answer: Answer): string | null {
  let contract = contracts.get(doc);
  if (!contract) {
    contract = new OpenApiContract({ self: doc as never });
    contracts.set(doc, contract);
  }
  const { method, path, status } = answer;
  const where = `${method.toUpperCase()} ${path} ${status}`;
  const responses = doc.paths[path]?.[method]?.responses;
  if (!responses) return `${method.toUpperCase()} ${path}: not in the description`;
  const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => k in responses);
  if (!key) return `${where}: a status the description does not list for this operation`;

  let pointer = `/paths/${segment(path)}/${method}/responses/${key}`;
  let response = responses[key];
  const ref = response.$ref;
  if (typeof ref === 'string') {
    pointer = ref.slice(1);
    response = ref
      .slice(2)
      .split('/')
      .reduce<Json>((node, part) => node?.[part] as Json, doc as unknown as Json);
  }
  const content = response?.content as Record<string, { schema?: unknown }> | undefined;
  // No media type documented (a redirect, or a route without a response schema): nothing to check.
  if (!content) return null;

  const body = bodyText(answer.payload);
  const mediaType = answer.contentType.split(';')[0].trim().toLowerCase();
  if (body === '') return null;
  if (!(mediaType in content))
    return `${where}: answered ${mediaType || 'no media type'}, documented ${Object.keys(content).join(', ')}`;
  if (mediaType !== 'application/json' || body === null || !content[mediaType].schema) return null;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return `${where}: the body is not JSON`;
  }
  const errors = contract.validateAt('self', `${pointer}/content/${segment(mediaType)}/schema`, value);
  if (errors.length === 0) return null;
  return `${where}: the body does not match its schema: ${errors.slice(0, 3).join('; ')} (body: ${body.slice(0, 300)})`;
}

/** The answer's text, '' when empty, null when it is streamed. */
function bodyText(payload: unknown): string | null {
  if (payload === null || payload === undefined) return '';
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.length > 200_000 ? null : payload.toString('utf8');
  return null;
}

/** For files that build their apps themselves: fails with the answers the description lacks. */
export function expectNoUndescribedAnswers(check: DescriptionCheck): void {
  const problems = check.problems();
  if (problems.length > 0)
    throw new Error(
      `Answers the API description (src/server/api-docs.ts) does not describe:\n  ${problems.join('\n  ')}`,
    );
}
