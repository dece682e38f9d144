import * as z from '#shared/zod';
import { withMeta } from '#shared/zod';
import { defineEndpoint } from '#shared/schemas/endpoint';
import { CONTACT_TIER_IDS, EXPANSIONS, PACKAGE_IDS } from '#shared/domain/intelligence/packages';

/** A JSON-RPC 2.0 message as MCP sends it; the MCP SDK checks the rest (and answers JSON-RPC errors). */
const jsonRpcMessage = withMeta(z.record(z.string(), z.unknown()), {
  id: 'JsonRpcMessage',
  description:
    'One JSON-RPC 2.0 request or notification of the Model Context Protocol (initialize, tools/list, tools/call, server/discover, ...)',
});

export const mcpEndpoints = {
  mcp: defineEndpoint({
    operationId: 'mcp',
    method: 'POST',
    path: '/api/v1/mcp',
    // A tool's arguments are the tool's to refuse: as its isError result, which a client reads, not a 400 it cannot.
    ownsBodyIssuesAt: ['params', 'arguments'],
    tag: 'AI agents (MCP)',
    auth: 'api_key',
    summary: 'Model Context Protocol over Streamable HTTP (stateless, JSON responses): the API as tools for AI agents',
    description:
      'Serves MCP clients of protocol revisions 2025-06-18, 2025-11-25 and 2026-07-28 with the same bearer key as every endpoint. ' +
      'A request answers 200 with one JSON-RPC response; a notification answers 202 with no body. The tools call the same routes as this document describes, ' +
      'so validation, errors, credits and Idempotency-Key behave as they do here; an API error is a tool result with isError, never a JSON-RPC error. ' +
      'Spending tools need a quote_token from the matching quote tool. A request sent with an Origin header of another site is refused with 403 origin_not_allowed. ' +
      'A message the server cannot serve (not JSON, a batch, not JSON-RPC, a protocol revision or method not served, the wrong Accept or Content-Type) is answered with a JSON-RPC error response; ' +
      'a missing key (401), a foreign Origin (403) and the limits every endpoint has answer the API’s ErrorBody.',
    body: jsonRpcMessage,
    response: withMeta(z.record(z.string(), z.unknown()), {
      id: 'JsonRpcResponse',
      description: 'One JSON-RPC 2.0 response',
    }),
    headers: [
      {
        name: 'Accept',
        required: true,
        description: 'MCP clients send `application/json, text/event-stream`; answers are always JSON',
        schema: z.string(),
      },
      {
        name: 'MCP-Protocol-Version',
        required: false,
        description:
          'The negotiated protocol revision, after initialize (2025 revisions) or on every request (2026-07-28)',
        schema: z.string(),
      },
      {
        name: 'Origin',
        required: false,
        description: 'Sent by browsers: only this API’s own origin is accepted (DNS-rebinding defence)',
        schema: z.string(),
      },
    ],
    errors: [403],
    jsonRpcErrors: {
      400:
        'A message the server cannot read as one JSON-RPC request it serves: -32700 when the body is not JSON; -32600 for a batch (send one message per POST), ' +
        'a body that is not an object or not JSON-RPC; -32022 for a protocol revision not served (data.supported names those served); -32000 for an MCP-Protocol-Version header not served. ' +
        'A request whose HTTP syntax the server refuses before reading it answers ErrorBody (validation_error).',
      404: 'A 2026-07-28 request for a method this server does not serve (-32601)',
      406: 'The Accept header does not take both application/json and text/event-stream (-32000)',
      415: 'The Content-Type is not application/json (-32000)',
    },
  }),
  mcpStream: defineEndpoint({
    operationId: 'mcpStream',
    method: 'GET',
    path: '/api/v1/mcp',
    tag: 'AI agents (MCP)',
    auth: 'api_key',
    summary:
      'Not served: the MCP endpoint is stateless and opens no server-to-client stream (405 method_not_allowed, Allow: POST)',
    errors: [405],
  }),
};

/** What list_packages answers: the package catalogue, as an agent needs it to pick one and fill its slots. */
export const packageCatalogue = withMeta(
  z.object({
    items: z.array(
      z.object({
        package_id: z.enum(PACKAGE_IDS),
        name: z.string(),
        description: z.string(),
        slots: z.array(z.object({ name: z.string(), required: z.boolean(), description: z.string() })),
        limit: z.object({ default: z.int(), max: z.int() }),
        output_fields: z.array(z.string()),
        price: z.object({ base: z.int(), per_record: z.int() }),
        expansions: z.array(
          z.enum(Object.keys(EXPANSIONS) as [keyof typeof EXPANSIONS, ...(keyof typeof EXPANSIONS)[]]),
        ),
        contact_tiers: z.array(z.enum(CONTACT_TIER_IDS)),
        example: z.object({ request_text: z.string(), slots: z.record(z.string(), z.union([z.string(), z.number()])) }),
      }),
    ),
    total: z.int(),
    limit: z.int(),
    offset: z.int(),
  }),
  { id: 'PackageCatalogue' },
);
