import { useAwsPorts } from '#shared/adapters/aws';
import { createApiHandler } from '#shared/http/api';
import { intelligenceEndpoints as E } from '#shared/schemas/intelligence';
import { resolveIntent } from '#shared/domain/intelligence/resolve';
import { quoteIntelligence } from '#shared/domain/intelligence/quote';
import { executePackage } from '#shared/domain/intelligence/execute';
import { expandResult } from '#shared/domain/intelligence/expand';
import { readIntelligenceResult } from '#shared/domain/intelligence/results';

useAwsPorts();

export const handler = createApiHandler(E, {
  resolve: async ({ body }) => resolveIntent(body),
  quote: async ({ user, body }) => quoteIntelligence(user.id, body),
  execute: async ({ user, body }) => executePackage(user.id, body),
  getResult: async ({ user, params }) => readIntelligenceResult(user.id, params.result_id),
  expand: async ({ user, body }) => expandResult(user.id, body),
});
