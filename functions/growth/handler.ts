import { sqsPipelineQueue, sqsWebhookQueue } from '#shared/adapters/sqsQueue';
import { withPorts } from '#shared/adapters/aws';
import { createApiHandler } from '#shared/http/api';
import { growthEndpoints as E } from '#shared/schemas/growth';
import { resolveGrowthGoal } from '#shared/domain/growth/resolve';
import { quoteGrowthPlan } from '#shared/domain/growth/quote';
import { startGrowthRun } from '#shared/domain/growth/startRun';
import { cancelGrowthRun, exportGrowthRun, getGrowthRun } from '#shared/domain/growth/runs';
import { rowsExport } from '#shared/http/rowsExport';

export const handler = withPorts(
  'growth',
  { queue: sqsPipelineQueue, webhookQueue: sqsWebhookQueue },
  createApiHandler(E, {
    resolveGrowthGoal: async ({ user, body }) => resolveGrowthGoal(user.id, body),
    quoteGrowthPlan: async ({ user, body }) => quoteGrowthPlan(user.id, body),
    startGrowthRun: async ({ user, body }) => startGrowthRun(user.id, body),
    getGrowthRun: async ({ user, params, baseUrl }) => getGrowthRun(user.id, params.run_id, baseUrl),
    exportGrowthRun: async ({ user, params, query }) =>
      rowsExport(await exportGrowthRun(user.id, params.run_id), query.format, `growth-run-${params.run_id}.csv`),
    cancelGrowthRun: async ({ user, params, baseUrl }) => cancelGrowthRun(user.id, params.run_id, baseUrl),
  }),
);
