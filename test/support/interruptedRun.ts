import { reserveCredits } from '#shared/domain/credits/credits';
import { uuidv7 } from '#shared/ids';
import { putRunItem, type GrowthRunRecord } from '#shared/store/growthRepo';

/**
 * What the first transaction of POST /growth/run leaves behind when the process stops right after
 * it: a pending run without a job, its credits reserved. For the tests of everything that cleans up
 * after such a run (the next read, the sweep, the growth_run.failed event).
 */
export async function interruptedGrowthRun(userId: string, at: string, credits: number): Promise<GrowthRunRecord> {
  const runId = uuidv7();
  const run: GrowthRunRecord = {
    runId,
    userId,
    quoteTokenHash: `hash-of-gq_${runId}`,
    planId: uuidv7(),
    goalType: 'email_discovery',
    pipelineId: 'growth.email_discovery.v1',
    capabilities: ['contact_discovery', 'email_lookup', 'email_verify', 'deliverable_finalize'],
    requiredFields: ['email'],
    previewRows: 5,
    inputCounts: { companies: 1, contacts: 0 },
    coverageMode: 'sufficient',
    quotedCredits: credits,
    reservationId: `growth_run-${runId}`,
    chatId: null,
    jobId: null,
    status: 'pending',
    errorMessage: null,
    createdAt: at,
    updatedAt: at,
  };
  await reserveCredits({
    userId,
    toolName: 'growth_run',
    refId: runId,
    amount: credits,
    reservationId: run.reservationId,
    with: { run: putRunItem(run) },
  });
  return run;
}
