/** The job record as the API shows it. */
import type { JobRecord, JobStatus } from '#shared/store/jobsRepo';
import type { Capability } from './capabilities';
import { creditsByCapability, creditsFor } from './pricing';
import { jobProgress } from './progress';

export interface JobView {
  job_id: string;
  status: JobStatus;
  progress_percent: number;
  progress_message: string;
  preset: string;
  requested_capabilities: Capability[];
  warnings: string[];
  error_message: string | null;
  result_id: string | null;
  chat_id: string | null;
  /** `api` for jobs created over HTTP; callers inside the service tag their own (growth: `growth_run:<run_id>`). */
  origin: string;
  credits_reserved: number;
  credits_charged: number;
  stats: JobStats;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  completed_at: string | null;
}

export interface JobStats {
  companies_in: number;
  contacts_in: number;
  batches: number;
  companies_qualified: number;
  companies_dropped: number;
  units: Partial<Record<Capability, number>>;
  credits_consumed: number;
  credits_by_capability: Partial<Record<Capability, number>>;
  email_statuses: { deliverable: number; risky: number; undeliverable: number; unknown: number };
  rows_delivered: number | null;
  duplicates_removed: number | null;
  /** Delivered rows by the sources of their values (a row counts under each of its sources); empty until completed. */
  rows_by_source: Record<string, number>;
}

export function jobStats(job: JobRecord): JobStats {
  const units = Object.fromEntries(
    job.capabilities.filter((c) => c !== 'deliverable_finalize').map((c) => [c, job.units[c] ?? 0]),
  );
  return {
    companies_in: job.inputs.companies,
    contacts_in: job.inputs.contacts,
    batches: job.batchCount,
    companies_qualified: job.counters.companies_qualified,
    companies_dropped: job.counters.companies_dropped,
    units,
    credits_consumed: creditsFor(units),
    credits_by_capability: creditsByCapability(units),
    email_statuses: {
      deliverable: job.counters.deliverable,
      risky: job.counters.risky,
      undeliverable: job.counters.undeliverable,
      unknown: job.counters.unknown,
    },
    rows_delivered: job.rowsDelivered,
    duplicates_removed: job.duplicatesRemoved,
    rows_by_source: { ...(job.rowsBySource ?? {}) },
  };
}

export function jobView(job: JobRecord): JobView {
  const progress = jobProgress(job);
  return {
    job_id: job.id,
    status: job.status,
    progress_percent: progress.percent,
    progress_message: progress.message,
    preset: job.preset,
    requested_capabilities: job.capabilities,
    warnings: job.warnings,
    error_message: job.errorMessage,
    result_id: job.resultStored ? job.resultId : null,
    chat_id: job.chatId,
    origin: job.origin,
    credits_reserved: job.creditsReserved,
    credits_charged: job.creditsCharged,
    stats: jobStats(job),
    created_at: job.createdAt,
    updated_at: job.updatedAt,
    started_at: job.startedAt ?? null,
    completed_at: job.completedAt ?? null,
  };
}

/** The SSE event data: what changes as a job moves. */
export const jobEventData = (job: JobRecord) => {
  const progress = jobProgress(job);
  return {
    job_id: job.id,
    status: job.status,
    progress_percent: progress.percent,
    progress_message: progress.message,
    updated_at: job.updatedAt,
  };
};
