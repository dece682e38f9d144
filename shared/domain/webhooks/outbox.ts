/**
 * Emitting a webhook event: the caller puts `item` into the transaction of the state change the event
 * reports, so the event exists if and only if the change committed; after the commit, `announce`
 * asks the webhook queue to fan it out at once. If that message is lost (the process dies, the queue
 * refuses), the event is still in the outbox index and the scheduled sweep dispatches it. An event
 * with a `busDetail` is also published on the operator's event bus by that dispatch, so the bus hears
 * of every committed change at least once, and the functions that make the change carry no bus client.
 */
import { ports } from '#shared/adapters/ports';
import { uuidv7 } from '#shared/ids';
import type { WebhookEventType } from './eventTypes';
import type { TransactItem } from '#shared/store/transactions';
import { outboxEventItem } from '#shared/store/webhookEventsRepo';
import { dispatchMessage } from './messages';

export type SubjectKind = 'job' | 'growth_run' | 'community' | 'credits';

export interface OutboxEvent {
  userId: string;
  eventId: string;
  item: TransactItem;
}

export interface EventExtras {
  /** Data for an event that is not about a stored object (credits.low). */
  extra?: Record<string, unknown>;
  /** The detail to publish on the event bus (without it, the event is for webhooks only). */
  busDetail?: Record<string, unknown>;
}

export function webhookEvent(
  userId: string,
  type: WebhookEventType,
  subject: { kind: SubjectKind; id: string },
  at: string,
  extras: EventExtras = {},
): OutboxEvent {
  const eventId = uuidv7();
  return {
    userId,
    eventId,
    item: outboxEventItem({ id: eventId, userId, type, subject, createdAt: at, ...extras }),
  };
}

/** After the commit only; never throws (the outbox sweep is the guarantee, this is the fast path). */
export async function announce(events: OutboxEvent[]): Promise<void> {
  if (events.length === 0) return;
  try {
    await ports().webhookQueue.send(events.map((e) => dispatchMessage(e.userId, e.eventId)));
  } catch (err) {
    console.error(
      JSON.stringify({
        level: 'warn',
        message: 'webhook dispatch not queued; the outbox sweep will send it',
        error: (err as Error).message,
      }),
    );
  }
}
