/**
 * The stage worker's side of a job. Each message runs one stage over one batch and commits the
 * batch's new rows with the job's progress in one transaction (see commitStage), then queues the
 * batch's next stage; the batch that finishes last queues the job's finalisation. Every step is
 * safe to run twice: a redelivered message finds its work committed and only re-sends what may
 * not have been sent.
 */
import { now } from '#shared/adapters/ports';
import { prepareResult } from '#shared/domain/storage/results';
import { getBalance, topUpReservation } from '#shared/domain/credits/credits';
import { InsufficientCreditsError } from '#shared/domain/errors';
import {
  commitStage,
  getBatch,
  getJob,
  listBatches,
  markJobStarted,
  recordBatchError,
  TERMINAL_STATUSES,
  type BatchRecord,
  type CommitOutcome,
  type JobRecord,
  type StageCommit,
} from '#shared/store/jobsRepo';
import { CAPABILITIES } from './capabilities';
import { closeJob } from './closeJob';
import { countRowsBySource, finalizeRows } from './finalize';
import { parseJobMessage, sendJobMessages, type FinalizeMessage, type JobMessage, type StageMessage } from './messages';
import { providersForRun } from './providers/registry';
import { runStage, stoppedWarning, type StageOutput } from './stages';
import { jobStats } from './view';
import { JOB_LEDGER_TOOL } from './jobOperations';

/** Most warnings a job keeps: a provider failing for every row says so once. */
const MAX_JOB_WARNINGS = 20;
const mergeWarnings = (...lists: string[][]): string[] => [...new Set(lists.flat())].slice(0, MAX_JOB_WARNINGS);

const isLive = (job: JobRecord | undefined): job is JobRecord =>
  job !== undefined && !TERMINAL_STATUSES.includes(job.status);

/** After a batch passed `step`: its next stage, or, when it was the job's last unfinished batch, the finalisation. */
async function advance(msg: StageMessage, batch: BatchRecord): Promise<void> {
  const next = msg.step + 1;
  if (next < batch.stages.length) {
    await sendJobMessages([{ ...msg, step: next, capability: batch.stages[next] }]);
    return;
  }
  const job = await getJob(msg.user_id, msg.job_id, true);
  if (isLive(job) && job.batchesDone >= job.batchCount)
    await sendJobMessages([{ kind: 'bd_job.finalize', user_id: msg.user_id, job_id: msg.job_id }]);
}

export async function runStageMessage(msg: StageMessage): Promise<void> {
  const job = await getJob(msg.user_id, msg.job_id, true);
  if (!isLive(job)) return;
  const batch = await getBatch(msg.job_id, msg.batch_no);
  if (!batch) throw new Error(`Batch ${msg.batch_no} of job ${msg.job_id} is missing`);
  if (batch.nextStep > msg.step) {
    // Redelivered after its commit: the send that followed may have failed, so send again (duplicates are no-ops).
    if (batch.nextStep === msg.step + 1) await advance(msg, batch);
    return;
  }
  if (batch.nextStep < msg.step) throw new Error(`Batch ${msg.batch_no} is at step ${batch.nextStep}, not ${msg.step}`);
  if (job.status === 'pending') await markJobStarted(job.userId, job.id, now().toISOString());

  // What failed is kept for the dead-letter handler's error message.
  const recorded = async (err: unknown) => {
    await recordBatchError(msg.job_id, msg.batch_no, (err as Error)?.message ?? String(err)).catch(() => undefined);
    return err;
  };
  const run = await providersForRun().catch(async (err: unknown) => {
    throw await recorded(err);
  });
  const unitCredits = CAPABILITIES[msg.capability].unitCredits;
  let current = job;
  let output: StageOutput | undefined;
  let outcome: CommitOutcome | undefined;
  for (let attempt = 0; outcome === undefined; attempt++) {
    if (attempt >= MAX_SPEND_ATTEMPTS)
      throw new Error(`Batch ${msg.batch_no} of job ${msg.job_id} could not settle its spend`);
    const budget = await affordableUnits(current, unitCredits);
    // The same work is kept while the job can still pay for it; a smaller budget runs the stage again
    // (the providers' answers are remembered, so nothing is bought twice).
    if (output === undefined || output.units > budget) {
      try {
        output = await runStage(
          msg.capability,
          { companies: batch.companies, contacts: batch.contacts },
          current.settings,
          run.providers,
          budget,
        );
      } catch (err) {
        throw await recorded(err);
      }
    }
    const warnings = mergeWarnings(
      batch.warnings ?? [],
      run.report().warnings,
      output.stopped ? [stoppedWarning(msg.capability)] : [],
    );
    const spend = spendFor(current, output.units * unitCredits);
    const commit = {
      userId: job.userId,
      jobId: job.id,
      batchNo: batch.batchNo,
      step: msg.step,
      capability: msg.capability,
      companies: output.companies,
      contacts: output.contacts,
      rows: batch.rows,
      units: output.units,
      counters: output.counters,
      warnings,
      lastStep: msg.step + 1 === batch.stages.length,
      at: now().toISOString(),
      spend,
    };
    try {
      const committed = await commitStage(
        commit,
        spend?.topUp
          ? (items) =>
              topUpReservation({
                userId: job.userId,
                reservationId: job.reservationId,
                amount: spend.topUp,
                with: items,
              })
          : undefined,
      );
      // A job still live refused the commit only for its headroom, which parallel batches used: read it again.
      const again = committed === 'job_closed' && spend ? await getJob(job.userId, job.id, true) : undefined;
      if (isLive(again) && again.cancelRequestedAt === undefined) current = again;
      else outcome = committed;
    } catch (err) {
      // The balance moved since it was read (another batch, another request): read both again.
      if (!(err instanceof InsufficientCreditsError)) throw err;
      current = (await getJob(job.userId, job.id, true)) ?? current;
    }
  }
  if (outcome === 'committed') await advance(msg, batch);
}

