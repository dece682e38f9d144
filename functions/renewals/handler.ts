import type { ScheduledEvent } from 'aws-lambda';
import { useAwsPorts } from '../../shared/adapters/aws';
import { superviseJobs, type WatchdogReport } from '../../shared/domain/jobs/watchdog';
import { renewDueCommunities, type SweepReport } from '../../shared/domain/moderation/renewals';

useAwsPorts();

/**
 * EventBridge runs this every 5 minutes (the local server on its own schedule): the community
 * renewals and the job watchdog. Both work from now() rather than the event's time, so a late or
 * repeated invocation simply finds less to do.
 */
export const handler = async (_event: ScheduledEvent): Promise<SweepReport & { jobs: WatchdogReport }> => {
  const [report, jobs] = await Promise.all([renewDueCommunities(), superviseJobs()]);
  // Most sweeps find nothing to do; only the ones that did something are worth a log line.
  if (report.due > 0) console.log(JSON.stringify({ level: 'info', message: 'renewal sweep', ...report }));
  if (jobs.stalled > 0) console.log(JSON.stringify({ level: 'info', message: 'job watchdog', ...jobs }));
  return { ...report, jobs };
};
