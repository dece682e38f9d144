/**
 * Creating, reading, listing and cancelling enrichment jobs. `startEnrichmentJob` is also the entry
 * point of the growth area, which passes `billing` when it has already reserved the credits under
 * its own ledger tool and `origin` to find its jobs again.
 */
import {
  InsufficientCreditsError,
  ServiceUnavailableError,
  UnprocessableError,
  ValidationError,
} from '#shared/domain/errors';
import { now } from '#shared/adapters/ports';
import { uuidv7 } from '#shared/ids';
import { getBalance, reserveCredits } from '#shared/domain/credits/credits';
import { recordCreditMove } from '#shared/domain/credits/creditMeter';
import { requireChat } from '#shared/domain/storage/chats';
import { getReservation } from '#shared/store/walletRepo';
import {
  getJob,
  listJobs,
  putBatches,
  putJobItem,
  requestJobCancel,
  TERMINAL_STATUSES,
  type BatchRecord,
  type JobRecord,
} from '#shared/store/jobsRepo';
import { TransactionConditionError, writeTogether } from '#shared/store/transactions';
import { consumeQuoteItem, restoreQuote } from '#shared/store/quotesRepo';
import { logger } from '#shared/observability/logger';
import { explainSpentQuote, redeemableQuote } from '#shared/domain/quotes/quoteTokens';
import { CAPABILITY_NAMES, isCapability, isPreset, MAX_COMPANIES, MAX_CONTACTS, type Capability } from './capabilities';
import { planBatches, stageTotals } from './batches';
import { closeJob } from './closeJob';
import { companyRows, contactRows, inputFacts, type InputAssets } from './inputs';
import { sendJobMessages } from './messages';
import { planJob } from './planner';
import { requireJob } from './requireJob';
import { creditsFor, noUnits } from './pricing';
import { expectedUnits } from './expectedCost';
import { STAT_COUNTERS, type StageSettings } from './stages';
import type { IcpCriteria } from './providers/types';
import { jobView, type JobView } from './view';

export const JOB_LEDGER_TOOL = 'bd_job';
/** Work batches outlive any job by far; the ttl only clears those of a job that was never created. */
const BATCH_TTL_SECONDS = 14 * 24 * 3600;
/** When a caller may try again after the queue refused a job's messages (SQS throttling passes in seconds). */
const QUEUE_RETRY_AFTER_SECONDS = 5;

export interface StartJobInput {
  userId: string;
  preset?: string;
  requestedCapabilities?: string[];
  inputAssets: InputAssets;
  icpConfig?: object;
  executionOptions?: { niche?: string; icp_gate?: 'skip' | 'apply'; role_focus?: string[] };
  chatId?: string | null;
  /** The caller reserved already (its own ledger tool); the job settles that reservation with what it consumed. */
  billing?: { reservationId: string };
  /** Defaults to `api`. */
  origin?: string;
  /** From quoteEnrichmentJob for this same request: reserve at most its credits, and use it up. */
  quoteToken?: string;
}

/** The kind of quote a job token is (quotes of every area share one store). */
export const JOB_QUOTE_KIND = 'bd_job';

function choiceOf(input: Pick<StartJobInput, 'preset' | 'requestedCapabilities'>): {
  preset?: Parameters<typeof planJob>[0]['preset'];
  capabilities?: Capability[];
} {
  if (input.preset !== undefined && !isPreset(input.preset))
    throw new ValidationError(`Unknown preset ${input.preset}.`, [{ path: 'preset', message: 'Unknown preset' }]);
  const unknown = (input.requestedCapabilities ?? []).filter((c) => !isCapability(c));
  if (unknown.length) {
    throw new ValidationError(`Unknown capabilities: ${unknown.join(', ')}. Known: ${CAPABILITY_NAMES.join(', ')}.`, [
      { path: 'requested_capabilities', message: 'Unknown capability' },
    ]);
  }
  if (input.requestedCapabilities?.length === 0)
    throw new ValidationError('requested_capabilities is empty.', [
      { path: 'requested_capabilities', message: 'At least one capability' },
    ]);
  return { preset: input.preset as never, capabilities: input.requestedCapabilities as Capability[] | undefined };
}

function limits(assets: InputAssets): void {
  if ((assets.companies?.length ?? 0) > MAX_COMPANIES)
    throw new ValidationError(`At most ${MAX_COMPANIES} companies a job.`, [
      { path: 'input_assets.companies', message: 'Too many' },
    ]);
  if ((assets.contacts?.length ?? 0) > MAX_CONTACTS)
    throw new ValidationError(`At most ${MAX_CONTACTS} contacts a job.`, [
      { path: 'input_assets.contacts', message: 'Too many' },
    ]);
}

