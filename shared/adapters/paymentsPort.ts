import type { AddOnType } from '#shared/domain/billing/plans';

/** The payments port: real Stripe Checkout (./payments) or the local checkout page. */
export interface CheckoutRequest {
  userId: string;
  email: string;
  addOns: AddOnType[];
  /** Base URL of this API, for the local checkout page and return links. */
  baseUrl: string;
}

export interface CheckoutSession {
  id: string;
  url: string;
}

export interface PaymentsPort {
  readonly kind: 'stripe' | 'local';
  createCheckoutSession(request: CheckoutRequest): Promise<CheckoutSession>;
}
