/**
 * What each Stripe event this service handles changes, as a table by event type: the account's plan,
 * status and period, the credits a paid period brings, and the conditions under which the change still
 * applies (Stripe neither orders nor stops retrying its deliveries). Applying an effect once is
 * webhooks.ts's.
 */
import { now, ports } from '#shared/adapters/ports';
import { periodOfSubscription } from '#shared/adapters/payments';
import {
  findUserIdBySubscription,
  getUser,
  markSubscriptionDeleted,
  subscriptionOwnerItem,
  type UserCondition,
  type UserRecord,
} from '#shared/store/usersRepo';
import type { TransactItems } from '#shared/store/transactions';
import { ADD_ON_TYPES, addOneMonth, countAddOns, periodAllowance, type AddOnType } from './plans';

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
 * one of another type is acknowledged as malformed (the TypeError and RangeError guard in applyPaymentEventOnce,
 * webhooks.ts).
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
export interface PaymentEvent {
  id: string;
  type: string;
  created: number;
  data: { object: StripeObject };
}

const parseAddOns = (value: unknown): AddOnType[] =>
  String(value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s): s is AddOnType => (ADD_ON_TYPES as string[]).includes(s));

const iso = (seconds: number | undefined) => (seconds ? new Date(seconds * 1000).toISOString() : undefined);
const idOf = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : (value as { id?: string } | null)?.id;

export interface Effect {
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

/**
 * A checkout paid: the account becomes pro for the subscription's period, with its credits. A checkout paid by
 * a delayed method (ACH or SEPA debit) completes before its money arrives, which may never happen: it is
 * fulfilled when Stripe says the payment succeeded, the same session in another event.
 */
async function checkoutPaid(event: PaymentEvent): Promise<Effect | undefined> {
  const object = event.data.object;
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

/** A paid invoice that starts a period: the period's credits, and the account's period when it is current. */
async function invoicePaid(event: PaymentEvent): Promise<Effect | undefined> {
  const object = event.data.object;
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

/** The subscription's status, period and add-ons as Stripe now reports them. */
async function subscriptionUpdated(event: PaymentEvent): Promise<Effect | undefined> {
  const object = event.data.object;
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

/** The subscription is over: the account is downgraded at the end of the period it paid for. */
async function subscriptionDeleted(event: PaymentEvent): Promise<Effect | undefined> {
  const object = event.data.object;
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

/** What each handled event changes, by its type. Unknown events are acknowledged and ignored. */
const EFFECTS = new Map<string, (event: PaymentEvent) => Promise<Effect | undefined>>([
  ['checkout.session.completed', checkoutPaid],
  ['checkout.session.async_payment_succeeded', checkoutPaid],
  ['invoice.paid', invoicePaid],
  ['customer.subscription.updated', subscriptionUpdated],
  ['customer.subscription.deleted', subscriptionDeleted],
]);

export const effectOf = async (event: PaymentEvent): Promise<Effect | undefined> => EFFECTS.get(event.type)?.(event);
