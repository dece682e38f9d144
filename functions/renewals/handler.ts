import type { ScheduledEvent } from 'aws-lambda';
import { useAwsPorts } from '../../shared/adapters/aws';
import { recoverStartingRuns } from '../../shared/domain/growth/runs';
import { superviseJobs, type WatchdogReport } from '../../shared/domain/jobs/watchdog';
import { renewDueCommunities, type SweepReport } from '../../shared/domain/moderation/renewals';
import { removeUnverifiedMembers } from '../../shared/domain/moderation/telegramBot';

useAwsPorts();

/**
 * EventBridge runs this every 5 minutes (the local server on its own schedule): the community
 * renewals, the job watchdog and the recovery of growth runs whose start was interrupted. Both work from now() rather than the event's time, so a late or
 * repeated invocation simply finds less to do.
 */
export const handler = async (_event: ScheduledEvent): Promise<SweepReport & { jobs: WatchdogReport; growth_runs: Awaited<ReturnType<typeof recoverStartingRuns>> }> => {
  const [report, jobs, runs] = await Promise.all([renewDueCommunities(), superviseJobs(), recoverStartingRuns()]);
  // Most sweeps find nothing to do; only the ones that did something are worth a log line.
  if (report.due > 0) console.log(JSON.stringify({ level: 'info', message: 'renewal sweep', ...report }));
  if (jobs.stalled > 0) console.log(JSON.stringify({ level: 'info', message: 'job watchdog', ...jobs }));
  if (runs.found > 0) console.log(JSON.stringify({ level: 'info', message: 'growth run recovery', ...runs }));
  return { ...report, jobs, growth_runs: runs };
};

/**
 * EventBridge runs this every minute (the local server every 15 seconds): new members whose captcha
 * deadline passed are removed, so a 2-minute timeout holds within a minute. Its own schedule keeps
 * the renewal sweep at its 5 minutes.
 */
export const captchaHandler = async (_event: ScheduledEvent): Promise<{ removed: number }> => {
  const report = await removeUnverifiedMembers();
  if (report.removed > 0) console.log(JSON.stringify({ level: 'info', message: 'captcha timeouts', ...report }));
  return report;
};
