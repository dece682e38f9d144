import { WEBHOOK_EVENT_TYPES, webhookEventBody } from '#shared/schemas/outboundWebhooks';
import * as z from '#shared/zod';
import type { EndpointSpec, ErrorStatus } from '#shared/schemas/endpoint';
import { IDEMPOTENCY_KEY_PATTERN } from './idempotencyKey';
import { errorBody, jsonRpcErrorResponse } from '#shared/schemas/common';
import { jsonObjectAt, type JsonObject } from '#shared/json';

type Json = JsonObject;

const ERROR_STATUSES: Record<ErrorStatus, string> = {
  400: 'Invalid request: its body, query, path, headers or HTTP syntax (validation_error)',
  401: 'Missing or invalid API key (unauthorized)',
  402: 'Not enough credits (insufficient_credits); nothing was charged or created',
  403: 'Needs an active pro subscription (subscription_required); on the MCP endpoint also a browser Origin of another site (origin_not_allowed)',
  404: 'Not found (not_found)',
  405: 'This method is not served here (method_not_allowed)',
  406: 'The Accept header excludes text/event-stream (not_acceptable)',
  409: 'Conflict (email_in_use, quote_token_used, idempotency_conflict, concurrent_update, subscription_active)',
  410: 'Quote expired (quote_expired)',
  413: 'Body over 1 MiB (payload_too_large)',
  415: 'The Content-Type is not application/json',
  422: 'Not allowed now (quote_mismatch, invalid_state)',
  429: 'Too many requests (rate_limited)',
  431: "The request line or headers are over the server's limit (request_header_too_large)",
  500: 'Internal error (internal_error)',
  502: 'A platform the operation depends on did not answer as it should (its page says what to do next)',
  503: 'Try again after Retry-After: the service is busy, or a service it needs refused the work (service_unavailable; nothing was charged); or the curated dataset is still loading (dataset_loading; local server, first start; with progress)',
};

/** Which error statuses follow from the shape of a spec; `spec.errors` adds the operation's own. */
const IMPLIED_ERRORS: [ErrorStatus, (spec: EndpointSpec) => boolean][] = [
  // Any request can be malformed before it reaches an operation's own input: HTTP syntax, escapes, query names.
  [400, () => true],
  [401, (s) => s.auth === 'api_key'],
  [403, (s) => !!s.paid],
  [404, (s) => !!s.params],
  [409, (s) => !!s.idempotent],
  [413, (s) => s.method !== 'GET'],
  [429, () => true],
  // Node's parser refuses a request line or headers over 16 KiB whatever the operation.
  [431, () => true],
  [500, () => true],
  // AWS may throttle past the SDK's retries whatever touches the table (service_unavailable): every call with an API key
  // (the key is read) and every POST; curated reads also wait for the local dataset. Health and this document touch nothing.
  [503, (s) => s.auth === 'api_key' || s.method === 'POST' || !!s.readsCuratedData],
];

export const errorStatusesOf = (spec: EndpointSpec): ErrorStatus[] =>
  [
    ...new Set([
      ...IMPLIED_ERRORS.filter(([, applies]) => applies(spec)).map(([status]) => status),
      ...(spec.errors ?? []),
      ...(Object.keys(spec.jsonRpcErrors ?? {}).map(Number) as ErrorStatus[]),
    ]),
  ].sort((a, b) => a - b);

/** JSON Schema 2020-12 (the dialect of OpenAPI 3.1) of a zod schema, with shared ids moved to components. */
function schemaOf(schema: z.core.$ZodType, io: 'input' | 'output', components: Json): Json {
  const raw = JSON.stringify(z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }));
  const json = JSON.parse(raw.replaceAll('"#/$defs/', '"#/components/schemas/')) as Json;
  const { $schema: _s, $defs, ...rest } = json;
  for (const [id, def] of Object.entries(jsonObjectAt($defs))) components[id] = def;
  if (typeof rest.id === 'string' && rest.id) {
    const id = rest.id;
    delete rest.id;
    components[id] = rest;
    return { $ref: `#/components/schemas/${id}` };
  }
  return rest;
}

