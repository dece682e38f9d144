/**
 * progress_percent and progress_message from the job's counted units. Pure. While running, the
 * percentage stops at 99: the last step (finalising the rows) is what makes a job complete.
 */
import { CAPABILITIES, CAPABILITY_NAMES } from './capabilities';
import type { JobRecord } from '#shared/store/jobsRepo';

export interface Progress {
  percent: number;
  message: string;
}

const count = (n: number) => n.toLocaleString('en-US');

export function jobProgress(
  job: Pick<
    JobRecord,
    | 'status'
    | 'totalUnits'
    | 'doneUnits'
    | 'stageTotals'
    | 'stageDone'
    | 'inputs'
    | 'batchCount'
    | 'rowsDelivered'
    | 'errorMessage'
    | 'capabilities'
  >,
): Progress {
  const percent = job.totalUnits > 0 ? Math.floor((100 * job.doneUnits) / job.totalUnits) : 0;
  const stages = CAPABILITY_NAMES.filter((c) => job.stageTotals[c] !== undefined);
  switch (job.status) {
    case 'pending':
      return {
        percent: 0,
        message: `Queued: ${count(job.inputs.companies)} companies and ${count(job.inputs.contacts)} contacts in ${count(job.batchCount)} batches`,
      };
    case 'completed':
      return { percent: 100, message: `Completed: ${count(job.rowsDelivered ?? 0)} rows delivered` };
    case 'failed':
      return { percent, message: `Failed: ${job.errorMessage ?? 'unknown error'}` };
    case 'cancelled':
      return { percent, message: `Cancelled at ${percent}%` };
    case 'running': {
      const current = stages.findIndex((c) => (job.stageDone[c] ?? 0) < (job.stageTotals[c] ?? 0));
      if (current === -1) return { percent: Math.min(99, percent), message: 'Finalising deliverable rows' };
      const stage = stages[current];
      return {
        percent: Math.min(99, percent),
        message: `${CAPABILITIES[stage].label} (stage ${current + 1} of ${stages.length}): ${count(job.stageDone[stage] ?? 0)} of ${count(job.stageTotals[stage] ?? 0)} rows`,
      };
    }
  }
}
