/**
 * POST /growth/run: one transaction consumes the quote token, creates the run and reserves the
 * quoted credits (so a token is never used without a run, nor credits held without one); then the
 * run starts on the enrichment pipeline, which settles that reservation with what it consumed.
 */
import { ConflictError, GoneError } from '#shared/domain/errors';
import { now } from '#shared/adapters/ports';
import { uuidv7 } from '#shared/ids';
import { failRunBeforeStart } from './failBeforeStart';
import { attachJob, putRunItem, type GrowthRunRecord } from '#shared/store/growthRepo';
import { consumeQuoteItem, getQuote, restoreQuote, type QuoteRecord } from '#shared/store/quotesRepo';
import { quoteRefusal, redeemableQuote } from '#shared/domain/quotes/quoteTokens';
import { TransactionConditionError } from '#shared/store/transactions';
import { reserveCredits } from '#shared/domain/credits/credits';
import { requireChat } from '#shared/domain/storage/chats';
import { pageJobs } from '#shared/domain/jobs/jobOperations';
import { startEnrichmentJob } from '#shared/domain/jobs/startJob';
import { logger } from '#shared/observability/logger';
import { goalPlanSchema, normalizeGoalPlan, type GoalPlan } from './plan';
import { quotedPlan } from './signature';

export const GROWTH_LEDGER_TOOL = 'growth_run';
export const runOrigin = (runId: string) => `growth_run:${runId}`;

/** The token must be the caller's, unused and unexpired; the plan must be the one it was quoted for. */
async function usableQuote(
  userId: string,
  quoteToken: string,
  rawPlan: unknown,
): Promise<{ quote: QuoteRecord; plan: GoalPlan }> {
  const parsed = goalPlanSchema.safeParse(rawPlan);
  const plan = parsed.success ? normalizeGoalPlan(parsed.data) : undefined;
  const quote = await redeemableQuote(userId, quoteToken, 'growth', quotedPlan(userId, plan));
  // Matched, so the plan parsed (no plan matches no quote).
  if (!plan) throw new Error('A growth quote matched a goal_plan that does not parse');
  // The chat the quote named must still be there (404 before anything is spent, not after).
  if (quote.chatId) await requireChat(userId, quote.chatId);
  return { quote, plan };
}

