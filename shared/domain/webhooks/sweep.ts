/**
 * The outbox's guarantee, run by the scheduled sweep: every event still in the outbox a little while
 * after it was written is dispatched, and every pending delivery overdue by as long is queued again.
 * The grace keeps the sweep from racing the after-commit fast path.
 */
import { now, ports } from '#shared/adapters/ports';
import { listUndispatched } from '#shared/store/webhookEventsRepo';
import { listDueDeliveries } from '#shared/store/webhookDeliveriesRepo';
import { dispatchEvent } from './dispatch';
import { deliverMessage } from './messages';
import { logger } from '#shared/observability/logger';

export const SWEEP_GRACE_MS = 60_000;

export interface WebhookSweepReport {
  events_dispatched: number;
  /** Events whose dispatch failed (the event bus refused, say): still in the outbox for the next sweep. */
  events_failed: number;
  deliveries_requeued: number;
}

export async function sweepWebhooks(at: Date = now(), graceMs = SWEEP_GRACE_MS): Promise<WebhookSweepReport> {
  const upTo = new Date(at.getTime() - graceMs).toISOString();
  const events = await listUndispatched(upTo);
  let failed = 0;
  // One event that cannot leave (its bus publish refused) must not hold up the others, nor the deliveries.
  for (const e of events)
    await dispatchEvent(e.userId, e.eventId).catch((err: unknown) => {
      failed += 1;
      logger.warn('outbox event not dispatched; the next sweep tries again', {
        eventId: e.eventId,
        error: err as Error,
      });
    });
  const due = await listDueDeliveries(upTo);
  const messages = due.flatMap((d) => [
    ...(d.manual ? [deliverMessage(d.userId, d.deliveryId, 0, true)] : []),
    ...(d.scheduled ? [deliverMessage(d.userId, d.deliveryId)] : []),
  ]);
  if (messages.length) await ports().webhookQueue.send(messages);
  return { events_dispatched: events.length - failed, events_failed: failed, deliveries_requeued: due.length };
}
