/**
 * Routes declare their params, querystring, body and response as Zod schemas from src/contract
 * (Fastify's type provider for Zod types the handler from them). This file is how Fastify uses
 * those schemas: input is parsed by Zod (transforms and defaults apply, so handlers get the
 * parsed values), a failure becomes the same 400 `{message, fields}` as everywhere else, and an
 * answer is checked against its response schema before it is sent, so the documented shape
 * (/api/openapi.json) is the shape that goes out.
 */
import type { FastifySchemaCompiler } from 'fastify';
import { hasZodFastifySchemaValidationErrors, serializerCompiler } from 'fastify-type-provider-zod';
import type { ZodIssue, ZodTypeAny } from 'zod';
import { type HttpError, invalidInput } from './errors';

export type { ZodTypeProvider } from 'fastify-type-provider-zod';
export { serializerCompiler };

/** A missing body or query is an empty object, as parseInput treats it. */
export const validatorCompiler: FastifySchemaCompiler<ZodTypeAny> =
  ({ schema }) =>
  (data) => {
    const result = schema.safeParse(data ?? {});
    if (result.success) return { value: result.data };
    // Fastify keeps the issues on error.validation; the error handler turns them into our 400.
    return { error: result.error.issues.map(toValidationIssue) as unknown as Error };
  };

const ISSUE = Symbol.for('ZodFastifySchemaValidationError');

function toValidationIssue(issue: ZodIssue) {
  return {
    [ISSUE]: true,
    keyword: issue.code,
    instancePath: `/${issue.path.join('/')}`,
    schemaPath: `#/${issue.path.join('/')}/${issue.code}`,
    params: { issue },
    message: issue.message,
  };
}

const CONTEXT_NAMES: Record<string, string> = {
  body: 'request',
  querystring: 'query',
  params: 'path',
  headers: 'headers',
};

/** The 400 for a request that failed its route schema, or null for any other error. */
export function schemaValidationError(error: unknown): HttpError | null {
  if (!hasZodFastifySchemaValidationErrors(error)) return null;
  const issues = error.validation.map((v) => v.params.issue);
  // The type guard above leaves out the validationContext Fastify sets
  const context = (error as { validationContext?: string }).validationContext ?? 'body';
  return invalidInput({ issues }, CONTEXT_NAMES[context] ?? context);
}
