import type { ScheduledEvent } from 'aws-lambda';
import { useAwsPorts } from '../../shared/adapters/aws';
import { recoverStartingRuns } from '../../shared/domain/growth/runs';
import { superviseJobs, type WatchdogReport } from '../../shared/domain/jobs/watchdog';
import { renewDueCommunities, type SweepReport } from '../../shared/domain/moderation/renewals';
import { sweepWebhooks, type WebhookSweepReport } from '../../shared/domain/webhooks/sweep';

useAwsPorts();

/**
 * EventBridge runs this every 5 minutes (the local server on its own schedule): the community
 * renewals, the job watchdog and the recovery of growth runs whose start was interrupted. Both work from now() rather than the event's time, so a late or
 * repeated invocation simply finds less to do.
 */
export const handler = async (_event: ScheduledEvent): Promise<SweepReport & { jobs: WatchdogReport; growth_runs: Awaited<ReturnType<typeof recoverStartingRuns>>; webhooks: WebhookSweepReport }> => {
  const [report, jobs, runs, webhooks] = await Promise.all([renewDueCommunities(), superviseJobs(), recoverStartingRuns(), sweepWebhooks()]);
  // Most sweeps find nothing to do; only the ones that did something are worth a log line.
  if (report.due > 0) console.log(JSON.stringify({ level: 'info', message: 'renewal sweep', ...report }));
  if (jobs.stalled > 0) console.log(JSON.stringify({ level: 'info', message: 'job watchdog', ...jobs }));
  if (runs.found > 0) console.log(JSON.stringify({ level: 'info', message: 'growth run recovery', ...runs }));
  if (webhooks.events_dispatched + webhooks.deliveries_requeued > 0) console.log(JSON.stringify({ level: 'info', message: 'webhook outbox sweep', ...webhooks }));
  return { ...report, jobs, growth_runs: runs, webhooks };
};
