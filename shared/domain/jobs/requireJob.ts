import { NotFoundError } from '#shared/domain/errors';
import { getJob, type JobRecord } from '#shared/store/jobsRepo';

/** The caller's job, or 404 (also for another user's job: existence is never revealed). */
export async function requireJob(userId: string, jobId: string, consistent = false): Promise<JobRecord> {
  const job = await getJob(userId, jobId, consistent);
  if (!job) throw new NotFoundError('Job');
  return job;
}
