/**
 * Reading, finishing, cancelling and exporting growth runs. A run follows its enrichment job: the
 * first read that finds the job finished fixes the run's outcome and, for a completed run, stores
 * the deliverable as a `growth_plan` result, both in one transaction and exactly once.
 */
import { NotFoundError, UnprocessableError } from '#shared/domain/errors';
import { now } from '#shared/adapters/ports';
import {
  attachJob,
  finishRunItem,
  getRun,
  listStartingRuns,
  type GrowthRunOutcome,
  type GrowthRunRecord,
  type GrowthRunStatus,
} from '#shared/store/growthRepo';
import { writeTogether, type TransactItem } from '#shared/store/transactions';
import { isConditionFailure } from '#shared/store/client';
import { prepareResult, readResultData } from '#shared/domain/storage/results';
import type { DeliverableRow } from '#shared/domain/jobs/capabilities';
import { cancelJobForUser, pageJobs, requireJob } from '#shared/domain/jobs/jobOperations';
import { jobView } from '#shared/domain/jobs/view';
import type { JobRecord } from '#shared/store/jobsRepo';
import type { Capability, GoalType } from './goals';
import { dataSourceMix, deliveredCounts, gapReport, previewRow, stageStatuses, type StageStatus } from './outcome';
import { runOrigin } from './startRun';
import { failRunBeforeStart } from './failBeforeStart';
import { logger } from '#shared/observability/logger';

export const GROWTH_RESULT_TOOL = 'growth_plan';
/** A run whose job never got attached (the process stopped in between) is settled after this long. */
const ORPHAN_AFTER_MS = 2 * 60 * 1000;
const TERMINAL: GrowthRunStatus[] = ['completed', 'failed', 'cancelled'];

interface GrowthPlanResultData {
  run_id: string;
  goal_type: string;
  pipeline_id: string;
  rows: DeliverableRow[];
  delivered_counts: Record<string, number>;
  pricing: { quoted_credits: number; charged_credits: number; rebate_credits: number };
  data_source_mix: Record<string, number>;
  gap_report: GrowthRunOutcome['gapReport'];
}

async function requireRun(userId: string, runId: string): Promise<GrowthRunRecord> {
  const run = await getRun(userId, runId);
  if (!run) throw new NotFoundError('Run');
  return run;
}

/** Finds the job of a run whose start was interrupted, or settles the run as failed when there is none. */
async function recoverUnattached(run: GrowthRunRecord): Promise<GrowthRunRecord> {
  const found = await pageJobs(run.userId, { limit: 1, offset: 0, sort_order: 'asc', origin: runOrigin(run.runId) });
  if (found.items[0]) {
    await attachJob(run.userId, run.runId, found.items[0].job_id, now().toISOString());
    return requireRun(run.userId, run.runId);
  }
  if (now().getTime() - Date.parse(run.createdAt) < ORPHAN_AFTER_MS) return run;
  await failRunBeforeStart(run, 'The run was interrupted before it started; nothing was charged.');
  return requireRun(run.userId, run.runId);
}

