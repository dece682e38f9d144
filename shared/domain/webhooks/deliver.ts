/**
 * One delivery attempt. At least once: an attempt is recorded only after the POST, so a crash in
 * between sends again (with the same `webhook-id`, the event id, so receivers de-duplicate). The
 * destination is checked against the address policy after a fresh DNS resolution every time.
 */
import { now, ports } from '#shared/adapters/ports';
import { systemClock } from '#shared/adapters/clock';
import { postWebhook, type AttemptResult } from '#shared/adapters/webhookSender';
import { getEvent } from '#shared/store/webhookEventsRepo';
import { getDelivery, recordDeliveryChange, type WebhookDeliveryRecord } from '#shared/store/webhookDeliveriesRepo';
import { clearFailing, disableEndpoint, getEndpoint, markFailing } from '#shared/store/webhookEndpointsRepo';
import { addressPolicyFromEnv, checkDestination } from './addressPolicy';
import { deliverMessage } from './messages';
import { DELIVERY_TIMEOUT_MS, DISABLE_AFTER_MS, retryDelayAfter, shouldDisable } from './schedule';
import { signWebhook } from './signing';

/** A message may arrive this much before its delivery is due (clock skew) and still go. */
const EARLY_TOLERANCE_MS = 1000;

const giveUp = (d: WebhookDeliveryRecord, reason: string) =>
  recordDeliveryChange(d.userId, d.id, d.attempts, { status: 'failed', attempts: d.attempts, lastStatusCode: d.lastStatusCode, lastError: reason, nextAttemptAt: null, updatedAt: now().toISOString() });

export type DeliverOutcome = 'skipped' | 'waiting' | 'succeeded' | 'retrying' | 'failed';

export async function deliverOnce(userId: string, deliveryId: string): Promise<DeliverOutcome> {
  const d = await getDelivery(userId, deliveryId);
  if (!d || d.status !== 'pending') return 'skipped';
  const dueIn = d.nextAttemptAt ? Date.parse(d.nextAttemptAt) - now().getTime() : 0;
  if (dueIn > EARLY_TOLERANCE_MS) {
    // A wait longer than the queue's maximum delay arrives early: wait again for the rest.
    await ports().webhookQueue.send([deliverMessage(userId, deliveryId, dueIn)]);
    return 'waiting';
  }
  const endpoint = await getEndpoint(userId, d.endpointId, true);
  if (!endpoint) return (await giveUp(d, 'endpoint deleted'), 'failed');
  if (endpoint.status !== 'enabled') return (await giveUp(d, 'endpoint disabled'), 'failed');
  const event = await getEvent(userId, d.eventId);
  if (!event || event.data === null) return (await giveUp(d, 'event expired'), 'failed');

  // The signature's timestamp is the wall-clock instant of the request (receivers reject stale ones
  // against their own clock), whatever instant the service's clock port stands at.
  const body = JSON.stringify({ id: event.id, type: event.type, created_at: event.createdAt, data: event.data });
  const verdict = await checkDestination(endpoint.url, addressPolicyFromEnv(), ports().hostResolver);
  const result: AttemptResult = verdict.ok
    ? await postWebhook({ url: endpoint.url, addresses: verdict.addresses, headers: { ...signWebhook(endpoint.secret, event.id, systemClock.now(), body) }, body, timeoutMs: DELIVERY_TIMEOUT_MS })
    : { ok: false, statusCode: null, error: `destination refused: ${verdict.reason}`, durationMs: 0 };

  const at = now();
  const attempts = d.attempts + 1;
  if (result.ok) {
    const recorded = await recordDeliveryChange(userId, d.id, d.attempts, { status: 'succeeded', attempts, lastStatusCode: result.statusCode, lastError: null, nextAttemptAt: null, updatedAt: at.toISOString() });
    if (recorded && endpoint.failingSince) await clearFailing(userId, endpoint.id, at.toISOString());
    return 'succeeded';
  }
  const delay = retryDelayAfter(attempts, d.maxAttempts);
  const nextAttemptAt = delay === null ? null : new Date(at.getTime() + delay).toISOString();
  const recorded = await recordDeliveryChange(userId, d.id, d.attempts, {
    status: delay === null ? 'failed' : 'pending',
    attempts,
    lastStatusCode: result.statusCode,
    lastError: result.error,
    nextAttemptAt,
    updatedAt: at.toISOString(),
  });
  if (!recorded) return 'skipped'; // another copy of this message recorded its attempt first
  if (delay !== null) await ports().webhookQueue.send([deliverMessage(userId, d.id, delay)]).catch(() => undefined);
  const failing = await markFailing(userId, endpoint.id, at.toISOString());
  if (failing && shouldDisable(failing.failingSince, at)) {
    await disableEndpoint(userId, endpoint.id, `Every delivery failed for ${DISABLE_AFTER_MS / 86_400_000} days (since ${failing.failingSince})`, at.toISOString());
  }
  return delay === null ? 'failed' : 'retrying';
}
