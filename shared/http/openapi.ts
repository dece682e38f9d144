import { z } from 'zod';
import type { EndpointSpec } from './endpoint';
import { errorBody } from '../schemas/common';

type Json = Record<string, any>;

const ERROR_STATUSES: Record<string, string> = {
  '400': 'Invalid request (validation_error)',
  '401': 'Missing or invalid API key (unauthorized)',
  '402': 'Not enough credits (insufficient_credits)',
  '403': 'Needs an active pro subscription (subscription_required)',
  '404': 'Not found (not_found)',
  '409': 'Conflict (email_in_use, quote_token_used, idempotency_conflict, concurrent_update)',
  '410': 'Quote expired (quote_expired)',
  '413': 'Body over 1 MiB (payload_too_large)',
  '422': 'Not allowed now (quote_mismatch, invalid_state)',
  '429': 'Too many requests (rate_limited)',
  '500': 'Internal error (internal_error)',
};

/** JSON Schema 2020-12 (the dialect of OpenAPI 3.1) of a zod schema, with shared ids moved to components. */
function schemaOf(schema: z.ZodType, io: 'input' | 'output', components: Json): Json {
  const raw = JSON.stringify(z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }));
  const json = JSON.parse(raw.replaceAll('"#/$defs/', '"#/components/schemas/')) as Json;
  const { $schema: _s, $defs, ...rest } = json;
  for (const [id, def] of Object.entries(($defs ?? {}) as Json)) components[id] = def;
  if (rest.id && typeof rest.id === 'string') {
    const id = rest.id as string;
    delete rest.id;
    components[id] = rest;
    return { $ref: `#/components/schemas/${id}` };
  }
  return rest;
}

function parametersOf(schema: z.ZodType | undefined, where: 'query' | 'path', components: Json): Json[] {
  if (!schema) return [];
  const json = schemaOf(schema, 'input', components);
  const required = new Set<string>(json.required ?? []);
  return Object.entries((json.properties ?? {}) as Json).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: s,
  }));
}

/** The OpenAPI 3.1 document of every endpoint, from the same zod schemas that validate requests. */
export function buildOpenApi(endpoints: EndpointSpec[], serverUrl: string): Json {
  const components: Json = {};
  const errorRef = schemaOf(errorBody, 'output', components);
  const paths: Json = {};
  for (const spec of endpoints) {
    const status = String(spec.successStatus ?? 200);
    const responses: Json = {};
    if (status === '204') responses[status] = { description: 'No content' };
    else if (spec.streaming) responses[status] = { description: 'Server-Sent Events stream', content: { 'text/event-stream': { schema: { type: 'string' } } } };
    else if (spec.produces) responses[status] = { description: 'OK', content: { [spec.produces]: { schema: { type: 'string' } } } };
    else responses[status] = { description: 'OK', content: { 'application/json': { schema: spec.response ? schemaOf(spec.response, 'output', components) : {} } } };
    for (const [code, description] of Object.entries(ERROR_STATUSES)) {
      if (spec.auth === 'none' && (code === '401' || code === '402' || code === '403')) continue;
      if (!spec.paid && code === '403') continue;
      responses[code] = { description, content: { 'application/json': { schema: errorRef } } };
    }
    const operation: Json = {
      operationId: spec.operationId,
      summary: spec.summary,
      tags: [spec.tag],
      parameters: [...parametersOf(spec.params, 'path', components), ...parametersOf(spec.query, 'query', components)],
      responses,
    };
    if (spec.idempotent) operation.parameters.push({ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } });
    if (spec.body) operation.requestBody = { required: true, content: { 'application/json': { schema: schemaOf(spec.body, 'input', components) } } };
    if (spec.rawBody) operation.requestBody = { required: true, content: { 'application/json': { schema: { type: 'object' } } } };
    operation.security = spec.auth === 'none' ? [] : [{ apiKey: [] }];
    if (spec.paid) operation.description = 'Needs an active pro subscription.';
    (paths[spec.path] ??= {})[spec.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Outreach Intelligence API',
      version: '1.0.0',
      description: 'Credit-metered Web3 growth intelligence, enrichment jobs, growth plans and community moderation.',
    },
    servers: [{ url: serverUrl }],
    security: [{ apiKey: [] }],
    paths,
    components: { schemas: components, securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer oik_...' } } },
  };
}
