/**
 * Ending a job: the terminal state and the money move in one transaction. The reservation (the
 * job's own, or the caller's when growth reserved) is settled with the credits the job consumed,
 * capped at what was reserved; the rest is released. A completed job passes the units its
 * deliverable shows, and is charged for no more than those: work on rows merged away as
 * duplicates or left out is not charged. If the reservation was already settled
 * elsewhere, the job still closes, charging nothing more.
 */
import { now } from '#shared/adapters/ports';
import { settleReservation } from '#shared/domain/credits/credits';
import { closeJobItem, type JobClosure, type JobRecord } from '#shared/store/jobsRepo';
import { writeTogether, type TransactItems } from '#shared/store/transactions';
import { isConditionFailure } from '#shared/store/client';
import { creditsFor, type UnitCounts } from './pricing';
import { chargeableUnits } from './deliveredUnits';
import { recordMetric, type BusinessMetric } from '#shared/observability/metrics';
import { announce, webhookEvent, type OutboxEvent } from '#shared/domain/webhooks/outbox';

const GROWTH_ORIGIN = 'growth_run:';
/** Growth runs report completion and failure; a cancelled run was cancelled by its owner's own call. */
const GROWTH_RUN_EVENTS: Partial<Record<JobClosure['status'], 'growth_run.completed' | 'growth_run.failed'>> = {
  completed: 'growth_run.completed',
  failed: 'growth_run.failed',
};

/**
 * The webhook events a job's closing reports: its own (also published on the event bus), and its
 * growth run's when growth started it.
 */
function closingEvents(job: JobRecord, status: JobClosure['status'], at: string, charged: number): OutboxEvent[] {
  const busDetail = { job_id: job.id, user_id: job.userId, origin: job.origin, credits_charged: charged };
  const events = [webhookEvent(job.userId, `job.${status}`, { kind: 'job', id: job.id }, at, { busDetail })];
  const runEvent = GROWTH_RUN_EVENTS[status];
  if (runEvent && job.origin?.startsWith(GROWTH_ORIGIN))
    events.push(
      webhookEvent(job.userId, runEvent, { kind: 'growth_run', id: job.origin.slice(GROWTH_ORIGIN.length) }, at),
    );
  return events;
}

const outbox = (events: OutboxEvent[]) => events.map((e) => e.item);

export type CloseOutcome = 'closed' | 'changed';

const CLOSURE_METRICS = new Map<string, Extract<BusinessMetric, 'JobsCompleted' | 'JobsFailed'>>([
  ['completed', 'JobsCompleted'],
  ['failed', 'JobsFailed'],
]);

export async function closeJob(
  job: JobRecord,
  outcome: Pick<JobClosure, 'status' | 'errorMessage'> &
    Partial<Pick<JobClosure, 'rowsDelivered' | 'duplicatesRemoved' | 'resultStored' | 'rowsBySource' | 'warnings'>>,
  alsoWrite: TransactItems = {},
  delivered?: UnitCounts,
): Promise<CloseOutcome> {
  const at = now().toISOString();
  const charged = Math.min(
    creditsFor(delivered ? chargeableUnits(job.units, delivered) : job.units),
    job.creditsReserved,
  );
  const closure = (creditsCharged: number): JobClosure => ({
    rowsDelivered: null,
    duplicatesRemoved: null,
    resultStored: false,
    ...outcome,
    creditsCharged,
    at,
  });
  // The outbox items ride in the closing transaction: the events exist exactly when the job closed.
  let events = closingEvents(job, outcome.status, at, charged);
  try {
    const settled = await settleReservation({
      userId: job.userId,
      reservationId: job.reservationId,
      chargedAmount: charged,
      with: {
        ...alsoWrite,
        job: closeJobItem(job.userId, job.id, job.version, closure(charged)),
        events: outbox(events),
      },
    });
    if (settled.alreadyApplied) {
      // Settled elsewhere: this closing charges nothing, and its events say so.
      events = closingEvents(job, outcome.status, at, 0);
      await writeTogether({
        ...alsoWrite,
        job: closeJobItem(job.userId, job.id, job.version, closure(0)),
        events: outbox(events),
      });
    }
  } catch (err) {
    // The job moved on (its version or state) since it was read, or a concurrent closer won.
    if (isConditionFailure(err)) return 'changed';
    throw err;
  }
  await announce(events);
  const metric = CLOSURE_METRICS.get(outcome.status);
  if (metric) recordMetric(metric, 1, {});
  return 'closed';
}
