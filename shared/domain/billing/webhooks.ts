import { requireStripeSecret } from '#shared/adapters/secrets';
import { ValidationError } from '#shared/domain/errors';
import { now, ports } from '#shared/adapters/ports';
import { periodOfSubscription } from '#shared/adapters/payments';
import { stripeSignatures } from '#shared/adapters/stripeSignatures';
import { paymentEventGuard } from '#shared/store/checkoutRepo';
import {
  findUserIdBySubscription,
  getUser,
  markSubscriptionDeleted,
  subscriptionOwnerItem,
  updateUserItem,
  type UserCondition,
  type UserRecord,
} from '#shared/store/usersRepo';
import { TransactionConditionError, writeTogether, type TransactItems } from '#shared/store/transactions';
import { grantCredits } from '#shared/domain/credits/credits';
import { ADD_ON_TYPES, addOneMonth, countAddOns, periodAllowance, type AddOnType } from './plans';
import { logger } from '#shared/observability/logger';
import { recordMetric } from '#shared/observability/metrics';

const SIGNATURE_TOLERANCE_SECONDS = 300;

/** Metadata this service puts on its checkout sessions and subscriptions. */
type StripeMetadata = { user_id?: string; add_ons?: string };

/** An invoice line: `proration` at its top level before Stripe's 2025-03-31 API, under `parent` since. */
interface InvoiceLine {
  period?: { start?: number; end?: number };
  proration?: boolean;
  parent?: { subscription_item_details?: { proration?: boolean } | null } | null;
}

/**
 * The fields of Stripe's objects (checkout session, invoice, subscription) that the events below read,
 * across the API versions that moved some of them. All are optional: a signed object may lack one, and
 * one of another type is acknowledged as malformed (the TypeError and RangeError guard in applyPaymentEventOnce).
 */
interface StripeObject {
  id?: string;
  client_reference_id?: string | null;
  metadata?: StripeMetadata | null;
  customer?: StripeObject | string | null;
  subscription?: StripeObject | string | null;
  subscription_details?: { metadata?: StripeMetadata | null } | null;
  parent?: {
    subscription_details?: { subscription?: StripeObject | string | null; metadata?: StripeMetadata | null } | null;
  } | null;
  lines?: { data?: InvoiceLine[] };
  period_start?: number;
  billing_reason?: string | null;
  /** A checkout session's: `unpaid` while a delayed payment method (ACH, SEPA debit) has not settled. */
  payment_status?: string;
  status?: string;
  items?: { data?: { current_period_start?: number; current_period_end?: number }[] };
  current_period_start?: number;
  current_period_end?: number;
}
interface PaymentEvent {
  id: string;
  type: string;
  created: number;
  data: { object: StripeObject };
}

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

const parseAddOns = (value: unknown): AddOnType[] =>
  String(value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s): s is AddOnType => (ADD_ON_TYPES as string[]).includes(s));

const iso = (seconds: number | undefined) => (seconds ? new Date(seconds * 1000).toISOString() : undefined);
const idOf = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : (value as { id?: string } | null)?.id;

interface Effect {
  userId: string;
  changes: Partial<UserRecord>;
  /** When the profile no longer meets this, the event is acknowledged and has no effect. */
  condition?: UserCondition;
  /** More items written with the change, by name (not `event` or `user`). */
  extra?: TransactItems;
  grant?: { grantId: string; amount: number; expiresAt: string; source: string };
  /** The subscription the event reports: when the account uses another, active one, it is cancelled. */
  subscriptionId?: string;
}

/**
 * A deleted subscription is over for good (Stripe never revives one; a new checkout makes a new one).
 * Stripe does not promise delivery order and retries failed deliveries for days, so an event created
 * before the deletion may arrive after it: none may make that subscription active again.
 */
const notDeleted = (subscriptionId: string): UserCondition => ({
  expression: 'NOT (subscriptionStatus = :canceled AND stripeSubscriptionId = :deletedSub)',
  values: { ':canceled': 'canceled', ':deletedSub': subscriptionId },
});

/**
 * Only the account's current subscription speaks for its status and period: a subscription it has
 * replaced (a past_due one left behind by a new checkout) may still be updated, paid or deleted by
 * Stripe, and must not end or reshape the one that replaced it.
 */