function parametersOf(schema: z.core.$ZodType | undefined, where: 'query' | 'path', components: Json): Json[] {
  if (!schema) return [];
  const json = schemaOf(schema, 'input', components);
  const required = new Set<unknown>(Array.isArray(json.required) ? json.required : []);
  return Object.entries(jsonObjectAt(json.properties)).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: s,
  }));
}

/** The success response: JSON by default, alternates beside it, SSE events, or a bare non-JSON type. */
function successOf(spec: EndpointSpec, components: Json): Json {
  const status = spec.successStatus ?? 200;
  if (status === 204) return { description: 'No content' };
  if (spec.streaming) {
    const events = Object.fromEntries(
      Object.entries(spec.events ?? {}).map(([name, schema]) => [name, schemaOf(schema, 'output', components)]),
    );
    return {
      description: `Server-Sent Events. Event names: ${Object.keys(events)
        .map((e) => `\`${e}\``)
        .join(', ')}; each \`data:\` line is the JSON in x-sse-events, each event has an \`id:\`.`,
      content: { 'text/event-stream': { schema: { type: 'string' }, 'x-sse-events': events } },
    };
  }
  if (spec.produces) return { description: 'OK', content: { [spec.produces]: { schema: { type: 'string' } } } };
  const content: Json = {
    'application/json': { schema: spec.response ? schemaOf(spec.response, 'output', components) : {} },
  };
  for (const [type, { description }] of Object.entries(spec.alternateMedia ?? {}))
    content[type] = { schema: { type: 'string', description } };
  const alternates = Object.keys(spec.alternateMedia ?? {});
  return {
    description: alternates.length ? `OK: application/json by default, or ${alternates.join(', ')}` : 'OK',
    content,
    ...(spec.idempotent ? { headers: REPLAY_HEADER } : {}),
  };
}

/** On an operation that honours Idempotency-Key, a repeated request is answered with the first response and this header. */
const REPLAY_HEADER: Json = {
  'Idempotent-Replayed': {
    description:
      '`true` when this is the stored first response to an earlier request with the same Idempotency-Key and body (nothing was done again); absent otherwise.',
    schema: { type: 'string', enum: ['true'] },
  },
};

function headersOf(spec: EndpointSpec, components: Json): Json[] {
  const params = (spec.headers ?? []).map((h) => ({
    name: h.name,
    in: 'header',
    required: h.required,
    description: h.description,
    schema: schemaOf(h.schema, 'input', components),
  }));
  if (spec.idempotent) {
    params.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'The same key with the same request within 24 h answers the first response again; with another request, 409 idempotency_conflict.',
      schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN.source },
    });
  }
  return params;
}

function descriptionOf(spec: EndpointSpec): string {
  const notes = [spec.description ?? `${spec.summary}.`];
  if (spec.paid) notes.push('Needs an active pro subscription.');
  if (spec.idempotent) notes.push('Honours Idempotency-Key.');
  return notes.join(' ');
}

const SIGNATURE_HEADERS = [
  {
    name: 'webhook-id',
    description: 'The event id: the same on every retry of this event, so receivers can de-duplicate',
  },
  { name: 'webhook-timestamp', description: 'Unix seconds when this attempt was signed' },
  {
    name: 'webhook-signature',
    description:
      'v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}"> keyed with the base64 part of the endpoint secret (Standard Webhooks)',
  },
];

