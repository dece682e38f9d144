import type { Context, ScheduledEvent } from 'aws-lambda';
import { withPorts } from '#shared/adapters/aws';
import { sqsPipelineQueue, sqsWebhookQueue } from '#shared/adapters/sqsQueue';
import { eventBridgeEvents } from '#shared/adapters/eventBridgeEvents';
import { recoverStartingRuns } from '#shared/domain/growth/runs';
import { superviseJobs } from '#shared/domain/jobs/watchdog';
import { renewDueCommunities } from '#shared/domain/moderation/renewals';
import { logger } from '#shared/observability/logger';
import { config } from '#shared/config/config';
import { requeueStalledDeliveries } from '#shared/domain/moderation/platformCallRunner';
import { platformWorkSweeps } from '#shared/domain/moderation/platformWorkSweeps';
import { sweepWebhooks } from '#shared/domain/webhooks/sweep';
import { runSweeps, sweep } from '#shared/domain/sweeps';

/**
 * The background jobs EventBridge runs every 5 minutes (the local server on its own schedule), one row
 * each: a new job is one more row. All work from now() rather than the event's time, so a late or
 * repeated invocation simply finds less to do.
 */
const SWEEPS = {
  communities: sweep({ run: renewDueCommunities, log: 'renewal sweep', didWork: (r) => r.due > 0 }),
  jobs: sweep({
    run: () => superviseJobs(config().jobWatchdog),
    log: 'job watchdog',
    didWork: (r) => r.stalled > 0,
  }),
  // Growth runs whose start was interrupted.
  growth_runs: sweep({ run: recoverStartingRuns, log: 'growth run recovery', didWork: (r) => r.found > 0 }),
  webhooks: sweep({
    run: sweepWebhooks,
    log: 'webhook outbox sweep',
    didWork: (r) => r.events_dispatched + r.events_failed + r.deliveries_requeued > 0,
  }),
  // Platform deliveries and the platforms' own work whose queue message was lost.
  platform_deliveries: sweep({
    run: requeueStalledDeliveries,
    log: 'stalled platform deliveries queued again',
    didWork: (r) => r.requeued > 0,
  }),
  // Each platform's own queued work (Discord's AutoMod syncs `automod_syncs`), a row under the name its work gives.
  ...platformWorkSweeps(),
};

export const handler = withPorts(
  'renewals',
  { queue: sqsPipelineQueue, events: eventBridgeEvents, webhookQueue: sqsWebhookQueue },
  async (_event: ScheduledEvent, context?: Context) => {
    if (context) logger.addContext(context);
    const { communities, ...others } = await runSweeps(SWEEPS);
    // The community renewal's report is the top level of the answer (the admin command prints it).
    return { ...communities, ...others };
  },
);
