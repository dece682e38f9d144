import type { Context, ScheduledEvent } from 'aws-lambda';
import { withPorts } from '#shared/adapters/aws';
import { sqsPipelineQueue, sqsWebhookQueue } from '#shared/adapters/sqsQueue';
import { eventBridgeEvents } from '#shared/adapters/eventBridgeEvents';
import { recoverStartingRuns } from '#shared/domain/growth/runs';
import { superviseJobs, type WatchdogReport } from '#shared/domain/jobs/watchdog';
import { renewDueCommunities, type SweepReport } from '#shared/domain/moderation/renewals';
import { logger } from '#shared/observability/logger';
import { config } from '#shared/config/config';
import { requeueStalledDeliveries } from '#shared/domain/moderation/platformCallRunner';
import { requeueDueAutomodSyncs } from '#shared/domain/moderation/discordAutomod';
import { sweepWebhooks, type WebhookSweepReport } from '#shared/domain/webhooks/sweep';

/**
 * EventBridge runs this every 5 minutes (the local server on its own schedule): the community
 * renewals, the job watchdog, the recovery of growth runs whose start was interrupted, the webhook
 * outbox, and the platform deliveries and AutoMod syncs whose queue message was lost. All work from
 * now() rather than the event's time, so a late or repeated invocation simply finds less to do.
 */
export const handler = withPorts(
  'renewals',
  { queue: sqsPipelineQueue, events: eventBridgeEvents, webhookQueue: sqsWebhookQueue },
  async (
    _event: ScheduledEvent,
    context?: Context,
  ): Promise<
    SweepReport & {
      jobs: WatchdogReport;
      growth_runs: Awaited<ReturnType<typeof recoverStartingRuns>>;
      webhooks: WebhookSweepReport;
      platform_deliveries: Awaited<ReturnType<typeof requeueStalledDeliveries>>;
      automod_syncs: Awaited<ReturnType<typeof requeueDueAutomodSyncs>>;
    }
  > => {
    if (context) logger.addContext(context);
    const [report, jobs, runs, webhooks, deliveries, automod] = await Promise.all([
      renewDueCommunities(),
      superviseJobs(config().jobWatchdog),
      recoverStartingRuns(),
      sweepWebhooks(),
      requeueStalledDeliveries(),
      requeueDueAutomodSyncs(),
    ]);
    // Most sweeps find nothing to do; only the ones that did something are worth a log line.
    if (report.due > 0) logger.info('renewal sweep', { ...report });
    if (jobs.stalled > 0) logger.info('job watchdog', { ...jobs });
    if (runs.found > 0) logger.info('growth run recovery', { ...runs });
    if (webhooks.events_dispatched + webhooks.events_failed + webhooks.deliveries_requeued > 0)
      logger.info('webhook outbox sweep', { ...webhooks });
    if (deliveries.requeued > 0) logger.info('stalled platform deliveries queued again', { ...deliveries });
    if (automod.requeued > 0) logger.info('lost AutoMod syncs queued again', { ...automod });
    return { ...report, jobs, growth_runs: runs, webhooks, platform_deliveries: deliveries, automod_syncs: automod };
  },
);
