/** The delivery log and manual retry, owner-only: another user's delivery id is a 404. */
import { now, ports } from '#shared/adapters/ports';
import { ConflictError, NotFoundError, UnprocessableError } from '#shared/domain/errors';
import { getDelivery, listDeliveries, recordDeliveryChange, type DeliveryStatus } from '#shared/store/webhookDeliveriesRepo';
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
 * It gets one attempt beyond those made; a pending one keeps its remaining schedule.
 */
export async function retryDelivery(userId: string, deliveryId: string) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const d = await getDelivery(userId, deliveryId);
    if (!d) throw new NotFoundError('Delivery');
    const endpoint = await getEndpoint(userId, d.endpointId, true);
    if (!endpoint) throw new UnprocessableError('invalid_state', 'The delivery\'s endpoint was deleted.');
    if (endpoint.status !== 'enabled') throw new UnprocessableError('invalid_state', 'The delivery\'s endpoint is disabled.');
    const at = now().toISOString();
    const updated = await recordDeliveryChange(userId, d.id, d.attempts, {
      status: 'pending',
      attempts: d.attempts,
      maxAttempts: Math.max(d.maxAttempts, d.attempts + 1),
      lastStatusCode: d.lastStatusCode,
      lastError: d.lastError,
      nextAttemptAt: at,
      updatedAt: at,
    });
    if (updated) {
      await ports().webhookQueue.send([deliverMessage(userId, d.id)]);
      return deliveryView(updated);
    }
  }
  throw new ConflictError('concurrent_update', 'The delivery is being attempted right now; read it again.');
}
