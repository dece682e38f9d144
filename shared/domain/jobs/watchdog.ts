/**
 * The job watchdog, run by the scheduled sweep (EventBridge every 5 minutes; the local schedule) and,
 * locally, once at start. Queue messages can be lost (a local process stopped, a consumer crashed past
 * its retries): a job whose last committed progress is older than a bound has its next steps sent
 * again. The stage commits are guarded by step number, so a message that was only slow is harmless.
 * After the re-drive budget is spent the job fails, charging what it consumed and releasing the rest
 * of its reservation; its SSE stream then ends with `complete`, and a growth run follows its job.
 */
import { now } from '#shared/adapters/ports';
import {
  claimJobRedrive,
  getJob,
  listBatches,
  listStalledJobs,
  TERMINAL_STATUSES,
  type JobRecord,
  type WatchedJob,
} from '#shared/store/jobsRepo';
import { closeJob } from './closeJob';
import { sendJobMessages, type JobMessage } from './messages';
import { logger } from '#shared/observability/logger';

export interface WatchdogOptions {
  /** A job with no committed progress for this long is stalled (config().jobWatchdog, from JOB_WATCHDOG_STALE_AFTER_SECONDS). */
  staleAfterMs: number;
  /** Re-drives before a stalled job fails (JOB_WATCHDOG_MAX_REDRIVES). */
  maxRedrives: number;
  /**
   * After a restart of the local runtime: every in-flight job lost its messages for a known reason,
   * so each is resumed whatever its age, without spending its budget.
   */
  resume?: boolean;
}

export interface WatchdogReport {
  stalled: number;
  redriven: number;
  failed: number;
  cancelled: number;
  skipped: number;
}

/** What the job still needs: the next stage of every unfinished batch, or its finalisation. */
async function nextMessages(job: JobRecord): Promise<JobMessage[]> {
  const open = (await listBatches(job.id)).filter((b) => b.nextStep < b.stages.length);
  if (open.length === 0) return [{ kind: 'bd_job.finalize', user_id: job.userId, job_id: job.id }];
  return open.map((b) => ({
    kind: 'bd_job.stage',
    user_id: job.userId,
    job_id: job.id,
    batch_no: b.batchNo,
    step: b.nextStep,
    capability: b.stages[b.nextStep],
  }));
}

/** Closes a job against its latest version (its units may still move until the close lands). */
async function closeStalled(
  userId: string,
  jobId: string,
  outcome: { status: 'failed' | 'cancelled'; errorMessage: string | null },
): Promise<boolean> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const job = await getJob(userId, jobId, true);
    if (!job || TERMINAL_STATUSES.includes(job.status)) return false;
    if ((await closeJob(job, outcome)) === 'closed') return true;
  }
  return false;
}

async function superviseOne(
  w: WatchedJob,
  o: Required<Omit<WatchdogOptions, 'resume'>> & { resume: boolean },
): Promise<keyof WatchdogReport> {
  const { job } = w;
  // A cancel that was asked for but never closed (its request died half-way) is finished here.
  if (job.cancelRequestedAt)
    return (await closeStalled(job.userId, job.id, { status: 'cancelled', errorMessage: null }))
      ? 'cancelled'
      : 'skipped';
  if (!o.resume && (job.redrives ?? 0) >= o.maxRedrives) {
    const minutes = Math.round(o.staleAfterMs / 60_000);
    const errorMessage = `The job made no progress for ${minutes} minutes after ${o.maxRedrives} re-drives of its pending work; it was stopped, charging only the units completed.`;
    return (await closeStalled(job.userId, job.id, { status: 'failed', errorMessage })) ? 'failed' : 'skipped';
  }
  if (!(await claimJobRedrive(w, now().toISOString(), !o.resume))) return 'skipped';
  await sendJobMessages(await nextMessages(job));
  return 'redriven';
}

export async function superviseJobs(options: WatchdogOptions): Promise<WatchdogReport> {
  const o = { ...options, resume: options.resume ?? false };
  const bound = o.resume ? now() : new Date(now().getTime() - o.staleAfterMs);
  const stalled = await listStalledJobs(bound.toISOString());
  const report: WatchdogReport = { stalled: stalled.length, redriven: 0, failed: 0, cancelled: 0, skipped: 0 };
  for (const w of stalled) {
    try {
      report[await superviseOne(w, o)] += 1;
    } catch (err) {
      // One job's trouble must not hold back the others; the next sweep sees it again.
      report.skipped += 1;
      logger.error('job watchdog failed', { jobId: w.job.id, error: err as Error });
    }
  }
  return report;
}