/** What a job request comes to before anything is written: its plan, inputs and settings. */
export function planEnrichmentJob(input: Omit<StartJobInput, 'userId' | 'billing' | 'origin' | 'quoteToken'>) {
  limits(input.inputAssets);
  const choice = choiceOf(input);
  const companies = companyRows(input.inputAssets.companies ?? []);
  const contacts = contactRows(input.inputAssets.contacts ?? []);
  const icp = (input.icpConfig ?? {}) as IcpCriteria;
  const criteria: IcpCriteria = {
    ...icp,
    ...(input.executionOptions?.niche ? { niche: input.executionOptions.niche } : {}),
  };
  const settings: StageSettings = {
    criteria,
    icpGate: input.executionOptions?.icp_gate ?? 'skip',
    roleFocus: input.executionOptions?.role_focus ?? [],
  };
  const hasIcpCriteria = Boolean(
    criteria.niche ||
      criteria.industries?.length ||
      criteria.locations?.length ||
      criteria.keywords?.length ||
      criteria.min_employees !== undefined ||
      criteria.max_employees !== undefined,
  );
  const plan = planJob(choice, inputFacts(companies, contacts, { icpGate: settings.icpGate, hasIcpCriteria }));
  return { plan, companies, contacts, settings };
}

/** A job's expected cost (expectedCost.ts): what its quote says and what it reserves at creation. */
export async function expectedJobCost(planned: ReturnType<typeof planEnrichmentJob>) {
  const units = await expectedUnits(planned.plan.capabilities, planned.companies, planned.contacts, planned.settings);
  return { units, credits: creditsFor(units) };
}

/** What a job quote is bound to: the request as validated, without the token itself. */
export const jobQuoteRequest = (input: Omit<StartJobInput, 'userId' | 'billing' | 'origin' | 'quoteToken'>) => ({
  preset: input.preset,
  requestedCapabilities: input.requestedCapabilities,
  inputAssets: input.inputAssets,
  icpConfig: input.icpConfig,
  executionOptions: input.executionOptions,
  chatId: input.chatId ?? null,
});

export async function startEnrichmentJob(input: StartJobInput): Promise<JobView> {
  const planned = planEnrichmentJob(input);
  const { plan, companies, contacts, settings } = planned;
  if (input.chatId) await requireChat(input.userId, input.chatId);
  // A quoted job is bound to its quote and reserves no more than it at creation (prices may have moved since);
  // its work reserves more as it goes when it finds more than expected.
  const quote =
    input.quoteToken === undefined
      ? undefined
      : await redeemableQuote(input.userId, input.quoteToken, JOB_QUOTE_KIND, jobQuoteRequest(input));
  // A growth run reserved for its job already: its job prices nothing.
  const expected = input.billing ? 0 : (await expectedJobCost(planned)).credits;
  const cost = quote ? Math.min(expected, quote.credits) : expected;

  let reserved = cost;
  if (input.billing) {
    const reservation = await getReservation(input.userId, input.billing.reservationId);
    if (!reservation) throw new Error(`Reservation ${input.billing.reservationId} does not exist`);
    reserved = reservation.amount;
  } else {
    // Cheap early answer for the common "not enough credits" case, before anything is written.
    const { available } = await getBalance(input.userId);
    if (available < cost) throw new InsufficientCreditsError(cost, available);
  }

  const at = now();
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
  await putBatches(records, Math.floor(at.getTime() / 1000) + BATCH_TTL_SECONDS);
  // The job's transaction may be applied before its error reaches us (a timeout): the job then exists, with its
  // reservation and its quote used, and must go on to the queue rather than be answered as an error.
  const writtenAnyway = async (err: unknown) => {
    if (err instanceof TransactionConditionError || !(await getJob(input.userId, jobId, true).catch(() => undefined)))
      throw err;
    logger.warn('job written although its write reported an error', { jobId, error: err as Error });
  };
  if (input.billing) {
    await writeTogether({ job: putJobItem(job) }).catch(writtenAnyway);
  } else {
    const withQuote = quote ? { token: consumeQuoteItem(quote, at.toISOString(), jobId) } : {};
    try {
      await reserveCredits({
        userId: input.userId,
        toolName: JOB_LEDGER_TOOL,
        refId: jobId,
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

  try {
    await sendJobMessages(
      job.batchesDone < job.batchCount
        ? records
            .filter((b) => b.stages.length > 0)
            .map((b) => ({
              kind: 'bd_job.stage',
              user_id: input.userId,
              job_id: jobId,
              batch_no: b.batchNo,
              step: 0,
              capability: b.stages[0],
            }))
        : [{ kind: 'bd_job.finalize', user_id: input.userId, job_id: jobId }],
    );
  } catch (err) {
    // A job nobody will work on must not hold credits: fail it (releasing them) before reporting the error.
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
  return jobView(job);
}

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
