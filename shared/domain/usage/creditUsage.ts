import { now } from '#shared/adapters/ports';
import type { UserRecord } from '#shared/store/usersRepo';
import { ledgerBetween } from '#shared/domain/credits/credits';
import { periodAllowance } from '#shared/domain/billing/plans';
import { summarizeUsage, usageRange } from './usage';

export async function creditUsage(user: UserRecord, startDate?: string, endDate?: string) {
  const range = usageRange(now(), startDate, endDate);
  const entries = await ledgerBetween(user.id, range.fromIso, range.toIso);
  // The allowance is what a paid subscription grants each period; an operator-made pro account without
  // one (the demo account) has none.
  const paying = user.tier === 'pro' && user.subscriptionStatus === 'active' && user.stripeSubscriptionId !== null;
  const allowance = paying ? periodAllowance(user.addOns ?? {}) : null;
  return summarizeUsage(entries, range, allowance);
}
