import { sqsWebhookQueue } from '#shared/adapters/sqsQueue';
import { withPorts } from '#shared/adapters/aws';
import { createApiHandler } from '#shared/http/api';
import { intelligenceEndpoints as E } from '#shared/schemas/intelligence';
import { resolveIntent } from '#shared/domain/intelligence/resolve';
import { quoteIntelligence } from '#shared/domain/intelligence/quote';
import { executePackage } from '#shared/domain/intelligence/execute';
import { expandResult } from '#shared/domain/intelligence/expand';
import { readIntelligenceResult } from '#shared/domain/intelligence/results';

export const handler = withPorts(
  'intelligence',
  { webhookQueue: sqsWebhookQueue },
  createApiHandler(E, {
    resolve: async ({ body }) => resolveIntent(body),
    quote: async ({ user, body }) => quoteIntelligence(user.id, body),
    execute: async ({ user, body }) => executePackage(user.id, body),
    getResult: async ({ user, params }) => readIntelligenceResult(user.id, params.result_id),
    expand: async ({ user, body }) => expandResult(user.id, body),
  }),
);
