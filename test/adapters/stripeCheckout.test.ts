import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { StripePayments } from '#shared/adapters/payments';
import { reloadConfig } from '#shared/config/config';
import { checkoutLines } from '#shared/domain/billing/plans';
import { startStripeStandIn } from '#bin/standIns/stripeStandIn';

/**
 * The payments adapter bills the lines it is given (the plans decide them) against the recording
 * Stripe stand-in: each line's price id from its setting, its quantity, in order.
 */
const SECRET_KEY = 'sk_test_checkout_lines';
const PRICES = {
  STRIPE_PRICE_PRO: 'price_pro',
  STRIPE_PRICE_CREDITS_10K: 'price_10k',
  STRIPE_PRICE_CREDITS_50K: 'price_50k',
};
const saved = Object.fromEntries(Object.keys(PRICES).map((n) => [n, process.env[n]]));
const stripe = await startStripeStandIn(SECRET_KEY);

afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  reloadConfig();
});
afterAll(() => stripe.close());

describe('Stripe checkout', () => {
  it('opens a subscription session billing the given lines', async () => {
    Object.assign(process.env, PRICES);
    reloadConfig();
    const payments = new StripePayments(async () => SECRET_KEY, { apiBase: stripe.apiBase });
    const addOns = ['credits_50k', 'credits_10k', 'credits_50k'] as const;
    const session = await payments.createCheckoutSession({
      userId: 'user_1',
      email: 'buyer@example.com',
      addOns: [...addOns],
      lines: checkoutLines(addOns),
      baseUrl: 'http://localhost:3000/api/v1',
    });
    expect(session.url).toContain(session.id);
    const form = stripe.calls.at(-1)?.form ?? {};
    expect(form).toMatchObject({
      mode: 'subscription',
      'line_items[0][price]': 'price_pro',
      'line_items[0][quantity]': '1',
      'line_items[1][price]': 'price_50k',
      'line_items[1][quantity]': '2',
      'line_items[2][price]': 'price_10k',
      'line_items[2][quantity]': '1',
      'metadata[add_ons]': 'credits_50k,credits_10k,credits_50k',
    });
    expect(form['line_items[3][price]']).toBeUndefined();
  });

  it('refuses a line whose price is not configured', async () => {
    Object.assign(process.env, PRICES);
    delete process.env.STRIPE_PRICE_CREDITS_10K;
    reloadConfig();
    const payments = new StripePayments(async () => SECRET_KEY, { apiBase: stripe.apiBase });
    await expect(
      payments.createCheckoutSession({
        userId: 'user_1',
        email: 'buyer@example.com',
        addOns: ['credits_10k'],
        lines: checkoutLines(['credits_10k']),
        baseUrl: 'http://localhost:3000/api/v1',
      }),
    ).rejects.toThrow('STRIPE_PRICE_CREDITS_10K is not set');
  });
});
