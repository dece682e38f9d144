import type { ScheduledEvent } from 'aws-lambda';
import { useAwsPorts } from '../../shared/adapters/aws';
import { renewDueCommunities, type SweepReport } from '../../shared/domain/moderation/renewals';

useAwsPorts();

/**
 * EventBridge runs this every 5 minutes (the local server on its own schedule). The sweep works from
 * now() rather than the event's time, so a late or repeated invocation simply finds less to do.
 */
export const handler = async (_event: ScheduledEvent): Promise<SweepReport> => {
  const report = await renewDueCommunities();
  // Most sweeps find nothing due; only the ones that did something are worth a log line.
  if (report.due > 0) console.log(JSON.stringify({ level: 'info', message: 'renewal sweep', ...report }));
  return report;
};
