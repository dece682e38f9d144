/**
 * POST /bd/jobs: starting an enrichment job, one concern a step. The request is planned
 * (jobRequest.ts), funded (a quote redeemed, credits reserved or a growth run's reservation taken
 * over), written with its work batches, then queued; a job the queue refuses is failed so that it
 * holds no credits. It is also the entry point of the growth area, which passes `billing` when it has
 * already reserved the credits under its own ledger tool and `origin` to find its jobs again.
 */
import { InsufficientCreditsError, ServiceUnavailableError } from '#shared/domain/errors';
import { now } from '#shared/adapters/ports';
import { uuidv7 } from '#shared/ids';
import { getBalance, reserveCredits } from '#shared/domain/credits/credits';
import { recordCreditMove } from '#shared/domain/credits/creditMeter';
import { requireChat } from '#shared/domain/storage/chats';
import { getReservation } from '#shared/store/walletRepo';
import { getJob, putBatches, putJobItem, type BatchRecord, type JobRecord } from '#shared/store/jobsRepo';
import { TransactionConditionError, writeTogether } from '#shared/store/transactions';
import { consumeQuoteItem, restoreQuote } from '#shared/store/quotesRepo';
import { logger } from '#shared/observability/logger';
import { explainSpentQuote, redeemableQuote } from '#shared/domain/quotes/quoteTokens';
import { planBatches, stageTotals } from './batches';
import { closeJob } from './closeJob';
import { JOB_LEDGER_TOOL } from './jobOperations';
import {
  expectedJobCost,
  JOB_QUOTE_KIND,
  jobQuoteRequest,
  planEnrichmentJob,
  type PlannedJob,
  type StartJobInput,
} from './jobRequest';
import { type JobMessage, sendJobMessages } from './messages';
import { requireJob } from './requireJob';
import { noUnits } from './pricing';
import { STAT_COUNTERS } from './stages';
import { jobView, type JobView } from './view';

/** Work batches outlive any job by far; the ttl only clears those of a job that was never created. */
const BATCH_TTL_SECONDS = 14 * 24 * 3600;
/** When a caller may try again after the queue refused a job's messages (SQS throttling passes in seconds). */
const QUEUE_RETRY_AFTER_SECONDS = 5;

type Quote = Awaited<ReturnType<typeof redeemableQuote>>;

/** How a job is paid for: the quote it uses up, what it reserves at creation, and what it then holds. */
interface Funding {
  quote: Quote | undefined;
  cost: number;
  reserved: number;
}

export async function startEnrichmentJob(input: StartJobInput): Promise<JobView> {
  const planned = planEnrichmentJob(input);
  if (input.chatId) await requireChat(input.userId, input.chatId);
  const funding = await fundingOf(input, planned);
  const at = now();
  const { job, records } = newJob(input, planned, funding.reserved, at);
  await writeJob(input, job, records, funding, at);
  return queueJob(input, job, records, funding.quote);
}

/**
 * A quoted job is bound to its quote and reserves no more than it at creation (prices may have moved since);
 * its work reserves more as it goes when it finds more than expected. A growth run reserved for its job
 * already: its job prices nothing and holds the run's reservation.
 */
async function fundingOf(input: StartJobInput, planned: PlannedJob): Promise<Funding> {
  const quote =
    input.quoteToken === undefined
      ? undefined
      : await redeemableQuote(input.userId, input.quoteToken, JOB_QUOTE_KIND, jobQuoteRequest(input));
  const expected = input.billing ? 0 : (await expectedJobCost(planned)).credits;
  const cost = quote ? Math.min(expected, quote.credits) : expected;
  if (input.billing) {
    const reservation = await getReservation(input.userId, input.billing.reservationId);
    if (!reservation) throw new Error(`Reservation ${input.billing.reservationId} does not exist`);
    return { quote, cost, reserved: reservation.amount };
  }
  // Cheap early answer for the common "not enough credits" case, before anything is written.
  const { available } = await getBalance(input.userId);
  if (available < cost) throw new InsufficientCreditsError(cost, available);
  return { quote, cost, reserved: cost };
}

/** The job's record and its work batches, as they are first written. */
function newJob(
  input: StartJobInput,
  { plan, companies, contacts, settings }: PlannedJob,
  reserved: number,
  at: Date,
): { job: JobRecord; records: BatchRecord[] } {
  const jobId = uuidv7(at.getTime());
  const batches = planBatches(plan.capabilities, companies, contacts);
  const totals = stageTotals(batches);
  const job: JobRecord = {
    id: jobId,
    userId: input.userId,
    status: 'pending',
    preset: plan.preset,
    capabilities: plan.capabilities,
    warnings: plan.warnings,
    origin: input.origin ?? 'api',
    chatId: input.chatId ?? null,
    settings,
    inputs: { companies: companies.length, contacts: contacts.length },
    resultId: uuidv7(at.getTime()),
    resultStored: false,
    reservationId: input.billing?.reservationId ?? `${JOB_LEDGER_TOOL}-${jobId}`,
    ownsReservation: !input.billing,
    creditsReserved: reserved,
    creditsHeadroom: reserved,
    creditsCharged: 0,
    batchCount: batches.length,
    batchesDone: batches.filter((b) => b.stages.length === 0).length,
    totalUnits: batches.reduce((s, b) => s + b.rows * b.stages.length, 0),
    doneUnits: 0,
    stageTotals: totals,
    stageDone: Object.fromEntries(Object.keys(totals).map((c) => [c, 0])),
    units: noUnits(),
    counters: Object.fromEntries(STAT_COUNTERS.map((c) => [c, 0])) as JobRecord['counters'],
    rowsDelivered: null,
    duplicatesRemoved: null,
    errorMessage: null,
    createdAt: at.toISOString(),
    updatedAt: at.toISOString(),
    version: 0,
  };
  const records: BatchRecord[] = batches.map((b) => ({
    jobId,
    batchNo: b.batch_no,
    stages: b.stages,
    nextStep: 0,
    rows: b.rows,
    companies: b.companies,
    contacts: b.contacts,
  }));
  return { job, records };
}

