/** The delivery log and manual retry, owner-only: another user's delivery id is a 404. */
import { now, ports } from '#shared/adapters/ports';
import { NotFoundError, UnprocessableError, ValidationError } from '#shared/domain/errors';
import {
  getDelivery,
  pageDeliveries,
  requestManualRetry,
  type DeliveryStatus,
} from '#shared/store/webhookDeliveriesRepo';
import * as z from '#shared/zod';
import { parseJsonAs } from '#shared/json';
import { getEndpoint } from '#shared/store/webhookEndpointsRepo';
import { deliverMessage } from './messages';
import { deliveryView } from './views';

export interface DeliveryListQuery {
  limit: number;
  sort_order: 'asc' | 'desc';
  cursor?: string;
  endpoint_id?: string;
  status?: DeliveryStatus;
}

/** A cursor is opaque to callers: the last delivery of a page, encoded. */
const encodeCursor = (deliveryId: string) => Buffer.from(JSON.stringify({ after: deliveryId })).toString('base64url');

function decodeCursor(cursor: string): string {
  const after = parseJsonAs(cursorBody, Buffer.from(cursor, 'base64url').toString('utf8'))?.after;
  if (after === undefined)
    throw new ValidationError('The cursor is not one this list returned.', [
      { path: 'query.cursor', message: 'Unknown cursor' },
    ]);
  return after;
}
const cursorBody = z.object({ after: z.uuid() });

/** One page of the log, newest first unless asked otherwise; `next_cursor` reads the next one (null: the last page). */
export async function listDeliveryPage(userId: string, q: DeliveryListQuery) {
  // A filter naming another user's endpoint simply matches nothing of the caller's (its partitions are the caller's).
  const page = await pageDeliveries(userId, {
    endpointId: q.endpoint_id,
    status: q.status,
    limit: q.limit,
    order: q.sort_order,
    after: q.cursor === undefined ? undefined : decodeCursor(q.cursor),
  });
  const last = page.items.at(-1);
  return {
    items: page.items.map(deliveryView),
    limit: q.limit,
    next_cursor: page.more && last ? encodeCursor(last.id) : null,
  };
}

/**
 * Sends a delivery again now, whatever its state (a replay of a succeeded one keeps its webhook-id).
 * The manual attempt is counted apart from the schedule: scheduled attempts still due keep their
 * places. Parallel requests ask for one retry, sent once; each answers the delivery with it queued.
 */
export async function retryDelivery(userId: string, deliveryId: string) {
  const d = await getDelivery(userId, deliveryId);
  if (!d) throw new NotFoundError('Delivery');
  const endpoint = await getEndpoint(userId, d.endpointId, true);
  if (!endpoint) throw new UnprocessableError('invalid_state', "The delivery's endpoint was deleted.");
  if (endpoint.status !== 'enabled')
    throw new UnprocessableError('invalid_state', "The delivery's endpoint is disabled.");
  const requested = d.manualRetryAt
    ? undefined
    : await requestManualRetry(userId, d.id, d.endpointId, now().toISOString());
  if (requested) {
    // A lost message leaves the retry in the due index: the sweep sends it.
    await ports()
      .webhookQueue.send([deliverMessage(userId, d.id, 0, true)])
      .catch(() => undefined);
    return deliveryView(requested);
  }
  // A retry was outstanding already: this request rides on it.
  const current = await getDelivery(userId, deliveryId);
  if (!current) throw new NotFoundError('Delivery');
  return deliveryView(current);
}
