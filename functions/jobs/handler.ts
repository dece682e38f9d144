import { sqsPipelineQueue, sqsWebhookQueue } from '#shared/adapters/sqsQueue';
import { withPorts } from '#shared/adapters/aws';
import { createApiHandler } from '#shared/http/api';
import { HttpResponse } from '#shared/http/response';
import { jobsEndpoints as E } from '#shared/schemas/jobs';
import { cancelJobForUser, getJobForUser, pageJobs } from '#shared/domain/jobs/jobOperations';
import { startEnrichmentJob } from '#shared/domain/jobs/startJob';
import { quoteEnrichmentJob } from '#shared/domain/jobs/quote';
import { exportJobRows } from '#shared/domain/jobs/exports';
import { rowsExport } from '#shared/http/rowsExport';
import type * as z from '#shared/zod';

/** A create or quote body as the job operations take it: the same request, priced or started. */
const jobRequest = (userId: string, body: z.output<typeof E.quoteJob.body>) => ({
  userId,
  preset: body.preset,
  requestedCapabilities: body.requested_capabilities,
  inputAssets: body.input_assets,
  icpConfig: body.icp_config,
  executionOptions: body.execution_options,
  chatId: body.chat_id ?? null,
});

export const handler = withPorts(
  'jobs',
  { queue: sqsPipelineQueue, webhookQueue: sqsWebhookQueue },
  createApiHandler(E, {
    createJob: async ({ user, body }) =>
      startEnrichmentJob({ ...jobRequest(user.id, body), quoteToken: body.quote_token }),
    quoteJob: async ({ user, body }) => quoteEnrichmentJob(jobRequest(user.id, body)),
    listJobs: async ({ user, query }) => pageJobs(user.id, query),
    getJob: async ({ user, params }) => getJobForUser(user.id, params.job_id),
    cancelJob: async ({ user, params }) => new HttpResponse(202, await cancelJobForUser(user.id, params.job_id)),
    exportJob: async ({ user, params, query }) =>
      rowsExport(await exportJobRows(user.id, params.job_id), query.format, `job-${params.job_id}.csv`),
  }),
);
