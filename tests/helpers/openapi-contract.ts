/**
 * Validates HTTP exchanges against published OpenAPI 3.0 documents (specs/): the operation is
 * found by method and path template, the JSON request body is checked against the operation's
 * request schema and the response body against the schema for its status code. Ajv does the
 * validating; OpenAPI's `nullable` is one of its keywords, unknown vendor keywords are ignored.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { Exchange } from './recording-proxy';

interface Operation {
  docId: string;
  pointer: string;
  template: string;
  pattern: RegExp;
  method: string;
  operation: {
    requestBody?: { content?: Record<string, { schema?: unknown }> };
    responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  };
}

/** A JSON pointer segment inside a URI fragment. */
const segment = (s: string) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'));

export class OpenApiContract {
  private readonly ajv = new Ajv({
    strict: false,
    allErrors: true,
    validateSchema: false,
    logger: false,
    // PayPal's patterns are written for JavaScript without the u flag (its e-mail pattern is not valid with it).
    unicodeRegExp: false,
  });
  private readonly operations: Operation[] = [];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(docs: Record<string, { paths: Record<string, Record<string, unknown>> }>) {
    addFormats(this.ajv);
    for (const [docId, doc] of Object.entries(docs)) {
      this.ajv.addSchema(doc as object, docId);
      for (const [template, item] of Object.entries(doc.paths)) {
        const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
        for (const [method, operation] of Object.entries(item)) {
          if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
          this.operations.push({
            docId,
            template,
            pattern,
            method: method.toUpperCase(),
            pointer: `/paths/${segment(template)}/${method}`,
            operation: operation as Operation['operation'],
          });
        }
      }
    }
  }

  /** The documented operation for an exchange, or null when no document covers it. */
  operationFor(method: string, path: string): Operation | null {
    return this.operations.find((op) => op.method === method && op.pattern.test(path)) ?? null;
  }

  /** Problems with the exchange ("" paths where nothing is wrong): an empty list means it conforms. */
  check(exchange: Exchange): string[] {
    const op = this.operationFor(exchange.method, exchange.path);
    if (!op) return [`${exchange.method} ${exchange.path}: no published operation`];
    const where = `${exchange.method} ${op.template}`;
    const problems: string[] = [];
    const requestSchema = op.operation.requestBody?.content?.['application/json']?.schema;
    if (requestSchema && exchange.requestBody) {
      const errors = this.validate(
        `${op.pointer}/requestBody/content/${segment('application/json')}/schema`,
        op.docId,
        JSON.parse(exchange.requestBody),
      );
      problems.push(...errors.map((e) => `${where} request ${e}`));
    }
    const status = String(exchange.status);
    const documented = op.operation.responses ?? {};
    const key = status in documented ? status : 'default' in documented ? 'default' : null;
    if (!key) return [...problems, `${where} answered ${status}, which the specification does not list`];
    const responseSchema = documented[key]?.content?.['application/json']?.schema;
    if (responseSchema) {
      if (!exchange.responseBody)
        return [...problems, `${where} ${status}: empty body where JSON is documented`];
      const errors = this.validate(
        `${op.pointer}/responses/${status in documented ? status : 'default'}/content/${segment('application/json')}/schema`,
        op.docId,
        JSON.parse(exchange.responseBody),
      );
      problems.push(...errors.map((e) => `${where} ${status} response ${e}`));
    }
    return problems;
  }

  /** Validates `value` against the schema at `pointer` in document `docId`. */
  validateAt(docId: string, pointer: string, value: unknown): string[] {
    return this.validate(pointer, docId, value);
  }

  private validate(pointer: string, docId: string, value: unknown): string[] {
    const ref = `${docId}#${pointer}`;
    let validate = this.compiled.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref });
      this.compiled.set(ref, validate);
    }
    return validate(value) ? [] : (validate.errors ?? []).map(describe);
  }
}

function describe(error: ErrorObject): string {
  return `${error.instancePath || '(root)'} ${error.message ?? 'is invalid'}${
    error.params && 'additionalProperty' in error.params
      ? ` (${String(error.params.additionalProperty)})`
      : ''
  }`;
}
