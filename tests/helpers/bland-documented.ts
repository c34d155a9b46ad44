/**
 * What Bland documents of its wire format (specs/bland): the example bodies on docs.bland.ai and
 * the OpenAPI description written from those pages. A call object, transcript line or live event
 * that our Bland stand-in sends is held against them: every field must be one Bland documents, and
 * its value one of the JSON types Bland shows for it (null always allowed: Bland sends null for
 * anything not set). Fields Bland documents that the stand-in leaves out are not failed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
type Schema = { type?: string; properties?: Record<string, Schema> };

export const blandOpenApi = parseYaml(readFileSync(path.resolve('specs/bland/openapi.yaml'), 'utf8')) as {
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, Schema> };
};

export const blandExamples = JSON.parse(
  readFileSync(path.resolve('specs/bland/documented-examples.json'), 'utf8'),
) as {
  'call-details': JsonObject;
  'list-calls': { count: number; calls: JsonObject[] };
  'post-call-webhook': JsonObject;
  'post-call-webhook-delayed': JsonObject;
  'live-events': JsonObject[];
  'send-call': JsonObject;
  // GET /v1/calls/{id}/correct: the corrected transcript's segments.
  'corrected-transcript': { corrected: JsonObject[] };
};

const kind = (v: Json) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const SCHEMA_KIND: Record<string, string> = { integer: 'number', number: 'number', string: 'string' };

/** Field → the JSON types Bland shows for it, from its examples and its described schema. */
function documentedFields(examples: JsonObject[], schema: Schema | undefined): Map<string, Set<string>> {
  const fields = new Map<string, Set<string>>();
  const add = (key: string, type: string) => {
    const types = fields.get(key) ?? new Set<string>();
    if (type !== 'null') types.add(type);
    fields.set(key, types);
  };
  for (const example of examples) for (const [key, value] of Object.entries(example)) add(key, kind(value));
  for (const [key, property] of Object.entries(schema?.properties ?? {}))
    add(key, SCHEMA_KIND[property.type ?? ''] ?? property.type ?? 'null');
  return fields;
}

const callBodies = [
  blandExamples['call-details'],
  blandExamples['post-call-webhook'],
  blandExamples['post-call-webhook-delayed'],
  ...blandExamples['list-calls'].calls,
];
const schemas = blandOpenApi.components.schemas;
const CALL_FIELDS = documentedFields(callBodies, schemas.CallDetails);
const TRANSCRIPT_FIELDS = documentedFields(
  callBodies.flatMap((c) => (Array.isArray(c.transcripts) ? (c.transcripts as JsonObject[]) : [])),
  schemas.TranscriptEntry,
);
const EVENT_FIELDS = documentedFields(blandExamples['live-events'], undefined);
const SEND_CALL_FIELDS = documentedFields([blandExamples['send-call']], schemas.SendCallResponse);

function shapeProblems(value: Json, fields: Map<string, Set<string>>, what: string, where: string): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return [`${where} is ${kind(value)}, not a ${what}`];
  const problems: string[] = [];
  for (const [key, ours] of Object.entries(value)) {
    const types = fields.get(key);
    if (!types) problems.push(`${where} has ${key}, which Bland's ${what} does not`);
    else if (ours !== null && types.size > 0 && !types.has(kind(ours)))
      problems.push(`${where}.${key} is ${kind(ours)} where Bland's is ${[...types].join(' or ')}`);
  }
  return problems;
}

/** A call-details object (GET /v1/calls/{id}, a list item, a post-call webhook body). */
export function blandCallShapeProblems(value: Json, where = 'call'): string[] {
  const problems = shapeProblems(value, CALL_FIELDS, 'call object', where);
  const lines = (value as JsonObject | null)?.transcripts;
  if (Array.isArray(lines)) {
    for (const [i, line] of lines.entries())
      problems.push(
        ...shapeProblems(line, TRANSCRIPT_FIELDS, 'transcript line', `${where}.transcripts[${i}]`),
      );
  }
  return problems;
}

/** A live event sent to the webhook during a call ({message, call_id, category, log_level}). */
export const blandEventShapeProblems = (value: Json, where = 'event') =>
  shapeProblems(value, EVENT_FIELDS, 'live event', where);

/** The answer to POST /v1/calls. */
export const blandSendCallShapeProblems = (value: Json, where = 'send call answer') =>
  shapeProblems(value, SEND_CALL_FIELDS, 'send-call answer', where);
