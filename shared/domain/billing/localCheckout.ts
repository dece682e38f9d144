import { requireStripeSecret } from '#shared/adapters/secrets';
import { NotFoundError, UnprocessableError } from '#shared/domain/errors';
import { now } from '#shared/adapters/ports';
import { stripeSignatures } from '#shared/adapters/stripeSignatures';
import { uuidv7 } from '#shared/ids';
import { getCheckout, markCheckoutPaid } from '#shared/store/checkoutRepo';
import { countAddOns, monthlyCostUsd, type AddOnType } from './plans';
import { applyPaymentEventOnce, verifyPaymentEvent } from './webhooks';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
  `<body style="font-family:system-ui;max-width:32rem;margin:4rem auto">${body}</body></html>`;

async function openLocalSession(sessionId: string) {
  const session = await getCheckout(sessionId);
  if (session?.provider !== 'local') throw new NotFoundError('Checkout session');
  return session;
}

export async function localCheckoutPage(sessionId: string): Promise<string> {
  const session = await openLocalSession(sessionId);
  if (session.status === 'paid') return page('Paid', '<h1>Already paid</h1><p>This checkout is complete.</p>');
  const cost = monthlyCostUsd(countAddOns(session.addOns as AddOnType[]));
  return page(
    'Checkout',
    `<h1>Pro subscription</h1><p>Add-ons: ${escapeHtml(session.addOns.join(', ') || 'none')}</p><p>${cost.toFixed(2)} USD a month</p>` +
      `<form method="post" action="${escapeHtml(sessionId)}/pay"><button type="submit">Pay</button></form>` +
      '<p><small>Local checkout: no payment provider is configured, nothing is charged.</small></p>',
  );
}

/**
 * The Pay button: builds and signs the `checkout.session.completed` event Stripe would send and
 * hands it to the webhook's own verification and fulfilment, in process: the server sends no
 * request anywhere, so no caller header can choose a target. The session is marked paid only once
 * the event was applied; if fulfilment fails the session stays open and can be paid again (a
 * second application grants nothing twice: the period grant is keyed by the subscription).
 */
export async function payLocalCheckout(sessionId: string): Promise<string> {
  const session = await openLocalSession(sessionId);
  if (session.status === 'paid') return page('Paid', '<h1>Already paid</h1>');
  const secret = await requireStripeSecret('STRIPE_WEBHOOK_SECRET');
  const payload = JSON.stringify({
    id: `evt_local_${uuidv7()}`,
    object: 'event',
    type: 'checkout.session.completed',
    created: Math.floor(now().getTime() / 1000),
    data: {
      object: {
        id: sessionId,
        object: 'checkout.session',
        mode: 'subscription',
        status: 'complete',
        payment_status: 'paid',
        client_reference_id: session.userId,
        customer: `cus_local_${session.userId}`,
        subscription: `sub_local_${sessionId.slice('cs_local_'.length)}`,
        metadata: { user_id: session.userId, add_ons: session.addOns.join(',') },
      },
    },
  });
  const signature = (await stripeSignatures()).generateTestHeaderString({ payload, secret });
  const outcome = await applyPaymentEventOnce(await verifyPaymentEvent(payload, signature));
  if (outcome === 'ignored')
    throw new UnprocessableError(
      'invalid_state',
      'The payment could not be applied to this account (it may already have an active subscription).',
    );
  await markCheckoutPaid(sessionId);
  return page('Paid', '<h1>Payment complete</h1><p>Your pro subscription is active.</p>');
}
