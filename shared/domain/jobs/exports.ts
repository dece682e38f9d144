import { NotFoundError, UnprocessableError } from '#shared/domain/errors';
import { readResultData } from '#shared/domain/storage/results';
import type { DeliverableRow } from './capabilities';
import { requireJob } from './requireJob';

/** The rows of a completed job (the handler shapes them as CSV or JSON). */
export async function exportJobRows(userId: string, jobId: string): Promise<{ rows: DeliverableRow[] }> {
  const job = await requireJob(userId, jobId);
  const stored = job.resultStored ? await readResultData<{ rows: DeliverableRow[] }>(userId, job.resultId) : undefined;
  if (!stored && job.status !== 'completed')
    throw new UnprocessableError(
      'invalid_state',
      `The job is ${job.status}; rows can be exported once it has completed.`,
    );
  // Completed, but its stored result is gone (deleted by the operator): say so rather than "not completed".
  if (!stored) throw new NotFoundError('The result of this job');
  return { rows: stored.data.rows };
}
