/** The delivery log and manual retry, owner-only: another user's delivery id is a 404. */
import { now, ports } from '#shared/adapters/ports';
import { NotFoundError, UnprocessableError } from '#shared/domain/errors';
import { getDelivery, listDeliveries, requestManualRetry, type DeliveryStatus } from '#shared/store/webhookDeliveriesRepo';
import { getEndpoint } from '#shared/store/webhookEndpointsRepo';
import { deliverMessage } from './messages';
import { deliveryView, pageOf, type Page } from './views';

export async function pageDeliveries(userId: string, q: Page & { endpoint_id?: string; status?: DeliveryStatus }) {
  // A filter naming another user's endpoint simply matches nothing of the caller's.
  const all = (await listDeliveries(userId)).filter((d) => (q.endpoint_id === undefined || d.endpointId === q.endpoint_id) && (q.status === undefined || d.status === q.status));
  return pageOf(all, q, deliveryView);
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
  if (!endpoint) throw new UnprocessableError('invalid_state', 'The delivery\'s endpoint was deleted.');
  if (endpoint.status !== 'enabled') throw new UnprocessableError('invalid_state', 'The delivery\'s endpoint is disabled.');
  const requested = d.manualRetryAt ? undefined : await requestManualRetry(userId, d.id, now().toISOString());
  if (requested) {
    // A lost message leaves the retry in the due index: the sweep sends it.
    await ports().webhookQueue.send([deliverMessage(userId, d.id, 0, true)]).catch(() => undefined);
    return deliveryView(requested);
  }
  // A retry was outstanding already: this request rides on it.
  const current = await getDelivery(userId, deliveryId);
  if (!current) throw new NotFoundError('Delivery');
  return deliveryView(current);
}
