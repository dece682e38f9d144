import { describe, expect, it } from 'vitest';
import { stripeSignatures as loadStripeSignatures } from '#shared/adapters/stripeSignatures';
import { chargeCredits } from '#shared/domain/credits/credits';
import { getUser } from '#shared/store/usersRepo';
import { startTestApi } from '#test/support/api';

const stripeSignatures = await loadStripeSignatures();

const api = await startTestApi();
const secret = process.env.STRIPE_WEBHOOK_SECRET!;

function signed(event: object, options: { secret?: string; timestamp?: number } = {}) {
  const payload = JSON.stringify(event);
  const signature = stripeSignatures.generateTestHeaderString({
    payload,
    secret: options.secret ?? secret,
    timestamp: options.timestamp,
  });
  return { rawBody: payload, headers: { 'stripe-signature': signature, 'content-type': 'application/json' } };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

async function subscribeThroughLocalCheckout(key: string, addOns: string[] = []) {
  const session = await api.call('POST', '/subscriptions/checkout-session', {
    key,
    body: { tier: 'pro', add_ons: addOns },
  });
  expect(session.status).toBe(200);
  const page = await api.call('GET', session.body.checkout_url);
  expect(page.status).toBe(200);
  expect(page.text).toContain('<button type="submit">Pay</button>');
  const paid = await api.call('POST', `${session.body.checkout_url}/pay`);
  expect(paid.status).toBe(200);
  expect(paid.text).toContain('Payment complete');
  return session.body;
}

describe('subscription status', () => {
  it('shows a developer account with null period fields and zero cost', async () => {
    const { key } = await api.newUser({ credits: 40 });
    const res = await api.call('GET', '/subscriptions/status', { key });
    expect(res.body).toEqual({
      tier: 'developer',
      status: 'inactive',
      credits_total: 40,
      credits_expiring: null,
      monthly_cost: 0,
      addons: [],
      addon_quantities: {},
      next_billing_date: null,
      current_period_start: null,
      current_period_end: null,
    });
  });
});

describe('checkout and the payment webhook (local checkout, signed like Stripe)', () => {
  it('activates pro with period credits and add-ons after Pay, and unlocks paid endpoints', async () => {
    const { key } = await api.newUser({ credits: 5 });
    const session = await subscribeThroughLocalCheckout(key, ['credits_10k', 'credits_10k', 'credits_50k']);
    expect(session.checkout_session_id).toMatch(/^cs_local_/);
    const status = (await api.call('GET', '/subscriptions/status', { key })).body;
    expect(status).toMatchObject({
      tier: 'pro',
      status: 'active',
      credits_total: 5 + 10_000 + 20_000 + 50_000,
      monthly_cost: 99 + 2 * 49 + 199,
      addons: ['credits_10k', 'credits_50k'],
      addon_quantities: { credits_10k: 2, credits_50k: 1 },
    });
    expect(status.credits_expiring).toBe(status.current_period_end);
    expect(Date.parse(status.current_period_end) - Date.parse(status.current_period_start)).toBeGreaterThan(
      27 * 86_400_000,
    );
    const me = (await api.call('GET', '/users/me', { key })).body;
    expect(me).toMatchObject({ subscription_tier: 'pro', subscription_status: 'active', permanent_credit_balance: 5 });
    const usage = (await api.call('GET', '/credits/usage', { key })).body;
    expect(usage.allowance).toBe(80_000);
  });

  it('pays a local checkout once: a second Pay changes nothing', async () => {
    const { key } = await api.newUser();
    const session = await subscribeThroughLocalCheckout(key);
    const again = await api.call('POST', `${session.checkout_url}/pay`);
    expect(again.text).toContain('Already paid');
    expect((await api.call('GET', '/subscriptions/status', { key })).body.credits_total).toBe(10_000);
  });

  it('refuses an unknown add-on and a tier other than pro with 400', async () => {
    const { key } = await api.newUser();
    expect(
      (
        await api.call('POST', '/subscriptions/checkout-session', {
          key,
          body: { tier: 'pro', add_ons: ['credits_1m'] },
        })
      ).status,
    ).toBe(400);
    expect(
      (await api.call('POST', '/subscriptions/checkout-session', { key, body: { tier: 'developer' } })).status,
    ).toBe(400);
    expect((await api.call('POST', '/subscriptions/checkout-session', { key, body: {} })).status).toBe(400);
  });

  it('rejects a webhook with a bad or stale signature (400) and applies nothing', async () => {
    const { key, user } = await api.newUser();
    const event = {
      id: `evt_${user.id}`,
      type: 'checkout.session.completed',
      created: nowSeconds(),
      data: { object: { id: 'cs_x', client_reference_id: user.id, metadata: {} } },
    };
    const forged = signed(event, { secret: 'whsec_wrong' });
    expect((await api.call('POST', '/webhooks/stripe', forged)).status).toBe(400);
    const stale = signed(event, { timestamp: nowSeconds() - 600 });
    expect((await api.call('POST', '/webhooks/stripe', stale)).status).toBe(400);
    expect(
      (
        await api.call('POST', '/webhooks/stripe', {
          rawBody: JSON.stringify(event),
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(400);
    expect((await api.call('GET', '/subscriptions/status', { key })).body.tier).toBe('developer');
  });

  it('applies each event id once, even when delivered twice in parallel', async () => {
    const { key, user } = await api.newUser();
    const event = {
      id: `evt_dup_${user.id}`,
      type: 'checkout.session.completed',
      created: nowSeconds(),
      data: {
        object: {
          id: `cs_${user.id}`,
          client_reference_id: user.id,
          subscription: `sub_${user.id}`,
          metadata: { add_ons: '' },
        },
      },
    };
    const deliveries = await Promise.all([1, 2, 3].map(() => api.call('POST', '/webhooks/stripe', signed(event))));
    expect(deliveries.map((d) => d.status)).toEqual([200, 200, 200]);
    expect(deliveries.filter((d) => d.body.duplicate === false)).toHaveLength(1);
    expect((await api.call('GET', '/subscriptions/status', { key })).body.credits_total).toBe(10_000);
  });

  it('renews on invoice.paid with a new period grant, mirrors past_due, and downgrades at period end after deletion', async () => {
    const { key, user } = await api.newUser();
    const sub = `sub_cycle_${user.id}`;
    await api.call(
      'POST',
      '/webhooks/stripe',
      signed({
        id: `evt_a_${user.id}`,
        type: 'checkout.session.completed',
        created: nowSeconds(),
        data: { object: { id: 'cs', client_reference_id: user.id, subscription: sub, metadata: {} } },
      }),
    );
    await chargeCredits({ userId: user.id, amount: 4000, toolName: 'test', refId: 'r', chargeId: `spend-${user.id}` });
    const start = nowSeconds() + 60;
    const end = start + 30 * 86_400;
    const renewal = await api.call(
      'POST',
      '/webhooks/stripe',
      signed({
        id: `evt_b_${user.id}`,
        type: 'invoice.paid',
        created: nowSeconds(),
        data: {
          object: {
            id: 'in_1',
            subscription: sub,
            billing_reason: 'subscription_cycle',
            lines: { data: [{ period: { start, end } }] },
          },
        },
      }),
    );
    expect(renewal.status).toBe(200);
    let status = (await api.call('GET', '/subscriptions/status', { key })).body;
    expect(status.credits_total).toBe(6000 + 10_000);
    expect(status.current_period_end).toBe(new Date(end * 1000).toISOString());

    await api.call(
      'POST',
      '/webhooks/stripe',
      signed({
        id: `evt_c_${user.id}`,
        type: 'customer.subscription.updated',
        created: nowSeconds(),
        data: { object: { id: sub, status: 'past_due' } },
      }),
    );
    status = (await api.call('GET', '/subscriptions/status', { key })).body;
    expect(status.status).toBe('past_due');

    const endedAt = nowSeconds() - 1;
    await api.call(
      'POST',
      '/webhooks/stripe',
      signed({
        id: `evt_d_${user.id}`,
        type: 'customer.subscription.deleted',
        created: nowSeconds(),
        data: { object: { id: sub, status: 'canceled', current_period_end: endedAt } },
      }),
    );
    const me = (await api.call('GET', '/users/me', { key })).body;
    expect(me).toMatchObject({ subscription_status: 'canceled', subscription_tier: 'developer' });
    // PATCH answers the same profile as GET, downgrade included.
    const patched = await api.call('PATCH', '/users/me', { key, body: { full_name: 'After the downgrade' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...me, full_name: 'After the downgrade' });
  });

  it('does not stack a second subscription or grant when a second checkout is paid, and leaves that session payable', async () => {
    const { key } = await api.newUser();
    const first = (await api.call('POST', '/subscriptions/checkout-session', { key, body: { tier: 'pro' } })).body;
    const second = (await api.call('POST', '/subscriptions/checkout-session', { key, body: { tier: 'pro' } })).body;
    expect((await api.call('POST', `${first.checkout_url}/pay`)).status).toBe(200);
    const refused = await api.call('POST', `${second.checkout_url}/pay`);
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('invalid_state');
    // Not applied, so not paid: the page still offers Pay.
    expect((await api.call('GET', second.checkout_url)).text).toContain('<button type="submit">Pay</button>');
    const status = (await api.call('GET', '/subscriptions/status', { key })).body;
    expect(status).toMatchObject({ tier: 'pro', status: 'active', credits_total: 10_000 });
  });

  it('refuses a checkout while a subscription is active (409 subscription_active), and allows one again after it ends', async () => {
    const { key, user } = await api.newUser();
    await subscribeThroughLocalCheckout(key);
    const refused = await api.call('POST', '/subscriptions/checkout-session', { key, body: { tier: 'pro' } });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'subscription_active' });
    const subscription = (await getUser(user.id))?.stripeSubscriptionId;
    expect(subscription).toBeTruthy();
    await api.call(
      'POST',
      '/webhooks/stripe',
      signed({
        id: `evt_end_${user.id}`,
        type: 'customer.subscription.updated',
        created: nowSeconds(),
        data: { object: { id: subscription, status: 'canceled' } },
      }),
    );
    const again = await api.call('POST', '/subscriptions/checkout-session', { key, body: { tier: 'pro' } });
    expect(again.status).toBe(200);
  });

  it("takes a renewal's period from its subscription line, not from a proration listed before it", async () => {
    const { key, user } = await api.newUser();
    const sub = `sub_prorated_${user.id}`;
    const post = (event: object) => api.call('POST', '/webhooks/stripe', signed(event));
    await post({
      id: `evt_p1_${user.id}`,
      type: 'checkout.session.completed',
      created: nowSeconds(),
      data: { object: { id: 'cs', client_reference_id: user.id, subscription: sub, metadata: {} } },
    });
    // The new period began a minute ago.
    const start = nowSeconds() - 60;
    const end = start + 30 * 86_400;
    // An add-on bought mid-period in Stripe's portal is billed with the next renewal, as a proration first.
    const proration = { period: { start: start - 10 * 86_400, end: start }, proration: true };
    const renewal = await post({
      id: `evt_p2_${user.id}`,
      type: 'invoice.paid',
      created: nowSeconds(),
      data: {
        object: {
          id: 'in_prorated',
          subscription: sub,
          billing_reason: 'subscription_cycle',
          lines: { data: [proration, { period: { start, end }, proration: false }] },
        },
      },
    });
    expect(renewal.status).toBe(200);
    const status = (await api.call('GET', '/subscriptions/status', { key })).body;
    expect(status.current_period_end).toBe(new Date(end * 1000).toISOString());
    // The new period's 10,000 credits beside the first period's: they expire with the new period, not at its start
    // (the proration's end, already past).
    expect(status.credits_total).toBe(20_000);
  });

  it('grants a period only for an invoice that starts one: a mid-period invoice (an upgrade prorated) grants nothing', async () => {
    const { key, user } = await api.newUser();
    const sub = `sub_mid_${user.id}`;
    const t = nowSeconds();
    const post = (event: object) => api.call('POST', '/webhooks/stripe', signed(event));
    await post({
      id: `evt_m1_${user.id}`,
      type: 'checkout.session.completed',
      created: t - 86_400,
      data: { object: { id: 'cs', client_reference_id: user.id, subscription: sub, metadata: {} } },
    });
    const before = (await api.call('GET', '/subscriptions/status', { key })).body;
    expect(before.credits_total).toBe(10_000);
    // An add-on bought mid-period, invoiced at once: its line runs from the change to the period's end.
    const prorated = await post({
      id: `evt_m2_${user.id}`,
      type: 'invoice.paid',
      created: t,
      data: {
        object: {
          id: 'in_proration',
          subscription: sub,
          billing_reason: 'subscription_update',
          lines: { data: [{ period: { start: t, end: Math.floor(Date.parse(before.current_period_end) / 1000) } }] },
        },
      },
    });
    expect(prorated.status).toBe(200);
    expect((await api.call('GET', '/subscriptions/status', { key })).body).toMatchObject({
      credits_total: 10_000,
      current_period_start: before.current_period_start,
      current_period_end: before.current_period_end,
    });
  });

  it('ignores a subscription update older than the last one applied (Stripe does not promise order)', async () => {
    const { key, user } = await api.newUser();
    const sub = `sub_order_${user.id}`;
    const t = nowSeconds();
    await api.call(
      'POST',
      '/webhooks/stripe',
      signed({
        id: `evt_o1_${user.id}`,
        type: 'checkout.session.completed',
        created: t - 100,
        data: { object: { id: 'cs', client_reference_id: user.id, subscription: sub, metadata: {} } },
      }),
    );
    const newer = await api.call(
      'POST',
      '/webhooks/stripe',
      signed({
        id: `evt_o2_${user.id}`,
        type: 'customer.subscription.updated',
        created: t,
        data: { object: { id: sub, status: 'active' } },
      }),
    );
    const older = await api.call(
      'POST',
      '/webhooks/stripe',
      signed({
        id: `evt_o3_${user.id}`,
        type: 'customer.subscription.updated',
        created: t - 50,
        data: { object: { id: sub, status: 'past_due' } },
      }),
    );
    expect([newer.status, older.status]).toEqual([200, 200]);
    expect((await api.call('GET', '/subscriptions/status', { key })).body.status).toBe('active');
  });

  it('keeps a deleted subscription canceled when older events about it arrive late (an update, a retried invoice.paid)', async () => {
    const { key, user } = await api.newUser();
    const sub = `sub_late_${user.id}`;
    const t = nowSeconds();
    const periodEnd = t + 20 * 86_400;
    const post = (event: object) => api.call('POST', '/webhooks/stripe', signed(event));
    await post({
      id: `evt_l1_${user.id}`,
      type: 'checkout.session.completed',
      created: t - 100,
      data: { object: { id: 'cs', client_reference_id: user.id, subscription: sub, metadata: {} } },
    });
    await post({
      id: `evt_l2_${user.id}`,
      type: 'customer.subscription.deleted',
      created: t,
      data: { object: { id: sub, status: 'canceled', current_period_end: periodEnd } },
    });
    const canceled = (await api.call('GET', '/subscriptions/status', { key })).body;
    expect(canceled).toMatchObject({ status: 'canceled', monthly_cost: 0, next_billing_date: null });

    // Stripe does not promise order, and retries a delivery that failed: both were created before the deletion.
    const lateUpdate = await post({
      id: `evt_l3_${user.id}`,
      type: 'customer.subscription.updated',
      created: t - 50,
      data: { object: { id: sub, status: 'active' } },
    });
    const lateInvoice = await post({
      id: `evt_l4_${user.id}`,
      type: 'invoice.paid',
      created: t - 40,
      data: {
        object: {
          id: 'in_late',
          subscription: sub,
          billing_reason: 'subscription_cycle',
          lines: { data: [{ period: { start: t - 40, end: periodEnd } }] },
        },
      },
    });
    expect([lateUpdate.status, lateInvoice.status]).toEqual([200, 200]);
    expect((await api.call('GET', '/subscriptions/status', { key })).body).toMatchObject({
      status: 'canceled',
      monthly_cost: 0,
      next_billing_date: null,
    });
    // Still canceled, so the paid endpoints stay closed.
    const execute = await api.call('POST', '/intelligence/execute', {
      key,
      body: { package_id: 'vc-shortlist-v1', slots: { sector_focus: 'defi', stage: 'seed' }, quote_token: 'qt_x' },
    });
    expect(execute.status).toBe(403);
  });

  it('keeps a subscription deleted before its checkout was delivered from making the account pro', async () => {
    const { key, user } = await api.newUser();
    const sub = `sub_gone_${user.id}`;
    const t = nowSeconds();
    const post = (event: object) => api.call('POST', '/webhooks/stripe', signed(event));
    // The endpoint was down: Stripe delivers the deletion first, then retries the checkout it created earlier.
    const deleted = await post({
      id: `evt_g1_${user.id}`,
      type: 'customer.subscription.deleted',
      created: t,
      data: { object: { id: sub, status: 'canceled', current_period_end: t, metadata: { user_id: user.id } } },
    });
    const completed = await post({
      id: `evt_g2_${user.id}`,
      type: 'checkout.session.completed',
      created: t - 60,
      data: { object: { id: `cs_gone_${user.id}`, client_reference_id: user.id, subscription: sub, metadata: {} } },
    });
    expect([deleted.status, completed.status]).toEqual([200, 200]);
    expect((await api.call('GET', '/subscriptions/status', { key })).body).toMatchObject({
      tier: 'developer',
      status: 'inactive',
      credits_total: 0,
    });
  });

  it('lets the end of a past_due subscription leave alone the new subscription that replaced it', async () => {
    const { key, user } = await api.newUser();
    const old = `sub_old_${user.id}`;
    const replacement = `sub_new_${user.id}`;
    const t = nowSeconds();
    const post = (event: object) => api.call('POST', '/webhooks/stripe', signed(event));
    await post({
      id: `evt_r1_${user.id}`,
      type: 'checkout.session.completed',
      created: t - 300,
      data: { object: { id: 'cs_1', client_reference_id: user.id, subscription: old, metadata: {} } },
    });
    await post({
      id: `evt_r2_${user.id}`,
      type: 'customer.subscription.updated',
      created: t - 200,
      data: { object: { id: old, status: 'past_due' } },
    });
    // Not active any more, so the customer may subscribe again: a second checkout, a new subscription.
    const session = await api.call('POST', '/subscriptions/checkout-session', { key, body: { tier: 'pro' } });
    expect(session.status).toBe(200);
    await post({
      id: `evt_r3_${user.id}`,
      type: 'checkout.session.completed',
      created: t - 100,
      data: { object: { id: 'cs_2', client_reference_id: user.id, subscription: replacement, metadata: {} } },
    });
    expect((await api.call('GET', '/subscriptions/status', { key })).body).toMatchObject({
      tier: 'pro',
      status: 'active',
    });

    // Stripe gives up on the unpaid old subscription: it becomes unpaid, then is deleted.
    await post({
      id: `evt_r4_${user.id}`,
      type: 'customer.subscription.updated',
      created: t - 50,
      data: { object: { id: old, status: 'unpaid' } },
    });
    await post({
      id: `evt_r5_${user.id}`,
      type: 'customer.subscription.deleted',
      created: t,
      data: { object: { id: old, status: 'canceled', current_period_end: t - 1 } },
    });
    expect((await api.call('GET', '/users/me', { key })).body).toMatchObject({
      subscription_tier: 'pro',
      subscription_status: 'active',
    });
    expect((await api.call('GET', '/subscriptions/status', { key })).body).toMatchObject({
      tier: 'pro',
      status: 'active',
      monthly_cost: 99,
    });
  });

  it('grants nothing for a checkout completed before its payment arrived, and activates when the payment succeeds', async () => {
    const { key, user } = await api.newUser();
    const sub = `sub_async_${user.id}`;
    const session = { id: `cs_async_${user.id}`, client_reference_id: user.id, subscription: sub, metadata: {} };
    const post = (event: object) => api.call('POST', '/webhooks/stripe', signed(event));
    // A delayed payment method (ACH or SEPA debit): the checkout completes, the money has not arrived and may never.
    const completed = await post({
      id: `evt_u1_${user.id}`,
      type: 'checkout.session.completed',
      created: nowSeconds(),
      data: { object: { ...session, payment_status: 'unpaid' } },
    });
    expect(completed.status).toBe(200);
    expect((await api.call('GET', '/subscriptions/status', { key })).body).toMatchObject({
      tier: 'developer',
      status: 'inactive',
      credits_total: 0,
    });
    const succeeded = await post({
      id: `evt_u2_${user.id}`,
      type: 'checkout.session.async_payment_succeeded',
      created: nowSeconds(),
      data: { object: { ...session, payment_status: 'paid' } },
    });
    expect(succeeded.status).toBe(200);
    expect((await api.call('GET', '/subscriptions/status', { key })).body).toMatchObject({
      tier: 'pro',
      status: 'active',
      credits_total: 10_000,
    });
  });

  it('acknowledges events it does not handle', async () => {
    const res = await api.call(
      'POST',
      '/webhooks/stripe',
      signed({ id: `evt_other_${Date.now()}`, type: 'customer.created', created: nowSeconds(), data: { object: {} } }),
    );
    expect(res.status).toBe(200);
    expect(res.body.received).toBe(true);
  });
});

describe('credit usage', () => {
  it('reports the ledger by tool and by day over the default 30 days', async () => {
    const { key, user } = await api.newUser({ credits: 1000 });
    await chargeCredits({ userId: user.id, amount: 200, toolName: 'vc-shortlist-v1', refId: 'r1', chargeId: 'u1' });
    await chargeCredits({
      userId: user.id,
      amount: 75,
      toolName: 'company-people-discovery-v1',
      refId: 'r2',
      chargeId: 'u2',
    });
    const res = await api.call('GET', '/credits/usage', { key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      total_used: 275,
      top_tool: 'vc-shortlist-v1',
      allowance: null,
      percentage_used: null,
    });
    expect(res.body.by_day).toHaveLength(31);
    expect(res.body.by_day.at(-1)).toEqual({ date: new Date().toISOString().slice(0, 10), credits: 275 });
    expect(res.body.by_tool).toEqual([
      { tool_name: 'vc-shortlist-v1', credits: 200 },
      { tool_name: 'company-people-discovery-v1', credits: 75 },
    ]);
  });

  it('rejects malformed dates and inverted ranges with 400', async () => {
    const { key } = await api.newUser();
    for (const q of ['start_date=2026-13-01', 'end_date=yesterday', 'start_date=2026-11-10&end_date=2026-11-01']) {
      expect((await api.call('GET', `/credits/usage?${q}`, { key })).status, q).toBe(400);
    }
  });

  it('answers a range ending on the last accepted day, 9999-12-31, instead of failing on the day after it', async () => {
    const { key } = await api.newUser();
    for (const q of [
      'start_date=9999-12-31&end_date=9999-12-31',
      'end_date=9999-12-31',
      'start_date=9999-12-01&end_date=9999-12-31',
    ]) {
      const res = await api.call('GET', `/credits/usage?${q}`, { key });
      expect(res.status, q).toBe(200);
      expect(res.body.end_date, q).toBe('9999-12-31');
      expect(res.body.by_day.at(-1), q).toEqual({ date: '9999-12-31', credits: 0 });
    }
  });
});
