import type Stripe from 'stripe';

let webhooks: Promise<Stripe['webhooks']> | undefined;

/**
 * Webhook signature checks and signing with Stripe's own library, which needs no network: the same
 * code verifies events from Stripe and from the local checkout page. Stripe's library is loaded on
 * the first webhook, not when the function starts: most of the functions that carry it (account,
 * webhooks) answer other routes, and a cold start should not evaluate it for them.
 */
export function stripeSignatures(): Promise<Stripe['webhooks']> {
  webhooks ??= import('stripe').then(
    ({ default: StripeClient }) => new StripeClient('sk_signature_checks_only').webhooks,
  );
  return webhooks;
}
