import type Stripe from 'stripe';
import { config, type StripePriceSetting } from '#shared/config/config';
import { requireStripeSecret, stripeConfigured } from './secrets';
import { uuidv7 } from '#shared/ids';
import type { CheckoutRequest, CheckoutSession, PaymentsPort, SubscriptionPeriod } from './paymentsPort';

/** A subscription's period: on its items since Stripe's 2025-03-31 API, at its top level before. */
type PeriodFields = { current_period_start?: number; current_period_end?: number };
type SubscriptionPeriods = PeriodFields & { status?: string; items?: { data?: PeriodFields[] } };

export function periodOfSubscription(subscription: SubscriptionPeriods): SubscriptionPeriod | undefined {
  const item = subscription.items?.data?.[0] ?? {};
  const start = subscription.current_period_start ?? item.current_period_start;
  const end = subscription.current_period_end ?? item.current_period_end;
  return typeof start === 'number' && typeof end === 'number' ? { start, end } : undefined;
}

/** Statuses of a subscription that bills no more. */
const ENDED = new Set(['canceled', 'incomplete_expired']);

/** Real Stripe Checkout (used whenever Stripe is configured); the key is read, and Stripe's library loaded, on first use. */
export class StripePayments implements PaymentsPort {
  readonly kind = 'stripe' as const;
  private stripe?: Promise<Stripe>;
  /** `apiBase` points the client elsewhere than api.stripe.com (the tests' recording stand-in). */
  constructor(
    private readonly secretKey: () => Promise<string>,
    private readonly options: { apiBase?: string } = {},
  ) {}
  private client(): Promise<Stripe> {
    const base = this.options.apiBase ? new URL(this.options.apiBase) : undefined;
    // A failed secret read is not remembered: the next request tries again.
    this.stripe ??= Promise.all([this.secretKey(), import('stripe')]).then(
      ([key, { default: StripeClient }]) =>
        new StripeClient(
          key,
          base ? { host: base.hostname, port: base.port, protocol: base.protocol === 'http:' ? 'http' : 'https' } : {},
        ),
      (err) => {
        this.stripe = undefined;
        throw err;
      },
    );
    return this.stripe;
  }
  async subscriptionPeriod(subscriptionId: string): Promise<SubscriptionPeriod | undefined> {
    const stripe = await this.client();
    try {
      return periodOfSubscription(await stripe.subscriptions.retrieve(subscriptionId));
    } catch (err) {
      // A subscription Stripe does not know has no period to report; any other failure is retried by Stripe's redelivery.
      if ((err as { code?: string }).code === 'resource_missing') return undefined;
      throw err;
    }
  }
  async cancelSubscription(subscriptionId: string): Promise<void> {
    const stripe = await this.client();
    try {
      // One key per subscription: a retried webhook repeats the same cancel, which Stripe answers once.
      await stripe.subscriptions.cancel(subscriptionId, {}, { idempotencyKey: `cancel-unused-${subscriptionId}` });
    } catch (err) {
      // Stripe refuses to cancel a subscription that has ended already (or is gone): that is the state we wanted.
      if ((err as { type?: string }).type !== 'StripeInvalidRequestError') throw err;
      const gone = (err as { code?: string }).code === 'resource_missing';
      if (!gone && !ENDED.has((await stripe.subscriptions.retrieve(subscriptionId)).status)) throw err;
    }
  }
  async createCheckoutSession(request: CheckoutRequest): Promise<CheckoutSession> {
    const stripe = await this.client();
    const price = (env: StripePriceSetting) => {
      const id = config().stripePrices[env];
      if (!id) throw new Error(`Stripe is configured but ${env} is not set`);
      return id;
    };
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: request.lines.map((line) => ({ price: price(line.priceSetting), quantity: line.quantity })),
      client_reference_id: request.userId,
      customer_email: request.email,
      metadata: { user_id: request.userId, add_ons: request.addOns.join(',') },
      subscription_data: { metadata: { user_id: request.userId, add_ons: request.addOns.join(',') } },
      success_url: config().checkoutSuccessUrl ?? `${request.baseUrl}/health?checkout=success`,
      cancel_url: config().checkoutCancelUrl ?? `${request.baseUrl}/health?checkout=cancelled`,
    });
    return { id: session.id, url: session.url ?? '' };
  }
}

/**
 * No payment provider: the checkout URL is a page on this server whose Pay button makes the server
 * send itself the same signed `checkout.session.completed` webhook Stripe would.
 */
export class LocalPayments implements PaymentsPort {
  readonly kind = 'local' as const;
  /** Subscriptions cancelled: nothing bills locally, so there is nothing else to stop; kept to be seen. */
  readonly cancelled = new Set<string>();
  constructor(private readonly newId: () => string) {}
  async createCheckoutSession(request: CheckoutRequest): Promise<CheckoutSession> {
    const id = `cs_local_${this.newId()}`;
    return { id, url: `${request.baseUrl}/checkout/${id}` };
  }
  async subscriptionPeriod(): Promise<undefined> {
    return undefined;
  }
  async cancelSubscription(subscriptionId: string): Promise<void> {
    this.cancelled.add(subscriptionId);
  }
}

export function paymentsFromConfig(newId: () => string): PaymentsPort {
  return stripeConfigured()
    ? new StripePayments(() => requireStripeSecret('STRIPE_SECRET_KEY'))
    : new LocalPayments(newId);
}

/** The payments port from the Stripe settings, for the one function wired to `payments` (account); the others' bundles carry no Stripe SDK. */
export const paymentsPort = (): PaymentsPort => paymentsFromConfig(uuidv7);
