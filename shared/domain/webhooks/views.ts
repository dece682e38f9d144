import type { WebhookEventType } from './eventTypes';
import type { WebhookEndpointRecord } from '#shared/store/webhookEndpointsRepo';
import type { WebhookDeliveryRecord } from '#shared/store/webhookDeliveriesRepo';

export const endpointView = (e: WebhookEndpointRecord) => ({
  id: e.id,
  url: e.url,
  // Written only from the validated list of event types.
  event_types: e.eventTypes as WebhookEventType[],
  description: e.description,
  status: e.status,
  disabled_reason: e.disabledReason,
  created_at: e.createdAt,
});

/** On creation and rotation only: the secret in the clear, as just made (the record keeps it sealed). */
export const endpointWithSecret = (e: WebhookEndpointRecord, secret: string) => ({ ...endpointView(e), secret });

export const deliveryView = (d: WebhookDeliveryRecord) => ({
  id: d.id,
  event_id: d.eventId,
  event_type: d.eventType as WebhookEventType,
  endpoint_id: d.endpointId,
  status: d.status,
  attempts: d.attempts,
  last_status_code: d.lastStatusCode,
  last_error: d.lastError,
  // A manual retry asked for goes before the schedule.
  next_attempt_at: d.manualRetryAt ?? d.nextAttemptAt,
  created_at: d.createdAt,
});

export interface Page {
  limit: number;
  offset: number;
  sort_order: 'asc' | 'desc';
}

/** Lists arrive newest first; `asc` reverses them. */
export function pageOf<T, V>(newestFirst: T[], q: Page, view: (t: T) => V) {
  const ordered = q.sort_order === 'asc' ? [...newestFirst].reverse() : newestFirst;
  return {
    items: ordered.slice(q.offset, q.offset + q.limit).map(view),
    total: ordered.length,
    limit: q.limit,
    offset: q.offset,
  };
}
