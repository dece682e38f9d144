import type Stripe from 'stripe';
import { config, type StripePriceSetting } from '#shared/config/config';
import { requireStripeSecret, stripeConfigured } from './secrets';
import { ADD_ONS, PRO_PLAN } from '#shared/domain/billing/plans';
import { uuidv7 } from '#shared/ids';
import type { CheckoutRequest, CheckoutSession, PaymentsPort } from './paymentsPort';

/** Real Stripe Checkout (used whenever Stripe is configured); the key is read, and Stripe's library loaded, on first use. */
export class StripePayments implements PaymentsPort {
  readonly kind = 'stripe' as const;
  private stripe?: Promise<Stripe>;
  constructor(private readonly secretKey: () => Promise<string>) {}
  async createCheckoutSession(request: CheckoutRequest): Promise<CheckoutSession> {
    // A failed secret read is not remembered: the next request tries again.
    this.stripe ??= Promise.all([this.secretKey(), import('stripe')]).then(
      ([key, { default: StripeClient }]) => new StripeClient(key),
      (err) => {
        this.stripe = undefined;
        throw err;
      },
    );
    const stripe = await this.stripe;
    const price = (env: StripePriceSetting) => {
      const id = config().stripePrices[env];
      if (!id) throw new Error(`Stripe is configured but ${env} is not set`);
      return id;
    };
    const lineItems = [{ price: price(PRO_PLAN.stripePriceEnv), quantity: 1 }];
    for (const type of new Set(request.addOns)) {
      lineItems.push({
        price: price(ADD_ONS[type].stripePriceEnv),
        quantity: request.addOns.filter((a) => a === type).length,
      });
    }
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: lineItems,
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
  constructor(private readonly newId: () => string) {}
  async createCheckoutSession(request: CheckoutRequest): Promise<CheckoutSession> {
    const id = `cs_local_${this.newId()}`;
    return { id, url: `${request.baseUrl}/checkout/${id}` };
  }
}

export function paymentsFromConfig(newId: () => string): PaymentsPort {
  return stripeConfigured()
    ? new StripePayments(() => requireStripeSecret('STRIPE_SECRET_KEY'))
    : new LocalPayments(newId);
}

/** The payments port from the Stripe settings, for the one function wired to `payments` (account); the others' bundles carry no Stripe SDK. */
export const paymentsPort = (): PaymentsPort => paymentsFromConfig(uuidv7);