function newRun(userId: string, runId: string, quote: QuoteRecord, plan: GoalPlan, at: string): GrowthRunRecord {
  return {
    runId,
    userId,
    quoteTokenHash: quote.tokenHash,
    planId: plan.plan_id,
    goalType: plan.goal_type,
    pipelineId: plan.pipeline_id,
    capabilities: plan.capabilities,
    requiredFields: plan.output.required_fields,
    previewRows: plan.output.preview_rows,
    inputCounts: { companies: plan.input_assets.companies.length, contacts: plan.input_assets.contacts.length },
    coverageMode: plan.coverage_mode,
    quotedCredits: quote.credits,
    reservationId: `${GROWTH_LEDGER_TOOL}-${runId}`,
    chatId: quote.chatId,
    jobId: null,
    status: 'pending',
    errorMessage: null,
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * The token's state is decided before the balance: a request that lost the race for the token may
 * also find the balance spent by the winner (402 from the balance check, or a failed transaction),
 * so any failure here is first attributed to the token when the token is no longer usable.
 */
async function reserveAndConsume(userId: string, run: GrowthRunRecord, quote: QuoteRecord): Promise<void> {
  let moved: Awaited<ReturnType<typeof reserveCredits>>;
  try {
    moved = await reserveCredits({
      userId,
      toolName: GROWTH_LEDGER_TOOL,
      refId: run.runId,
      amount: run.quotedCredits,
      reservationId: run.reservationId,
      with: { token: consumeQuoteItem(quote, run.createdAt, run.runId), run: putRunItem(run) },
    });
  } catch (err) {
    const fresh = await getQuote(run.quoteTokenHash);
    // Our own write may have landed before the error reached us: then the token is ours, not a reuse.
    if (fresh?.resultId !== run.runId) {
      const refusal = quoteRefusal(fresh, userId, 'growth');
      if (refusal) throw refusal;
    }
    if (err instanceof TransactionConditionError && err.failed.has('token')) {
      // The token's condition failed but a fresh read shows it usable: another run held it at that moment and
      // gave it back since (the pipeline refused that run), or it expired on the write's clock.
      if (fresh && Date.parse(fresh.expiresAt) > now().getTime())
        throw new ConflictError(
          'quote_token_used',
          'This quote token was in use by another request at the same moment; that request did not go through, so the token may be sent again.',
        );
      throw new GoneError('quote_expired', 'This quote expired; quote the plan again.');
    }
    throw err;
  }
  if (moved.alreadyApplied)
    throw new ConflictError('quote_token_used', 'This quote token has already been used; quote the plan again.');
}

/** The id of the run's job when one was written and has not ended. */
async function liveJobOf(userId: string, runId: string): Promise<string | undefined> {
  const { items } = await pageJobs(userId, { limit: 1, offset: 0, sort_order: 'asc', origin: runOrigin(runId) });
  const job = items[0];
  return job && (job.status === 'pending' || job.status === 'running') ? job.job_id : undefined;
}

export async function startGrowthRun(
  userId: string,
  request: { quote_token: string; goal_plan: unknown },
): Promise<{ run_id: string; status: 'pending' }> {
  const { quote, plan } = await usableQuote(userId, request.quote_token, request.goal_plan);
  const at = now();
  const run = newRun(userId, uuidv7(at.getTime()), quote, plan, at.toISOString());
  await reserveAndConsume(userId, run, quote);
  let job: Awaited<ReturnType<typeof startEnrichmentJob>>;
  try {
    job = await startEnrichmentJob({
      userId,
      ...(plan.preset === 'custom'
        ? { requestedCapabilities: plan.capabilities.filter((c) => c !== 'deliverable_finalize') }
        : { preset: plan.preset }),
      inputAssets: plan.input_assets,
      icpConfig: plan.icp_config ?? undefined,
      executionOptions: plan.execution_options,
      chatId: quote.chatId,
      billing: { reservationId: run.reservationId },
      origin: runOrigin(run.runId),
    });
  } catch (err) {
    // The job's write may have landed before its error reached us: that job runs and settles the run's
    // reservation, so the run follows it (failing the run would release the credits of work that goes on).
    const written = await liveJobOf(userId, run.runId).catch(() => undefined);
    if (written) {
      await attachJob(userId, run.runId, written, now().toISOString()).catch((attachErr: unknown) =>
        logger.warn('growth run not attached to its job yet', { runId: run.runId, error: attachErr as Error }),
      );
      return { run_id: run.runId, status: 'pending' };
    }
    // Nothing ran: give the credits back and say so on the run, then report the error. The quote goes
    // back too (only when this call failed the run): the caller is told to try again with the same token.
    const failedHere = await failRunBeforeStart(
      run,
      'The run could not be started on the enrichment pipeline; nothing was charged.',
    );
    if (failedHere) {
      await restoreQuote(run.quoteTokenHash, run.runId).catch((restoreErr: unknown) =>
        logger.warn('quote of a run never started not given back', { runId: run.runId, error: restoreErr as Error }),
      );
    }
    throw err;
  }
  try {
    await attachJob(userId, run.runId, job.job_id, now().toISOString());
  } catch (err) {
    // The job runs and settles the run's reservation when it ends: failing the run here would release
    // the credits of work that goes on. The run stays pending; its next read (or the sweep) finds the
    // job by its origin and attaches it, as after an interrupted start.
    logger.warn('growth run not attached to its job yet', { runId: run.runId, jobId: job.job_id, error: err as Error });
  }
  return { run_id: run.runId, status: 'pending' };
}
