import { withPorts } from '#shared/adapters/aws';
import { sqsPipelineQueue, sqsWebhookQueue } from '#shared/adapters/sqsQueue';
import { createApiHandler } from '#shared/http/api';
import { HttpResponse } from '#shared/http/response';
import { serveMcp } from '#shared/mcp/server';
import type { RouteHandlers } from '#shared/mcp/routeCall';
import { mcpEndpoints as E } from '#shared/schemas/mcp';

/** The functions whose routes the tools run, bundled in and loaded on a tool's first call (then kept). */
export const ROUTES: RouteHandlers = {
  // Only the account routes that read: no tool changes the account, and the bundle stays without Stripe.
  account: async () => (await import('#functions/account/reads')).handler,
  storage: async () => (await import('#functions/storage/handler')).handler,
  intelligence: async () => (await import('#functions/intelligence/handler')).handler,
  growth: async () => (await import('#functions/growth/handler')).handler,
  jobs: async () => (await import('#functions/jobs/handler')).handler,
  moderation: async () => (await import('#functions/moderation/handler')).handler,
};

/**
 * The function, running the tools' routes through `routes`. A host that answers some routes itself
 * before their handler runs (the local server's first start, while the curated dataset loads) passes
 * the same handlers wrapped in that answer, since a tool reaches its route without passing that host.
 */
export const mcpHandler = (routes: RouteHandlers) =>
  withPorts(
    'mcp',
    { queue: sqsPipelineQueue, webhookQueue: sqsWebhookQueue },
    createApiHandler(E, {
      mcp: async (ctx) =>
        serveMcp({
          event: ctx.event,
          context: ctx.lambdaContext,
          handlers: routes,
          caller: ctx.user,
          requestId: ctx.requestId,
          baseUrl: ctx.baseUrl,
          headers: ctx.headers,
          rawBody: ctx.rawBody,
          parsedBody: ctx.body,
          argumentsIssue: ctx.bodyIssue,
        }),
      // Streamable HTTP lets a client open a stream with GET; a stateless server answers 405.
      mcpStream: async ({ requestId }) =>
        new HttpResponse(
          405,
          {
            error: {
              code: 'method_not_allowed',
              message: 'This MCP endpoint is stateless: send JSON-RPC messages with POST.',
            },
            request_id: requestId,
          },
          { allow: 'POST' },
        ),
    }),
  );

export const handler = mcpHandler(ROUTES);
