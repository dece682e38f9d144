import type { UserRecord } from '#shared/store/usersRepo';
import type { BalanceView } from '#shared/domain/credits/credits';
import { ADD_ON_TYPES, monthlyCostUsd, type AddOnQuantities } from '#shared/domain/billing/plans';

export function profileView(user: UserRecord, balance: BalanceView) {
  return {
    id: user.id,
    email: user.email,
    full_name: user.fullName,
    is_active: user.isActive,
    role: user.role,
    subscription_tier: user.tier,
    subscription_status: user.subscriptionStatus,
    current_period_end: user.tier === 'pro' ? user.currentPeriodEnd : null,
    permanent_credit_balance: balance.permanent,
    api_key_last_four: user.apiKeyLastFour,
    referral_code: user.referralCode,
  };
}

const activeAddOns = (q: AddOnQuantities) => ADD_ON_TYPES.filter((t) => (q[t] ?? 0) > 0);

export function subscriptionView(user: UserRecord, balance: BalanceView) {
  const paying = user.tier === 'pro';
  const quantities = paying ? (user.addOns ?? {}) : {};
  return {
    tier: user.tier,
    status: user.subscriptionStatus,
    credits_total: balance.available,
    credits_expiring: balance.earliestExpiry,
    monthly_cost: paying && user.subscriptionStatus !== 'canceled' ? monthlyCostUsd(quantities) : 0,
    addons: activeAddOns(quantities),
    addon_quantities: Object.fromEntries(activeAddOns(quantities).map((t) => [t, quantities[t] ?? 0])),
    next_billing_date: paying && user.subscriptionStatus === 'active' ? user.currentPeriodEnd : null,
    current_period_start: paying ? user.currentPeriodStart : null,
    current_period_end: paying ? user.currentPeriodEnd : null,
  };
}