/** OpenAPI 3.1 `webhooks`: what each outbound event type POSTs to customers' endpoints. */
function webhooksOf(components: Json): Json {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace('.', '_')}`,
          summary: `${type} event`,
          description:
            'Delivered at least once; retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h until a 2xx. Redirects are not followed; 15 s timeout.',
          tags: ['Outbound webhooks'],
          parameters: SIGNATURE_HEADERS.map((h) => ({
            ...h,
            in: 'header',
            required: true,
            schema: { type: 'string' },
          })),
          requestBody: {
            required: true,
            content: { 'application/json': { schema: schemaOf(webhookEventBody(type), 'output', components) } },
          },
          responses: { '2XX': { description: 'Received; any other answer (or none within 15 s) is retried' } },
        },
      },
    ]),
  );
}

/**
 * The OpenAPI 3.1 document of every endpoint, from the same zod schemas that validate requests.
 * Without a server URL, `servers` is left empty for the one who serves it to fill in (the public
 * function serves a copy built ahead, functions/public/openapi.json).
 */
export function buildOpenApi(endpoints: EndpointSpec[], serverUrl?: string): Json {
  const components: Json = {};
  const errorRef = schemaOf(errorBody, 'output', components);
  const jsonRpcErrorRef = schemaOf(jsonRpcErrorResponse, 'output', components);
  const paths: Record<string, Json> = {};
  for (const spec of endpoints) {
    const responses: Json = { [String(spec.successStatus ?? 200)]: successOf(spec, components) };
    for (const code of errorStatusesOf(spec)) {
      const jsonRpc = spec.jsonRpcErrors?.[code];
      if (jsonRpc !== undefined) {
        // A status the chain or server may also answer before the operation reads the request (HTTP syntax, say) keeps ErrorBody beside.
        const implied = IMPLIED_ERRORS.some(([status, applies]) => status === code && applies(spec));
        const schema = implied ? { anyOf: [jsonRpcErrorRef, errorRef] } : jsonRpcErrorRef;
        responses[code] = { description: jsonRpc, content: { 'application/json': { schema } } };
        continue;
      }
      // A page for a browser (an OAuth redirect) answers its own refusals as a page too.
      const page =
        spec.produces && spec.errors?.includes(code) ? { [spec.produces]: { schema: { type: 'string' } } } : {};
      responses[code] = {
        description: ERROR_STATUSES[code],
        content: { 'application/json': { schema: errorRef }, ...page },
      };
    }
    const operation: Json = {
      operationId: spec.operationId,
      summary: spec.summary,
      description: descriptionOf(spec),
      tags: [spec.tag],
      parameters: [
        ...parametersOf(spec.params, 'path', components),
        ...parametersOf(spec.query, 'query', components),
        ...headersOf(spec, components),
      ],
      responses,
    };
    if (spec.body) {
      // A body every field of which is optional may be left out (the server reads it as {}).
      operation.requestBody = {
        required: !z.safeParse(spec.body, {}).success,
        content: { 'application/json': { schema: schemaOf(spec.body, 'input', components) } },
      };
    }
    if (spec.rawBody)
      operation.requestBody = { required: true, content: { 'application/json': { schema: { type: 'object' } } } };
    operation.security = spec.auth === 'none' ? [] : [{ apiKey: [] }];
    const pathItem = paths[spec.path] ?? {};
    pathItem[spec.method.toLowerCase()] = operation;
    paths[spec.path] = pathItem;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Outreach Intelligence API',
      version: '1.0.0',
      description:
        'Credit-metered Web3 growth intelligence, enrichment jobs, growth plans and community moderation. ' +
        'Every response that spends or refunds credits carries `X-Credits-Charged` (credits taken from the available balance by this request, reservations included; negative when credits were given back) and `X-Credits-Remaining` (the available balance afterwards). ' +
        'A query parameter sent empty (`?limit=`) is taken as absent: its default applies. ' +
        'Free-text fields (names, titles, descriptions, goal and input text, rule words and domains, usernames) have surrounding white space removed before their length limits are checked, and are stored so; identifiers, URLs, e-mail addresses and tokens are taken as sent. ' +
        'A repeated request with the same `Idempotency-Key` and body is answered with the first response and `Idempotent-Replayed: true`.',
    },
    servers: serverUrl === undefined ? [] : [{ url: serverUrl }],
    security: [{ apiKey: [] }],
    paths,
    webhooks: webhooksOf(components),
    components: {
      schemas: components,
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer oik_...' } },
    },
  };
}
