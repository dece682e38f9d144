/**
 * The payment webhook with the real Stripe adapter behind the payments port, pointed at the recording
 * stand-in (bin/standIns/stripeStandIn.ts): what the webhook asks Stripe, and what it cancels there.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { installPorts } from '#shared/adapters/ports';
import { StripePayments } from '#shared/adapters/payments';
import { stripeSignatures as loadStripeSignatures } from '#shared/adapters/stripeSignatures';
import { getUser } from '#shared/store/usersRepo';
import { startTestApi } from '#test/support/api';
import { startStripeStandIn } from '#bin/standIns/stripeStandIn';

const stripeSignatures = await loadStripeSignatures();
const api = await startTestApi();
const SECRET_KEY = 'sk_test_stand_in';
const stripe = await startStripeStandIn(SECRET_KEY);
installPorts({ payments: new StripePayments(async () => SECRET_KEY, { apiBase: stripe.apiBase }) });
afterAll(() => stripe.close());

const secret = process.env.STRIPE_WEBHOOK_SECRET!;
const DAY = 86_400;
const nowSeconds = () => Math.floor(Date.now() / 1000);
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

function post(event: object) {
  const payload = JSON.stringify(event);
  const signature = stripeSignatures.generateTestHeaderString({ payload, secret });
  return api.call('POST', '/webhooks/stripe', {
    rawBody: payload,
    headers: { 'stripe-signature': signature, 'content-type': 'application/json' },
  });
}

const checkoutCompleted = (eventId: string, userId: string, subscription: string, created: number, extra = {}) => ({
  id: eventId,
  type: 'checkout.session.completed',
  created,
  data: {
    object: {
      id: `cs_${eventId}`,
      client_reference_id: userId,
      subscription,
      metadata: {},
      payment_status: 'paid',
      ...extra,
    },
  },
});

describe('the payment webhook with Stripe behind the payments port', () => {
  it('dates the first period of a delayed payment from the subscription, not from the event that said it succeeded', async () => {
    const { key, user } = await api.newUser();
    const sub = `sub_async_${user.id.replaceAll('-', '')}`;
    // The checkout completed (and the subscription began) four days before the SEPA debit settled.
    const began = nowSeconds() - 4 * DAY;
    stripe.subscriptions.set(sub, {
      status: 'active',
      current_period_start: began,
      current_period_end: began + 31 * DAY,
    });
    const session = { id: `cs_async_${user.id}`, client_reference_id: user.id, subscription: sub, metadata: {} };
    await post({
      id: `evt_a1_${user.id}`,
      type: 'checkout.session.completed',
      created: began,
      data: { object: { ...session, payment_status: 'unpaid' } },
    });
    const succeeded = await post({
      id: `evt_a2_${user.id}`,
      type: 'checkout.session.async_payment_succeeded',
      created: nowSeconds(),
      data: { object: { ...session, payment_status: 'paid' } },
    });
    expect(succeeded.status).toBe(200);
    expect((await api.call('GET', '/subscriptions/status', { key })).body).toMatchObject({
      tier: 'pro',
      status: 'active',
      current_period_start: iso(began),
      current_period_end: iso(began + 31 * DAY),
      credits_total: 10_000,
      credits_expiring: iso(began + 31 * DAY),
    });
    expect(stripe.calls).toContainEqual(expect.objectContaining({ method: 'GET', path: `/v1/subscriptions/${sub}` }));
    expect(stripe.calls.filter((c) => c.method === 'DELETE' && c.path.includes(sub))).toEqual([]);
  });

  it('cancels in Stripe a second subscription the account does not use, once, and keeps the first', async () => {
    const { key, user } = await api.newUser();
    const tag = user.id.replaceAll('-', '');
    const [first, second] = [`sub_first_${tag}`, `sub_second_${tag}`];
    const t = nowSeconds();
    for (const sub of [first, second])
      stripe.subscriptions.set(sub, { status: 'active', current_period_start: t, current_period_end: t + 30 * DAY });
    // Two checkouts opened before either was paid, both paid: Stripe now bills two subscriptions.
    expect((await post(checkoutCompleted(`evt_c1_${tag}`, user.id, first, t))).status).toBe(200);
    const secondPaid = checkoutCompleted(`evt_c2_${tag}`, user.id, second, t + 5);
    expect((await post(secondPaid)).status).toBe(200);

    const cancels = () => stripe.calls.filter((c) => c.method === 'DELETE' && c.path.includes(tag));
    expect(cancels()).toEqual([
      expect.objectContaining({ path: `/v1/subscriptions/${second}`, idempotencyKey: `cancel-unused-${second}` }),
    ]);
    expect(stripe.subscriptions.get(second)?.status).toBe('canceled');
    expect(stripe.subscriptions.get(first)?.status).toBe('active');
    expect((await getUser(user.id))?.stripeSubscriptionId).toBe(first);
    expect((await api.call('GET', '/subscriptions/status', { key })).body).toMatchObject({
      tier: 'pro',
      status: 'active',
      credits_total: 10_000,
    });

    // Stripe delivers that checkout again: still refused, and the cancel asked again is the same request.
    expect((await post(secondPaid)).body).toMatchObject({ duplicate: true });
    expect(cancels().map((c) => c.idempotencyKey)).toEqual([`cancel-unused-${second}`, `cancel-unused-${second}`]);
    expect((await getUser(user.id))?.stripeSubscriptionId).toBe(first);

    // Any other event about a subscription beside the one in use stops it too (here an old one Stripe revived).
    const old = `sub_old_${tag}`;
    stripe.subscriptions.set(old, { status: 'active', current_period_start: t, current_period_end: t + 30 * DAY });
    const revived = await post({
      id: `evt_c4_${tag}`,
      type: 'customer.subscription.updated',
      created: t + 10,
      data: { object: { id: old, status: 'active', metadata: { user_id: user.id } } },
    });
    expect(revived.status).toBe(200);
    expect(stripe.subscriptions.get(old)?.status).toBe('canceled');
    expect(stripe.subscriptions.get(first)?.status).toBe('active');
    expect((await api.call('GET', '/subscriptions/status', { key })).body).toMatchObject({ status: 'active' });
  });
});