/**
 * The batches, then the job in one transaction with its reservation and its quote used up (a growth
 * run's job with nothing else: the run reserved already).
 */
async function writeJob(
  input: StartJobInput,
  job: JobRecord,
  records: BatchRecord[],
  { quote, cost }: Funding,
  at: Date,
): Promise<void> {
  await putBatches(records, Math.floor(at.getTime() / 1000) + BATCH_TTL_SECONDS);
  // The job's transaction may be applied before its error reaches us (a timeout): the job then exists, with its
  // reservation and its quote used, and must go on to the queue rather than be answered as an error.
  const writtenAnyway = async (err: unknown) => {
    if (err instanceof TransactionConditionError || !(await getJob(input.userId, job.id, true).catch(() => undefined)))
      throw err;
    logger.warn('job written although its write reported an error', { jobId: job.id, error: err as Error });
  };
  if (input.billing) {
    await writeTogether({ job: putJobItem(job) }).catch(writtenAnyway);
    return;
  }
  const withQuote = quote ? { token: consumeQuoteItem(quote, at.toISOString(), job.id) } : {};
  try {
    await reserveCredits({
      userId: input.userId,
      toolName: JOB_LEDGER_TOOL,
      refId: job.id,
      amount: cost,
      reservationId: job.reservationId,
      with: { job: putJobItem(job), ...withQuote },
    });
  } catch (err) {
    // Of parallel creates with one token exactly one passes the token's condition.
    if (quote && err instanceof TransactionConditionError && err.failed.has('token'))
      await explainSpentQuote(quote.tokenHash);
    await writtenAnyway(err);
    // The reservation was made, unseen by the meter: the answer still says what it took.
    recordCreditMove(input.userId, cost, (await getBalance(input.userId)).available);
  }
}

/** The job's first messages: one per batch with work, or its finalisation when no batch has any. */
const firstMessages = (userId: string, job: JobRecord, records: BatchRecord[]): JobMessage[] =>
  job.batchesDone < job.batchCount
    ? records
        .filter((b) => b.stages.length > 0)
        .map((b) => ({
          kind: 'bd_job.stage',
          user_id: userId,
          job_id: job.id,
          batch_no: b.batchNo,
          step: 0,
          capability: b.stages[0],
        }))
    : [{ kind: 'bd_job.finalize', user_id: userId, job_id: job.id }];

/** Queues the written job; what the caller is answered when the queue refuses it. */
async function queueJob(
  input: StartJobInput,
  job: JobRecord,
  records: BatchRecord[],
  quote: Quote | undefined,
): Promise<JobView> {
  try {
    await sendJobMessages(firstMessages(input.userId, job, records));
  } catch (err) {
    return unqueued(input, job, quote, err);
  }
  return jobView(job);
}

/** A job nobody will work on must not hold credits: fail it (releasing them) before reporting the error. */
async function unqueued(input: StartJobInput, job: JobRecord, quote: Quote | undefined, err: unknown) {
  const jobId = job.id;
  let closed: Awaited<ReturnType<typeof closeJob>>;
  try {
    closed = await closeJob(job, {
      status: 'failed',
      errorMessage: 'The job could not be queued; nothing was charged.',
    });
  } catch (closeErr) {
    const latest = await getJob(input.userId, jobId, true).catch(() => undefined);
    // The closing may have landed before its error reached us: the job is then failed by us alone.
    if (latest?.status === 'failed' && latest.version === job.version + 1) closed = 'closed';
    else {
      // Neither queued nor failed: the job keeps its reservation and the watchdog re-drives it as a stalled
      // job, so it will run and charge. It is the answer; "nothing was charged, try again" would start a second.
      logger.warn('job neither queued nor failed; the watchdog will start it', { jobId, error: closeErr as Error });
      return jobView(latest ?? job);
    }
  }
  // The send failed after the queue took (some of) the messages, and the worker moved the job on: the job
  // runs and will charge, so it is the answer. The watchdog re-sends whatever batch was not delivered.
  // Answering 503 here would invite a second job (and give back a quote that paid for this one).
  if (closed === 'changed') return jobView(await requireJob(input.userId, jobId, true));
  // Nor its quote: the caller is told to try again, which the same token must allow.
  if (quote && !input.billing) {
    await restoreQuote(quote.tokenHash, jobId).catch((restoreErr: unknown) =>
      logger.warn('quote of a job never queued not given back', { jobId, error: restoreErr as Error }),
    );
  }
  throw new ServiceUnavailableError(
    'The enrichment pipeline did not take the job; nothing was charged. Try again shortly.',
    QUEUE_RETRY_AFTER_SECONDS,
    err,
  );
}
