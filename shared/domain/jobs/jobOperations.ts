/**
 * Reading, listing and cancelling enrichment jobs (creating one is startJob.ts; what a request comes
 * to before anything is written, jobRequest.ts).
 */
import { UnprocessableError } from '#shared/domain/errors';
import { now } from '#shared/adapters/ports';
import { listJobs, requestJobCancel, TERMINAL_STATUSES } from '#shared/store/jobsRepo';
import { closeJob } from './closeJob';
import { requireJob } from './requireJob';
import { jobView, type JobView } from './view';

/** The ledger tool a job's own reservation and charge are recorded under. */
export const JOB_LEDGER_TOOL = 'bd_job';

export { requireJob };

export const getJobForUser = async (userId: string, jobId: string): Promise<JobView> =>
  jobView(await requireJob(userId, jobId));

export async function pageJobs(
  userId: string,
  q: { limit: number; offset: number; sort_order: 'asc' | 'desc'; status?: string; origin?: string },
) {
  const jobs = (await listJobs(userId)).filter(
    (j) => (q.status === undefined || j.status === q.status) && (q.origin === undefined || j.origin === q.origin),
  );
  if (q.sort_order === 'desc') jobs.reverse();
  return {
    items: jobs.slice(q.offset, q.offset + q.limit).map(jobView),
    total: jobs.length,
    limit: q.limit,
    offset: q.offset,
  };
}

/**
 * Cancels a job that has not finished: it charges what it consumed so far and releases the rest.
 * Work still in flight finds the job cancelled and is dropped uncounted.
 */
export async function cancelJobForUser(userId: string, jobId: string): Promise<JobView> {
  const alreadyOver = (status: string) => new UnprocessableError('invalid_state', `The job is already ${status}.`);
  const live = await requireJob(userId, jobId, true);
  if (TERMINAL_STATUSES.includes(live.status)) throw alreadyOver(live.status);
  // First freeze the work (no batch commits after this), then close against the now-stable record.
  if (!(await requestJobCancel(userId, jobId, now().toISOString())))
    throw alreadyOver((await requireJob(userId, jobId, true)).status);
  for (let attempt = 0; attempt < 10; attempt++) {
    const job = await requireJob(userId, jobId, true);
    if (TERMINAL_STATUSES.includes(job.status)) {
      if (job.status === 'cancelled') return jobView(job);
      throw alreadyOver(job.status);
    }
    if ((await closeJob(job, { status: 'cancelled', errorMessage: null })) === 'closed')
      return jobView(await requireJob(userId, jobId, true));
    await new Promise((r) => setTimeout(r, 10 * (attempt + 1)));
  }
  throw new UnprocessableError('invalid_state', 'The job is finishing; read it again for its final state.');
}
