/**
 * Validates HTTP exchanges against published OpenAPI 3.0 documents (specs/): the operation is
 * found by method and path template, each query parameter must be one the operation declares and
 * hold a value of its type, the JSON request body is checked against the operation's request
 * schema and the response body against the schema for its status code. Ajv does the validating;
 * OpenAPI's `nullable` is one of its keywords, unknown vendor keywords are ignored.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { Exchange } from './recording-proxy';

interface Parameter {
  name: string;
  in: string;
  schema?: { type?: string };
}

interface Operation {
  docId: string;
  /** The operation's and its path item's parameters, references resolved. */
  parameters: Parameter[];
  pointer: string;
  template: string;
  pattern: RegExp;
  method: string;
  operation: {
    parameters?: unknown[];
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
    for (const [docId, published] of Object.entries(docs)) {
      const doc = nullableEnums(structuredClone(published));
      this.ajv.addSchema(doc as object, docId);
      const resolve = (p: unknown) => {
        const ref = (p as { $ref?: string }).$ref;
        if (!ref?.startsWith('#/')) return p as Parameter;
        return ref
          .slice(2)
          .split('/')
          .reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], doc) as Parameter;
      };
      for (const [template, item] of Object.entries(doc.paths)) {
        const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
        const shared = ((item.parameters as unknown[] | undefined) ?? []).map(resolve);
        for (const [method, operation] of Object.entries(item)) {
          if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
          const own = ((operation as Operation['operation']).parameters ?? []).map(resolve);
          this.operations.push({
            docId,
            parameters: [...shared, ...own],
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
    const problems: string[] = queryProblems(op.parameters, exchange.query).map((p) => `${where} ${p}`);
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

/**
 * `nullable: true` beside an `enum` that lacks null: OpenAPI 3.0 is read both ways, and the
 * documents written from prose pages (Bland's) mean "or null" (Bland documents null for
 * answered_by). Ajv's `nullable` widens the type only, so null joins the enum here.
 */
function nullableEnums<T>(node: T): T {
  if (Array.isArray(node)) for (const item of node) nullableEnums(item);
  else if (node && typeof node === 'object') {
    const schema = node as Record<string, unknown>;
    if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null))
      schema.enum = [...schema.enum, null];
    for (const value of Object.values(schema)) nullableEnums(value);
  }
  return node;
}

/** Query values are text on the wire: each must read as its declared type. */
const READS_AS: Record<string, (v: string) => boolean> = {
  integer: (v) => /^-?\d+$/.test(v),
  number: (v) => v.trim() !== '' && Number.isFinite(Number(v)),
  boolean: (v) => v === 'true' || v === 'false',
};

function queryProblems(parameters: Parameter[], query: URLSearchParams): string[] {
  const problems: string[] = [];
  for (const [name, value] of query) {
    const declared = parameters.find((p) => p.in === 'query' && p.name === name);
    if (!declared) problems.push(`query ${name}: not a parameter of this operation`);
    else if (!(READS_AS[declared.schema?.type ?? '']?.(value) ?? true))
      problems.push(`query ${name}=${value}: not a ${declared.schema?.type}`);
  }
  return problems;
}

function describe(error: ErrorObject): string {
  return `${error.instancePath || '(root)'} ${error.message ?? 'is invalid'}${
    error.params && 'additionalProperty' in error.params
      ? ` (${String(error.params.additionalProperty)})`
      : ''
  }`;
}
