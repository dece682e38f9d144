/**
 * Fan-out: one outbox event becomes one delivery per enabled endpoint of its owner subscribed to its
 * type. Every step may run twice (a redelivered message, the sweep): the body is fixed by the first
 * writer, delivery ids are derived from (event, endpoint) so a repeat creates nothing new, and the
 * event leaves the outbox only once its deliveries exist and, for a bus event, the bus took it. A bus
 * event is therefore published at least once; its detail names the event (`event_id`) so a consumer
 * can drop a repeat.
 */
import { createHash } from 'node:crypto';
import { now, ports } from '#shared/adapters/ports';
import { getEvent, markDispatched, storeEventData, type WebhookEventRecord } from '#shared/store/webhookEventsRepo';
import { putDelivery, type WebhookDeliveryRecord } from '#shared/store/webhookDeliveriesRepo';
import { listEndpoints } from '#shared/store/webhookEndpointsRepo';
import { deliverMessage } from './messages';
import { renderEventData } from './render';
import { MAX_ATTEMPTS } from './schedule';

/**
 * The same (event, endpoint) always gives the same id. UUID v7 layout: the event id's 48-bit time
 * first, so the delivery log lists by key in event order; the rest from a hash of the pair.
 */
export function deliveryIdFor(eventId: string, endpointId: string): string {
  const hash = createHash('sha256').update(`${eventId}/${endpointId}`).digest('hex');
  const time = eventId.replace(/-/g, '').slice(0, 12);
  const variant = ((parseInt(hash[3], 16) & 0x3) | 0x8).toString(16);
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${hash.slice(0, 3)}-${variant}${hash.slice(4, 7)}-${hash.slice(7, 19)}`;
}

/** The event's bus publication (when it has one), then its leaving the outbox: a failed publish keeps it there. */
async function finishDispatch(event: WebhookEventRecord, at: string): Promise<void> {
  if (event.busDetail)
    await ports().events.publish([{ type: event.type, detail: { ...event.busDetail, event_id: event.id } }]);
  await markDispatched(event.userId, event.id, at);
}

export async function dispatchEvent(userId: string, eventId: string): Promise<{ deliveries: number }> {
  const event = await getEvent(userId, eventId);
  if (!event || event.dispatchedAt) return { deliveries: 0 };
  const endpoints = (await listEndpoints(userId)).filter(
    (e) => e.status === 'enabled' && e.eventTypes.includes(event.type),
  );
  // Most accounts have no endpoint for most events: nothing to render or send.
  if (endpoints.length > 0 && event.data === null) {
    const rendered = await renderEventData(event);
    if (rendered !== undefined) await storeEventData(userId, eventId, rendered);
  }
  const data = endpoints.length > 0 ? (await getEvent(userId, eventId))?.data : null;
  const at = now().toISOString();
  if (data === null || data === undefined) {
    await finishDispatch(event, at);
    return { deliveries: 0 };
  }
  const created: WebhookDeliveryRecord[] = [];
  for (const endpoint of endpoints) {
    const delivery: WebhookDeliveryRecord = {
      id: deliveryIdFor(event.id, endpoint.id),
      userId,
      eventId: event.id,
      eventType: event.type,
      endpointId: endpoint.id,
      status: 'pending',
      attempts: 0,
      autoAttempts: 0,
      maxAttempts: MAX_ATTEMPTS,
      lastStatusCode: null,
      lastError: null,
      nextAttemptAt: at,
      manualRetryAt: null,
      createdAt: at,
      updatedAt: at,
    };
    if (await putDelivery(delivery)) created.push(delivery);
  }
  // A lost send leaves the deliveries pending and due: the sweep queues them.
  if (created.length)
    await ports()
      .webhookQueue.send(created.map((d) => deliverMessage(userId, d.id)))
      .catch(() => undefined);
  await finishDispatch(event, at);
  return { deliveries: created.length };
}
