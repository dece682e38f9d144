import { requireStripeSecret } from '#shared/adapters/secrets';
import { ValidationError } from '#shared/domain/errors';
import { now, ports } from '#shared/adapters/ports';
import { stripeSignatures } from '#shared/adapters/stripeSignatures';
import { paymentEventGuard } from '#shared/store/checkoutRepo';
import { getUser, updateUserItem } from '#shared/store/usersRepo';
import { TransactionConditionError, writeTogether, type TransactItems } from '#shared/store/transactions';
import { grantCredits } from '#shared/domain/credits/credits';
import { type Effect, effectOf, type PaymentEvent } from './paymentEffects';
import { logger } from '#shared/observability/logger';
import { recordMetric } from '#shared/observability/metrics';

const SIGNATURE_TOLERANCE_SECONDS = 300;

/** The `t=` of a Stripe-Signature header, in seconds. */
function signedAt(signature: string): number | undefined {
  const part = signature.split(',').find((p) => p.trim().startsWith('t='));
  const value = part ? Number(part.trim().slice(2)) : NaN;
  return Number.isSafeInteger(value) ? value : undefined;
}

export async function verifyPaymentEvent(rawBody: string, signature: string | undefined): Promise<PaymentEvent> {
  if (!signature)
    throw new ValidationError('Missing Stripe-Signature header.', [
      { path: 'headers.stripe-signature', message: 'Required' },
    ]);
  const nowMs = now().getTime();
  const secret = await requireStripeSecret('STRIPE_WEBHOOK_SECRET');
  const invalid = () => {
    recordMetric('PaymentEventsRejected', 1, { reason: 'signature' });
    return new ValidationError('The webhook signature is invalid, too old or from the future.', [
      { path: 'headers.stripe-signature', message: 'Signature check failed' },
    ]);
  };
  const signatures = await stripeSignatures();
  let event: PaymentEvent;
  try {
    event = signatures.constructEvent(
      rawBody,
      signature,
      secret,
      SIGNATURE_TOLERANCE_SECONDS,
      undefined,
      nowMs,
      // Stripe's Event is the union of every object it can carry; this module reads the few fields of
      // PaymentEvent, each optional and checked where it is read, which no union member promises alone.
    ) as unknown as PaymentEvent;
  } catch {
    throw invalid();
  }
  // Stripe's library only bounds the age: a timestamp far ahead would keep a captured request replayable for that long.
  const t = signedAt(signature);
  if (t === undefined || t - nowMs / 1000 > SIGNATURE_TOLERANCE_SECONDS) throw invalid();
  return event;
}

/** A signed event whose shape we cannot use: Stripe would retry a 4xx/5xx for days, so it is acknowledged. */
const isUsableEvent = (event: unknown): event is PaymentEvent => {
  const e = event as Partial<PaymentEvent> | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof e.id === 'string' &&
    e.id !== '' &&
    typeof e.type === 'string' &&
    typeof e.created === 'number' &&
    Number.isSafeInteger(e.created) &&
    Math.abs(e.created) < 253_402_300_799 &&
    typeof e.data === 'object' &&
    e.data !== null &&
    typeof e.data.object === 'object' &&
    e.data.object !== null &&
    !Array.isArray(e.data.object)
  );
};

/** What became of a verified event: applied now, applied before, or acknowledged without effect. */
export type PaymentEventOutcome = 'applied' | 'duplicate' | 'ignored';

const ignored = (event: { id?: unknown; type?: unknown }, reason: string, userId?: string): PaymentEventOutcome => {
  logger.warn('payment event not applied', { reason, eventId: String(event?.id), type: String(event?.type), userId });
  recordMetric('PaymentEventsRejected', 1, { reason });
  return 'ignored';
};

/**
 * A subscription Stripe reports for an account that uses another, active one (a second checkout paid beside
 * it, or an old one it replaced) would bill every month for nothing: it is cancelled in Stripe before the
 * event is recorded as handled, so a failed cancel fails the delivery and Stripe sends the event again.
 * A checkout cannot start while a subscription is active, so no subscription the account is about to take
 * up is cancelled; while it has none active, nothing is.
 */
async function cancelIfUnused(userId: string, subscriptionId: string | undefined): Promise<boolean> {
  if (!subscriptionId) return false;
  const user = await getUser(userId);
  const usesAnother =
    user?.subscriptionStatus === 'active' &&
    !!user.stripeSubscriptionId &&
    user.stripeSubscriptionId !== subscriptionId;
  if (!usesAnother) return false;
  await ports().payments.cancelSubscription(subscriptionId);
  logger.warn('unused subscription cancelled', { userId, subscriptionId });
  return true;
}

/** The webhook's answer: Stripe only needs to know it was received (and we say whether it was a repeat). */
export async function applyPaymentEvent(event: PaymentEvent): Promise<{ received: true; duplicate: boolean }> {
  return { received: true, duplicate: (await applyPaymentEventOnce(event)) === 'duplicate' };
}

/** Applies a verified event exactly once: the event-id guard is written with its effects. */
export async function applyPaymentEventOnce(event: PaymentEvent): Promise<PaymentEventOutcome> {
  if (!isUsableEvent(event)) return ignored(event, 'malformed event');
  const at = now().toISOString();
  let effect: Effect | undefined;
  try {
    effect = await effectOf(event);
  } catch (err) {
    // Malformed fields inside a signed object (a string where a period should be, a date out of range).
    if (err instanceof TypeError || err instanceof RangeError) return ignored(event, 'malformed object');
    throw err;
  }
  if (effect && (typeof effect.userId !== 'string' || effect.userId === '')) return ignored(event, 'no user');
  const cancelled = effect ? await cancelIfUnused(effect.userId, effect.subscriptionId) : false;
  // `event` is the guard: it exists when this event was applied before.
  const guard = paymentEventGuard(event.id, event.type, at);
  const items: TransactItems = effect
    ? { event: guard, user: updateUserItem(effect.userId, effect.changes, at, effect.condition), ...effect.extra }
    : { event: guard };
  const seenBefore = (err: unknown) => err instanceof TransactionConditionError && err.failed.has('event');
  try {
    if (effect?.grant) {
      // With a grant, an event seen before is a duplicate whatever else failed.
      const outcome = await grantCredits({ userId: effect.userId, ...effect.grant, with: items }).catch((err) => {
        if (seenBefore(err)) return 'duplicate' as const;
        throw err;
      });
      if (outcome === 'duplicate') return outcome;
      if (outcome.alreadyApplied) await writeTogether(items);
    } else {
      await writeTogether(items);
    }
  } catch (err) {
    if (
      effect &&
      err instanceof TransactionConditionError &&
      (err.failed.has('user') || err.failedAmong(effect.extra ?? {}).length > 0)
    ) {
      // Stale, conflicting, naming no known user or a subscription deleted since: record the event as handled so Stripe
      // stops retrying it, change nothing else. A checkout refused because another was applied meanwhile leaves
      // a subscription the account does not use.
      if (!cancelled) await cancelIfUnused(effect.userId, effect.subscriptionId);
      await writeTogether({ event: guard }).catch(() => undefined);
      return ignored(event, 'not applicable', effect.userId);
    }
    if (seenBefore(err)) return 'duplicate';
    throw err;
  }
  recordMetric('PaymentEventsApplied', 1, {});
  return 'applied';
}
