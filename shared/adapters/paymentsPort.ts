import type { AddOnType, CheckoutLine } from '#shared/domain/billing/plans';

/** The payments port: real Stripe Checkout (./payments) or the local checkout page. */
export interface CheckoutRequest {
  userId: string;
  email: string;
  addOns: AddOnType[];
  /** What the subscription bills, from the plans (shared/domain/billing/plans.ts): the port knows no prices. */
  lines: CheckoutLine[];
  /** Base URL of this API, for the local checkout page and return links. */
  baseUrl: string;
}

export interface CheckoutSession {
  id: string;
  url: string;
}

/** A subscription's current billing period, in seconds since the epoch as Stripe dates it. */
export interface SubscriptionPeriod {
  start: number;
  end: number;
}

export interface PaymentsPort {
  readonly kind: 'stripe' | 'local';
  createCheckoutSession(request: CheckoutRequest): Promise<CheckoutSession>;
  /**
   * The subscription's own current period as the provider reports it, or undefined when it reports none
   * (the local checkout's subscription starts when Pay is pressed, the time of its event).
   */
  subscriptionPeriod(subscriptionId: string): Promise<SubscriptionPeriod | undefined>;
  /** Ends a subscription at once, without proration; one already ended counts as ended. Safe to repeat. */
  cancelSubscription(subscriptionId: string): Promise<void>;
}
