/**
 * One delivery attempt. At least once: an attempt is recorded only after the POST, so a crash in
 * between sends again (with the same `webhook-id`, the event id, so receivers de-duplicate). The
 * destination is checked against the address policy after a fresh DNS resolution every time.
 */
import { endpointSecret } from './endpointSecret';
import { now, ports } from '#shared/adapters/ports';
import { systemClock } from '#shared/adapters/clock';
import { postWebhook, type AttemptResult } from '#shared/adapters/webhookSender';
import { getEvent } from '#shared/store/webhookEventsRepo';
import {
  getDelivery,
  recordDeliveryChange,
  type DeliveryChange,
  type WebhookDeliveryRecord,
} from '#shared/store/webhookDeliveriesRepo';
import { clearFailing, disableEndpoint, getEndpoint, markFailing } from '#shared/store/webhookEndpointsRepo';
import { configuredAddressPolicy, checkDestination } from './addressPolicy';
import { deliverMessage } from './messages';
import { DELIVERY_TIMEOUT_MS, DISABLE_AFTER_MS, retryDelayAfter, shouldDisable } from './schedule';
import { signWebhook } from './signing';

const GONE = 410;
/** A message may arrive this much before its delivery is due (clock skew) and still go. */
const EARLY_TOLERANCE_MS = 1000;

export type DeliverOutcome = 'skipped' | 'waiting' | 'succeeded' | 'retrying' | 'failed';

type Sent = { result: AttemptResult; at: Date } | { gaveUp: string; at: Date };

/**
 * What an attempt leaves on the delivery. A scheduled one moves the schedule on; a manual one leaves
 * it as it was (pending while a scheduled attempt is still to come), and either one ends it on success.
 */
function changeAfter(
  d: WebhookDeliveryRecord,
  sent: Sent,
  manual: boolean,
): { change: DeliveryChange; delay: number | null } {
  const updatedAt = sent.at.toISOString();
  const base = { updatedAt, manualDone: manual };
  if ('gaveUp' in sent) {
    return {
      change: {
        ...base,
        status: 'failed',
        autoAttempts: d.autoAttempts,
        lastStatusCode: d.lastStatusCode,
        lastError: sent.gaveUp,
        nextAttemptAt: null,
        sent: false,
      },
      delay: null,
    };
  }
  const { result } = sent;
  if (result.ok) {
    return {
      change: {
        ...base,
        status: 'succeeded',
        autoAttempts: manual ? d.autoAttempts : d.autoAttempts + 1,
        lastStatusCode: result.statusCode,
        lastError: null,
        nextAttemptAt: null,
        sent: true,
      },
      delay: null,
    };
  }
  const failed = { lastStatusCode: result.statusCode, lastError: result.error, sent: true };
  // 410 Gone: the receiver says the endpoint is no more; nothing is retried (the endpoint is disabled).
  if (result.statusCode === GONE) {
    return {
      change: {
        ...base,
        ...failed,
        status: 'failed',
        autoAttempts: manual ? d.autoAttempts : d.autoAttempts + 1,
        nextAttemptAt: null,
      },
      delay: null,
    };
  }
  if (manual) {
    const scheduled = d.status === 'pending' ? d.nextAttemptAt : null;
    return {
      change: {
        ...base,
        ...failed,
        status: scheduled ? 'pending' : 'failed',
        autoAttempts: d.autoAttempts,
        nextAttemptAt: scheduled,
      },
      delay: null,
    };
  }
  const autoAttempts = d.autoAttempts + 1;
  const delay = retryDelayAfter(autoAttempts, d.maxAttempts);
  // A manual retry still outstanding keeps the delivery pending after the schedule ends.
  const status = delay !== null || d.manualRetryAt ? 'pending' : 'failed';
  return {
    change: {
      ...base,
      ...failed,
      status,
      autoAttempts,
      nextAttemptAt: delay === null ? null : new Date(sent.at.getTime() + delay).toISOString(),
    },
    delay,
  };
}