const isCurrent = (subscriptionId: string): UserCondition => ({
  expression: 'stripeSubscriptionId = :currentSub',
  values: { ':currentSub': subscriptionId },
});
const isCurrentLive = (user: UserRecord | undefined, subscriptionId: string) =>
  user?.stripeSubscriptionId === subscriptionId && user.subscriptionStatus !== 'canceled';

const both = (a: UserCondition, b: UserCondition): UserCondition => ({
  expression: `(${a.expression}) AND (${b.expression})`,
  values: { ...a.values, ...b.values },
});

async function ownerOfSubscription(
  subscription: StripeObject | string | null | undefined,
  metadata?: StripeMetadata | null,
): Promise<string | undefined> {
  const subId = idOf(subscription);
  return (subId && (await findUserIdBySubscription(subId))) || metadata?.user_id;
}

/**
 * The line whose period is the subscription's: a renewal invoice also carries the prorations of changes
 * made during the period ending (an add-on bought in Stripe's portal), which may be listed first, and their
 * period is what was left of that one.
 */
const periodLine = (lines: InvoiceLine[]): InvoiceLine | undefined =>
  lines.find((line) => !(line.proration ?? line.parent?.subscription_item_details?.proration)) ?? lines[0];

/**
 * The paid invoices that start a billing period, by Stripe's billing_reason, and whether they bring its
 * credits. Any other (subscription_update: a change mid-period prorated, manual, subscription_threshold)
 * is acknowledged without effect: a full period's credits for a prorated change would be paid for once
 * and granted again, and its line's period is not the subscription's. An invoice without a reason (an
 * older API version) is taken as a renewal.
 */
const INVOICE_PERIODS = new Map<string, { grants: boolean }>([
  ['subscription_cycle', { grants: true }],
  // The first invoice of a subscription is the checkout itself, already granted by checkout.session.completed.
  ['subscription_create', { grants: false }],
]);

/**
 * The subscription's own current period: from the event when Stripe expanded the subscription into it,
 * else as Stripe reports it. A checkout paid by a delayed method succeeds days after its subscription
 * began, and the period (and its credits) run from when it began.
 */
async function subscriptionPeriodOf(subscription: StripeObject | string | null | undefined) {
  const embedded = subscription && typeof subscription === 'object' ? periodOfSubscription(subscription) : undefined;
  const id = idOf(subscription);
  return embedded ?? (id ? await ports().payments.subscriptionPeriod(id) : undefined);
}

