import { useAwsPorts } from '../../shared/adapters/aws';
import { useSqsQueue, useWebhookQueue } from '../../shared/adapters/sqsQueue';
import { useEventBridgeEvents } from '../../shared/adapters/eventBridgeEvents';
import { createApiHandler, route } from '../../shared/http/api';
import { HttpResponse } from '../../shared/http/response';
import { jobsEndpoints as E } from '../../shared/schemas/jobs';
import { cancelJobForUser, getJobForUser, pageJobs, startEnrichmentJob } from '../../shared/domain/jobs/jobOperations';
import { exportJobRows } from '../../shared/domain/jobs/exports';

useAwsPorts();
useWebhookQueue();
useSqsQueue();
useEventBridgeEvents();

export const handler = createApiHandler([
  route(E.createJob, async ({ user, body }) =>
    startEnrichmentJob({
      userId: user.id,
      preset: body.preset,
      requestedCapabilities: body.requested_capabilities,
      inputAssets: body.input_assets,
      icpConfig: body.icp_config,
      executionOptions: body.execution_options,
      chatId: body.chat_id ?? null,
    }),
  ),
  route(E.listJobs, async ({ user, query }) => pageJobs(user.id, query)),
  route(E.getJob, async ({ user, params }) => getJobForUser(user.id, params.job_id)),
  route(E.cancelJob, async ({ user, params }) => new HttpResponse(202, await cancelJobForUser(user.id, params.job_id))),
  route(E.exportJob, async ({ user, params, query }) => exportJobRows(user.id, params.job_id, query.format)),
]);