/** Tries at settling one stage's spend against a balance that parallel work keeps moving. */
const MAX_SPEND_ATTEMPTS = 20;

/**
 * The units of a stage the job can still pay for: its unspent reservation and, when the reservation is
 * its own, what the balance could add to it. A growth run's reservation is the most its job can cost,
 * and stays that (so the run's max_external_spend_credits holds). A job without headroom reserved that
 * most at creation (it was created before jobs reserved their expected cost): nothing bounds it.
 */
async function affordableUnits(job: JobRecord, unitCredits: number): Promise<number> {
  if (job.creditsHeadroom === undefined || unitCredits === 0) return Number.POSITIVE_INFINITY;
  const more = job.ownsReservation ? (await getBalance(job.userId)).available : 0;
  return Math.floor((job.creditsHeadroom + more) / unitCredits);
}

/** What a stage of `credits` takes from the job's headroom, and what it reserves on top from the balance. */
function spendFor(job: JobRecord, credits: number): StageCommit['spend'] {
  if (job.creditsHeadroom === undefined) return undefined;
  return { credits, topUp: Math.max(0, credits - job.creditsHeadroom) };
}

/** deliverable_finalize: the deduplicated rows become the job's stored result, and the job completes and settles for the units they show. */
export async function finalizeJobMessage(msg: FinalizeMessage): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const job = await getJob(msg.user_id, msg.job_id, true);
    if (!isLive(job) || job.batchesDone < job.batchCount) return;
    const batches = await listBatches(job.id);
    const { rows, duplicatesRemoved, units } = finalizeRows(batches);
    const rowsBySource = countRowsBySource(rows);
    const warnings = mergeWarnings(job.warnings, ...batches.map((b) => b.warnings ?? []));
    const stats = {
      ...jobStats(job),
      rows_delivered: rows.length,
      duplicates_removed: duplicatesRemoved,
      rows_by_source: rowsBySource,
    };
    const result = await prepareResult({
      userId: job.userId,
      toolName: JOB_LEDGER_TOOL,
      resultId: job.resultId,
      chatId: job.chatId,
      metadata: { job_id: job.id, preset: job.preset, rows: rows.length },
      resultData: { job_id: job.id, preset: job.preset, requested_capabilities: job.capabilities, rows, stats },
    });
    const closed = await closeJob(
      job,
      {
        status: 'completed',
        errorMessage: null,
        resultStored: true,
        rowsDelivered: rows.length,
        duplicatesRemoved,
        rowsBySource,
        warnings,
      },
      { result: result.item },
      units,
    );
    if (closed === 'closed') return;
  }
  throw new Error(`Job ${msg.job_id} kept changing while being finalised`);
}

/**
 * A message that kept failing reached the dead-letter queue: its job cannot complete, so it fails,
 * charging what it consumed, with the stage, the rows and the last error in error_message.
 */
export async function failJobFromDeadLetter(body: string): Promise<void> {
  const msg = parseJobMessage(body);
  if (!msg) return;
  for (let attempt = 0; attempt < 20; attempt++) {
    const job = await getJob(msg.user_id, msg.job_id, true);
    if (!isLive(job)) return;
    let errorMessage: string;
    if (msg.kind === 'bd_job.stage') {
      const batch = await getBatch(msg.job_id, msg.batch_no);
      const first = batch?.companies[0]?.input_index ?? Number(batch?.contacts[0]?.row_id.replace('in-', '') ?? 0);
      const what = batch?.companies.length ? 'companies' : 'contacts';
      errorMessage = `${CAPABILITIES[msg.capability].label} failed repeatedly for ${what} ${first + 1}-${first + (batch?.rows ?? 0)} (batch ${msg.batch_no + 1} of ${job.batchCount}): ${batch?.lastError ?? 'unknown error'}`;
    } else {
      errorMessage = 'Finalising the deliverable rows failed repeatedly.';
    }
    if ((await closeJob(job, { status: 'failed', errorMessage })) === 'closed') return;
  }
}

const HANDLERS: { [K in JobMessage['kind']]: (msg: Extract<JobMessage, { kind: K }>) => Promise<void> } = {
  'bd_job.stage': runStageMessage,
  'bd_job.finalize': finalizeJobMessage,
};

/** Deliveries before SQS parks a message in the dead-letter queue (the queue's redrive policy, infra/pipeline.ts). */
export const MAX_DELIVERIES = 3;

/**
 * One queue record. A malformed body throws, so it ends in the dead-letter queue rather than
 * vanishing. When the last delivery fails too, the job is failed here and now, so a deployment needs
 * no consumer on the dead-letter queue for jobs to end.
 */
export async function handlePipelineMessage(
  body: string,
  delivery: { receiveCount: number } = { receiveCount: 1 },
): Promise<void> {
  const msg = parseJobMessage(body);
  if (!msg) throw new Error('Unrecognised pipeline message');
  try {
    await (HANDLERS[msg.kind] as (m: JobMessage) => Promise<void>)(msg);
  } catch (err) {
    if (delivery.receiveCount >= MAX_DELIVERIES) await failJobFromDeadLetter(body);
    throw err;
  }
}
