import type { Context, ScheduledEvent } from 'aws-lambda';
import { withPorts } from '#shared/adapters/aws';
import { sqsPipelineQueue, sqsWebhookQueue } from '#shared/adapters/sqsQueue';
import { eventBridgeEvents } from '#shared/adapters/eventBridgeEvents';
import { recoverStartingRuns } from '#shared/domain/growth/runs';
import { superviseJobs, type WatchdogReport } from '#shared/domain/jobs/watchdog';
import { renewDueCommunities, type SweepReport } from '#shared/domain/moderation/renewals';
import { logger } from '#shared/observability/logger';
import { config } from '#shared/config/config';
import { removeUnverifiedMembers } from '#shared/domain/moderation/telegramBot';
import { requeueStalledDeliveries } from '#shared/domain/moderation/platformCallRunner';
import { requeueDueAutomodSyncs } from '#shared/domain/moderation/discordAutomod';
import { liftEndedCrispMutes } from '#shared/domain/moderation/crisp/muteEnds';
import { sweepWebhooks, type WebhookSweepReport } from '#shared/domain/webhooks/sweep';
import { fanOutPolls, type FanOutReport } from '#shared/domain/moderation/polling';

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
    if (webhooks.events_dispatched + webhooks.deliveries_requeued > 0)
      logger.info('webhook outbox sweep', { ...webhooks });
    if (deliveries.requeued > 0) logger.info('stalled platform deliveries queued again', { ...deliveries });
    if (automod.requeued > 0) logger.info('lost AutoMod syncs queued again', { ...automod });
    return { ...report, jobs, growth_runs: runs, webhooks, platform_deliveries: deliveries, automod_syncs: automod };
  },
);

/**
 * EventBridge runs this every minute (the local server every 15 seconds): new members whose captcha
 * deadline passed are removed, so a 2-minute timeout holds within a minute, and Crisp conversations
 * whose mute is over are unblocked. Its own schedule keeps the renewal sweep at its 5 minutes.
 */
export const captchaHandler = withPorts(
  'captchas',
  { queue: sqsPipelineQueue },
  async (_event: ScheduledEvent, context?: Context): Promise<{ removed: number; crisp_mutes_lifted: number }> => {
    if (context) logger.addContext(context);
    const [report, crisp] = await Promise.all([removeUnverifiedMembers(), liftEndedCrispMutes()]);
    if (report.removed > 0) logger.info('captcha timeouts', { ...report });
    if (crisp.lifted > 0) logger.info('Crisp mutes lifted', { ...crisp });
    return { ...report, crisp_mutes_lifted: crisp.lifted };
  },
);

/**
 * EventBridge runs this every minute (the local server on its own minute): each polled platform's
 * bound communities are queued in shards, and the worker polls each shard (polling.ts).
 */
export const pollHandler = withPorts(
  'polls',
  { queue: sqsPipelineQueue },
  async (_event: ScheduledEvent, context?: Context): Promise<FanOutReport> => {
    if (context) logger.addContext(context);
    return fanOutPolls();
  },
);