/** Fixes a finished job's outcome on the run (and stores the deliverable); a concurrent finisher wins harmlessly. */
async function finishRun(run: GrowthRunRecord, job: JobRecord): Promise<GrowthRunRecord> {
  const stored =
    job.status === 'completed' && job.resultStored
      ? await readResultData<{ rows: DeliverableRow[] }>(run.userId, job.resultId)
      : undefined;
  const rows = stored?.data.rows ?? [];
  const view = jobView(job);
  const outcome: GrowthRunOutcome = {
    chargedCredits: job.creditsCharged,
    resultId: null,
    rows: rows.length,
    deliveredCounts: deliveredCounts(rows),
    dataSourceMix: dataSourceMix(rows),
    gapReport: gapReport(rows, run.capabilities as Capability[], view.stats.companies_dropped),
    stageStatus: stageStatuses({
      status: job.status,
      capabilities: job.capabilities,
      stageTotals: job.stageTotals,
      stageDone: job.stageDone,
    }),
    progress: { percent: view.progress_percent, message: view.progress_message },
    finishedAt: job.completedAt ?? now().toISOString(),
  };
  let result: TransactItem | undefined;
  if (job.status === 'completed') {
    const data: GrowthPlanResultData = {
      run_id: run.runId,
      goal_type: run.goalType,
      pipeline_id: run.pipelineId,
      rows,
      delivered_counts: outcome.deliveredCounts,
      pricing: {
        quoted_credits: run.quotedCredits,
        charged_credits: outcome.chargedCredits,
        rebate_credits: run.quotedCredits - outcome.chargedCredits,
      },
      data_source_mix: outcome.dataSourceMix,
      gap_report: outcome.gapReport,
    };
    const prepared = await prepareResult({
      userId: run.userId,
      toolName: GROWTH_RESULT_TOOL,
      chatId: run.chatId,
      resultData: data,
      metadata: { run_id: run.runId, goal_type: run.goalType, job_id: job.id, rows: rows.length },
    });
    outcome.resultId = prepared.resultId;
    result = prepared.item;
  }
  try {
    await writeTogether({ result, run: finishRunItem(run.userId, run.runId, job.status, job.errorMessage, outcome) });
  } catch (err) {
    // Another finisher recorded the run first (its outcome stands, and our result is not written).
    if (!isConditionFailure(err)) throw err;
  }
  return requireRun(run.userId, run.runId);
}

/**
 * For the scheduled sweep: every run whose start was interrupted long enough ago is attached to the
 * job it did create, or failed with its reservation released, without waiting for its owner to read it.
 */
export async function recoverStartingRuns(): Promise<{ found: number; attached: number; failed: number }> {
  const runs = await listStartingRuns(new Date(now().getTime() - ORPHAN_AFTER_MS).toISOString());
  const report = { found: runs.length, attached: 0, failed: 0 };
  for (const seen of runs) {
    try {
      const run = await getRun(seen.userId, seen.runId);
      if (!run || run.jobId || run.status !== 'pending') continue;
      const recovered = await recoverUnattached(run);
      if (recovered.jobId) report.attached += 1;
      else if (recovered.status === 'failed') report.failed += 1;
    } catch (err) {
      // The next sweep sees it again.
      logger.error('growth run recovery failed', { runId: seen.runId, error: err as Error });
    }
  }
  return report;
}

/** The run brought up to date with its job. */
async function currentRun(userId: string, runId: string): Promise<{ run: GrowthRunRecord; job?: JobRecord }> {
  let run = await requireRun(userId, runId);
  if (!run.jobId && run.status === 'pending') run = await recoverUnattached(run);
  if (!run.jobId || run.outcome) return { run };
  const job = await requireJob(userId, run.jobId, true);
  if (TERMINAL.includes(job.status)) return { run: await finishRun(run, job), job };
  return { run, job };
}

/** A stored map comes back in another key order: put it back in the order its builder writes (for readers, not machines). */
const inBuilderOrder = (value: Record<string, number>, build: (rows: DeliverableRow[]) => Record<string, number>) =>
  Object.fromEntries(
    Object.keys(build([]))
      .filter((k) => k in value)
      .map((k) => [k, value[k]]),
  );

/** Known once the run has ended: a run that never reached the pipeline was charged nothing. */
function runPricing(run: GrowthRunRecord) {
  const charged = run.outcome ? run.outcome.chargedCredits : TERMINAL.includes(run.status) ? 0 : null;
  return {
    quoted_credits: run.quotedCredits,
    charged_credits: charged,
    rebate_credits: charged === null ? null : run.quotedCredits - charged,
  };
}

/** A finished run's progress was fixed with its outcome; a live one follows its job. */
function runProgress(run: GrowthRunRecord, job: JobRecord | undefined): { percent: number; message: string } {
  if (run.outcome) return { percent: run.outcome.progress.percent, message: run.outcome.progress.message };
  if (!job) return { percent: 0, message: run.errorMessage ?? 'Starting on the enrichment pipeline' };
  const view = jobView(job);
  return { percent: view.progress_percent, message: view.progress_message };
}

