import { now } from '#shared/adapters/ports';
import { settleReservation } from '#shared/domain/credits/credits';
import { announce, webhookEvent } from '#shared/domain/webhooks/outbox';
import { isConditionFailure } from '#shared/store/client';
import { failRunBeforeStartItem, type GrowthRunRecord } from '#shared/store/growthRepo';
import { writeTogether } from '#shared/store/transactions';

/**
 * A run whose job never started (the pipeline refused it, or its start was interrupted): the whole
 * reservation goes back, the run says why, and `growth_run.failed` is in the outbox, all in one
 * transaction, as a job's closing does. Returns false when the run was no longer pending (another
 * caller failed it, or it got its job): then nothing is written twice and no second event goes out.
 * When the reservation was settled already, by the run's own job closing, the run fails without an
 * event: the job's closing reported the run.
 */
export async function failRunBeforeStart(
  run: Pick<GrowthRunRecord, 'userId' | 'runId' | 'reservationId'>,
  message: string,
): Promise<boolean> {
  const at = now().toISOString();
  const event = webhookEvent(run.userId, 'growth_run.failed', { kind: 'growth_run', id: run.runId }, at);
  const writes = { run: failRunBeforeStartItem(run.userId, run.runId, message, at), events: [event.item] };
  try {
    const settled = await settleReservation({
      userId: run.userId,
      reservationId: run.reservationId,
      chargedAmount: 0,
      with: writes,
    });
    if (settled.alreadyApplied) {
      // The run's job settled the reservation: it was created, then closed (its messages could not be
      // queued), and its closing reported growth_run.failed already. The run still fails, with no second event.
      await writeTogether({ run: writes.run });
      return true;
    }
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
  await announce([event]);
  return true;
}