/** What each handled event changes. Unknown events are acknowledged and ignored. */
async function effectOf(event: PaymentEvent): Promise<Effect | undefined> {
  const object = event.data.object;
  switch (event.type) {
    // A checkout paid by a delayed method (ACH or SEPA debit) completes before its money arrives, which may
    // never happen: it is fulfilled when Stripe says the payment succeeded, the same session in another event.
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      if (object.payment_status === 'unpaid') return undefined;
      const userId = object.client_reference_id ?? object.metadata?.user_id;
      const subscriptionId = idOf(object.subscription) ?? `sub_local_${object.id}`;
      if (!userId) return undefined;
      const addOns = countAddOns(parseAddOns(object.metadata?.add_ons));
      // The local checkout's subscription has no period to report: it begins with its event.
      const period = await subscriptionPeriodOf(object.subscription);
      const start = new Date((period?.start ?? event.created) * 1000);
      const end = period ? new Date(period.end * 1000) : addOneMonth(start);
      return {
        userId,
        changes: {
          tier: 'pro',
          subscriptionStatus: 'active',
          currentPeriodStart: start.toISOString(),
          currentPeriodEnd: end.toISOString(),
          addOns,
          stripeSubscriptionId: subscriptionId,
          stripeCustomerId: idOf(object.customer) ?? null,
          downgradeAt: null,
        },
        // A second paid checkout must not stack a second subscription (and grant) on an active one.
        condition: both(
          {
            expression:
              'attribute_not_exists(stripeSubscriptionId) OR stripeSubscriptionId = :none OR stripeSubscriptionId = :sub OR subscriptionStatus <> :active',
            values: { ':none': null, ':sub': subscriptionId, ':active': 'active' },
          },
          notDeleted(subscriptionId),
        ),
        extra: { subscriptionOwner: subscriptionOwnerItem(subscriptionId, userId) },
        subscriptionId,
        grant: {
          grantId: `period:${subscriptionId}:initial`,
          amount: periodAllowance(addOns),
          expiresAt: end.toISOString(),
          source: 'pro',
        },
      };
    }
    case 'invoice.paid': {
      // A prorated change mid-period, a manual or threshold invoice: paid, but it starts no period.
      const period = INVOICE_PERIODS.get(object.billing_reason ?? 'subscription_cycle');
      if (!period) return undefined;
      const subscription = object.subscription ?? object.parent?.subscription_details?.subscription;
      const userId = await ownerOfSubscription(
        subscription,
        object.subscription_details?.metadata ?? object.parent?.subscription_details?.metadata,
      );
      if (!userId) return undefined;
      const line = periodLine(object.lines?.data ?? [])?.period ?? {};
      const start = iso(line.start) ?? iso(object.period_start) ?? new Date(event.created * 1000).toISOString();
      const end = iso(line.end) ?? addOneMonth(new Date(start)).toISOString();
      const user = await getUser(userId);
      const addOns = user?.addOns ?? {};
      const subId = idOf(subscription);
      const grant = period.grants
        ? { grantId: `period:${subId}:${start}`, amount: periodAllowance(addOns), expiresAt: end, source: 'pro' }
        : undefined;
      // An invoice of a subscription that is not the account's live one (deleted since, replaced, or not yet
      // recorded by its checkout): its period was paid for, so its credits are granted, but it changes no status.
      if (!subId || !isCurrentLive(user, subId)) return grant && { userId, changes: {}, grant, subscriptionId: subId };
      const changes: Partial<UserRecord> = {
        tier: 'pro',
        subscriptionStatus: 'active',
        currentPeriodStart: start,
        currentPeriodEnd: end,
        downgradeAt: null,
      };
      return {
        userId,
        changes,
        condition: both(isCurrent(subId), notDeleted(subId)),
        subscriptionId: subId,
        ...(grant ? { grant } : {}),
      };
    }
    case 'customer.subscription.updated': {
      const subId = idOf(object.id);
      const userId = subId && (await ownerOfSubscription(subId, object.metadata));
      if (!subId || !userId) return undefined;
      const item = object.items?.data?.[0] ?? {};
      const changes: Partial<UserRecord> = {
        subscriptionStatus: String(object.status ?? 'active'),
        subscriptionEventAt: event.created,
      };
      const start = iso(object.current_period_start ?? item.current_period_start);
      const end = iso(object.current_period_end ?? item.current_period_end);
      if (start) changes.currentPeriodStart = start;
      if (end) changes.currentPeriodEnd = end;
      if (object.metadata?.add_ons !== undefined) changes.addOns = countAddOns(parseAddOns(object.metadata.add_ons));
      // Stripe does not promise delivery order: an update older than the last one applied changes nothing.
      const newer: UserCondition = {
        expression: 'attribute_not_exists(subscriptionEventAt) OR subscriptionEventAt <= :created',
        values: { ':created': event.created },
      };
      return {
        userId,
        changes,
        condition: both(newer, both(isCurrent(subId), notDeleted(subId))),
        subscriptionId: subId,
      };
    }
    case 'customer.subscription.deleted': {
      const subId = idOf(object.id);
      const userId = subId && (await ownerOfSubscription(subId, object.metadata));
      if (!subId || !userId) return undefined;
      const user = await getUser(userId);
      const periodEnd = iso(object.current_period_end) ?? user?.currentPeriodEnd ?? now().toISOString();
      // Stripe may deliver the deletion before the checkout that started the subscription (a failed delivery is
      // retried later): recorded first, on its own, it refuses that checkout (subscriptionOwnerItem's condition).
      await markSubscriptionDeleted(subId, userId, now().toISOString());
      return {
        userId,
        changes: { subscriptionStatus: 'canceled', downgradeAt: periodEnd },
        condition: isCurrent(subId),
      };
    }
    default:
      return undefined;
  }
}

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