function runView(run: GrowthRunRecord, job: JobRecord | undefined, rows: DeliverableRow[], baseUrl: string) {
  const o = run.outcome;
  const status: GrowthRunStatus = o ? run.status : (job?.status ?? run.status);
  const exportUrl = (format: string) => `${baseUrl}/growth/runs/${run.runId}/export?format=${format}`;
  const stage =
    o?.stageStatus ??
    stageStatuses({
      status,
      capabilities: run.capabilities as Capability[],
      stageTotals: job?.stageTotals ?? {},
      stageDone: job?.stageDone ?? {},
    });
  return {
    run_id: run.runId,
    status,
    // Written from the classified plan only.
    goal_type: run.goalType as GoalType,
    pipeline_id: run.pipelineId,
    job_id: run.jobId,
    chat_id: run.chatId,
    // In pipeline order (a stored map does not keep its key order).
    stage_status: Object.fromEntries(run.capabilities.map((c) => [c, (stage[c] ?? 'pending') as StageStatus])),
    progress: runProgress(run, job),
    result_handles: o?.resultId
      ? [{ result_id: o.resultId, tool_name: GROWTH_RESULT_TOOL, records_count: o.rows }]
      : [],
    artifact_handles: o?.resultId
      ? [{ asset_id: o.resultId, label: `Growth deliverable: ${o.rows} rows (${run.goalType})`, kind: 'dataset' }]
      : [],
    export_handles: o?.resultId
      ? (['csv', 'json'] as const).map((format) => ({ format, url: exportUrl(format), rows: o.rows }))
      : [],
    preview: {
      rows: rows.slice(0, run.previewRows).map((r) => previewRow(r, run.requiredFields)),
      delivered_counts: o ? inBuilderOrder(o.deliveredCounts, deliveredCounts) : {},
      pricing: runPricing(run),
    },
    data_source_mix: o ? inBuilderOrder(o.dataSourceMix, dataSourceMix) : {},
    gap_report: o?.gapReport ?? { unresolved_count: 0, reasons: {}, unresolved: [] },
    error_message: run.errorMessage,
    created_at: run.createdAt,
    updated_at: run.updatedAt,
  };
}

async function deliverableRows(run: GrowthRunRecord): Promise<DeliverableRow[]> {
  if (!run.outcome?.resultId) return [];
  return (await readResultData<GrowthPlanResultData>(run.userId, run.outcome.resultId))?.data.rows ?? [];
}

export async function getGrowthRun(userId: string, runId: string, baseUrl: string) {
  const { run, job } = await currentRun(userId, runId);
  const rows = run.previewRows > 0 ? await deliverableRows(run) : [];
  return runView(run, job, rows, baseUrl);
}

export async function cancelGrowthRun(userId: string, runId: string, baseUrl: string) {
  const { run } = await currentRun(userId, runId);
  if (run.outcome || TERMINAL.includes(run.status))
    throw new UnprocessableError('invalid_state', `The run is already ${run.status}.`);
  if (!run.jobId) throw new UnprocessableError('invalid_state', 'The run is still starting; try again in a moment.');
  try {
    await cancelJobForUser(userId, run.jobId);
  } catch (err) {
    // The job finished between our read and the cancel: report the run as it ended.
    if (!(err instanceof UnprocessableError)) throw err;
  }
  return getGrowthRun(userId, runId, baseUrl);
}

/** The rows of a completed run (the handler shapes them as CSV or JSON). */
export async function exportGrowthRun(userId: string, runId: string): Promise<{ rows: DeliverableRow[] }> {
  const { run } = await currentRun(userId, runId);
  if (!run.outcome?.resultId)
    throw new UnprocessableError(
      'invalid_state',
      `The run is ${run.status}; rows can be exported once it has completed.`,
    );
  return { rows: await deliverableRows(run) };
}
