import { NotFoundError, UnprocessableError } from '../../http/errors';
import { HttpResponse } from '../../http/response';
import { readResultData } from '../storage/results';
import { toCsv } from './finalize';
import type { DeliverableRow } from './rows';
import { requireJob } from './requireJob';

/** The rows of a completed job: `text/csv` with a header row, or `{"rows": [...]}`. */
export async function exportJobRows(userId: string, jobId: string, format: 'csv' | 'json'): Promise<HttpResponse | { rows: DeliverableRow[] }> {
  const job = await requireJob(userId, jobId);
  const stored = job.resultStored ? await readResultData<{ rows: DeliverableRow[] }>(userId, job.resultId) : undefined;
  if (!stored && job.status !== 'completed') throw new UnprocessableError('invalid_state', `The job is ${job.status}; rows can be exported once it has completed.`);
  // Completed, but its stored result is gone (deleted by the operator): say so rather than "not completed".
  if (!stored) throw new NotFoundError('The result of this job');
  if (format === 'json') return { rows: stored.data.rows };
  return new HttpResponse(200, toCsv(stored.data.rows), { 'content-disposition': `attachment; filename="job-${jobId}.csv"` }, 'text/csv; charset=utf-8');
}
