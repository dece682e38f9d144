import Stripe from 'stripe';

/**
 * Webhook signature checks and signing with Stripe's own library, which needs no network: the same
 * code verifies events from Stripe and from the local checkout page.
 */
export const stripeSignatures = new Stripe('sk_signature_checks_only').webhooks;