/**
 * Records what was sent, against the delivery as read before sending; if it moved meanwhile (the other
 * kind of attempt recorded first) it is read again and the outcome placed on it, unless this attempt's
 * own turn was taken (another copy of the message recorded it): then nothing is counted twice.
 */
async function record(userId: string, read: WebhookDeliveryRecord, sent: Sent, manual: boolean) {
  let d: WebhookDeliveryRecord | undefined = read;
  for (let attempt = 0; attempt < 5 && d; attempt++) {
    const { change, delay } = changeAfter(d, sent, manual);
    const recorded = await recordDeliveryChange(
      userId,
      d.id,
      { endpointId: d.endpointId, autoAttempts: d.autoAttempts, manualRetryAt: d.manualRetryAt },
      change,
    );
    if (recorded) return { recorded, delay };
    const again: WebhookDeliveryRecord | undefined = await getDelivery(userId, d.id);
    const ownTurn =
      again && (manual ? again.manualRetryAt === read.manualRetryAt : again.autoAttempts === read.autoAttempts);
    d = ownTurn ? again : undefined;
  }
  return undefined;
}

export async function deliverOnce(userId: string, deliveryId: string, manual = false): Promise<DeliverOutcome> {
  const d = await getDelivery(userId, deliveryId);
  if (!d) return 'skipped';
  if (manual ? !d.manualRetryAt : d.status !== 'pending' || !d.nextAttemptAt) return 'skipped';
  const dueIn = manual || !d.nextAttemptAt ? 0 : Date.parse(d.nextAttemptAt) - now().getTime();
  if (dueIn > EARLY_TOLERANCE_MS) {
    // A wait longer than the queue's maximum delay arrives early: wait again for the rest.
    await ports().webhookQueue.send([deliverMessage(userId, deliveryId, dueIn)]);
    return 'waiting';
  }
  const giveUp = async (reason: string) => {
    await record(userId, d, { gaveUp: reason, at: now() }, manual);
    return 'failed' as const;
  };
  const endpoint = await getEndpoint(userId, d.endpointId, true);
  if (!endpoint) return giveUp('endpoint deleted');
  if (endpoint.status !== 'enabled') return giveUp('endpoint disabled');
  const event = await getEvent(userId, d.eventId);
  if (!event || event.data === null) return giveUp('event expired');

  // The signature's timestamp is the wall-clock instant of the request (receivers reject stale ones
  // against their own clock), whatever instant the service's clock port stands at.
  const body = JSON.stringify({ id: event.id, type: event.type, created_at: event.createdAt, data: event.data });
  const verdict = await checkDestination(endpoint.url, configuredAddressPolicy(), ports().hostResolver);
  const result: AttemptResult = verdict.ok
    ? await postWebhook({
        url: endpoint.url,
        addresses: verdict.addresses,
        headers: { ...signWebhook(await endpointSecret(endpoint), event.id, systemClock.now(), body) },
        body,
        timeoutMs: DELIVERY_TIMEOUT_MS,
      })
    : { ok: false, statusCode: null, error: `destination refused: ${verdict.reason}`, durationMs: 0 };

  const at = now();
  const done = await record(userId, d, { result, at }, manual);
  if (!done) return 'skipped'; // another copy of this message recorded its attempt first
  if (result.ok) {
    if (endpoint.failingSince) await clearFailing(userId, endpoint.id, at.toISOString());
    return 'succeeded';
  }
  if (done.delay !== null)
    await ports()
      .webhookQueue.send([deliverMessage(userId, d.id, done.delay)])
      .catch(() => undefined);
  const failing = await markFailing(userId, endpoint.id, at.toISOString());
  if (result.statusCode === GONE) {
    await disableEndpoint(userId, endpoint.id, 'The endpoint answered 410 Gone', at.toISOString());
    return 'failed';
  }
  if (failing && shouldDisable(failing.failingSince, at)) {
    await disableEndpoint(
      userId,
      endpoint.id,
      `Every delivery failed for ${DISABLE_AFTER_MS / 86_400_000} days (since ${failing.failingSince})`,
      at.toISOString(),
    );
  }
  return done.recorded.status === 'pending' ? 'retrying' : 'failed';
}
