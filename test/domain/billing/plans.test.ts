import { describe, expect, it } from 'vitest';
import { checkoutLines } from '#shared/domain/billing/plans';

describe('checkout lines', () => {
  it('bill the plan once, then each add-on in the order first asked for, with its count', () => {
    expect(checkoutLines(['credits_50k', 'credits_10k', 'credits_50k'])).toEqual([
      { priceSetting: 'STRIPE_PRICE_PRO', quantity: 1 },
      { priceSetting: 'STRIPE_PRICE_CREDITS_50K', quantity: 2 },
      { priceSetting: 'STRIPE_PRICE_CREDITS_10K', quantity: 1 },
    ]);
  });

  it('are the plan alone without add-ons', () => {
    expect(checkoutLines([])).toEqual([{ priceSetting: 'STRIPE_PRICE_PRO', quantity: 1 }]);
  });
});
