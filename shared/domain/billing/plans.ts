import type { StripePriceSetting } from '#shared/config/config';

/** Plans and add-ons as data. Prices in USD; credits granted per billing period. */
export const PRO_PLAN = {
  tier: 'pro',
  monthlyUsd: 99,
  periodCredits: 10_000,
  stripePriceEnv: 'STRIPE_PRICE_PRO',
} as const satisfies Record<string, unknown> & { stripePriceEnv: StripePriceSetting };

export const ADD_ONS = {
  credits_10k: { periodCredits: 10_000, monthlyUsd: 49, stripePriceEnv: 'STRIPE_PRICE_CREDITS_10K' },
  credits_50k: { periodCredits: 50_000, monthlyUsd: 199, stripePriceEnv: 'STRIPE_PRICE_CREDITS_50K' },
  // A price's variable is one of the configuration's (shared/config/config.ts), or this does not compile.
} as const satisfies Record<string, Record<string, unknown> & { stripePriceEnv: StripePriceSetting }>;

export type AddOnType = keyof typeof ADD_ONS;
export const ADD_ON_TYPES = Object.keys(ADD_ONS) as AddOnType[];
export type AddOnQuantities = Partial<Record<AddOnType, number>>;

export function countAddOns(addOns: readonly AddOnType[]): AddOnQuantities {
  const quantities: AddOnQuantities = {};
  for (const a of addOns) quantities[a] = (quantities[a] ?? 0) + 1;
  return quantities;
}

/** One priced item of a subscription: the setting holding its Stripe price's id, and how many. */
export interface CheckoutLine {
  priceSetting: StripePriceSetting;
  quantity: number;
}

/** What a checkout bills: the plan once, then each add-on (in the order first asked for) with its count. */
export function checkoutLines(addOns: readonly AddOnType[]): CheckoutLine[] {
  return [
    { priceSetting: PRO_PLAN.stripePriceEnv, quantity: 1 },
    ...[...new Set(addOns)].map((type) => ({
      priceSetting: ADD_ONS[type].stripePriceEnv,
      quantity: addOns.filter((a) => a === type).length,
    })),
  ];
}

export function monthlyCostUsd(quantities: AddOnQuantities): number {
  const addOns = ADD_ON_TYPES.reduce((sum, t) => sum + (quantities[t] ?? 0) * ADD_ONS[t].monthlyUsd, 0);
  return Math.round((PRO_PLAN.monthlyUsd + addOns) * 100) / 100;
}

/** The period grants a paid period brings: the plan's credits plus each add-on's. */
export function periodGrants(quantities: AddOnQuantities): { source: string; amount: number }[] {
  const grants: { source: string; amount: number }[] = [{ source: 'pro', amount: PRO_PLAN.periodCredits }];
  for (const t of ADD_ON_TYPES) {
    const n = quantities[t] ?? 0;
    if (n > 0) grants.push({ source: t, amount: n * ADD_ONS[t].periodCredits });
  }
  return grants;
}

export function periodAllowance(quantities: AddOnQuantities): number {
  return periodGrants(quantities).reduce((sum, g) => sum + g.amount, 0);
}

/** One calendar month after `start`, as Stripe bills monthly plans. */
export function addOneMonth(start: Date): Date {
  const end = new Date(start.getTime());
  end.setUTCMonth(end.getUTCMonth() + 1);
  return end;
}
