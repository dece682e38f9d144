import { now } from '../../adapters/ports';
import type { UserRecord } from '../../store/usersRepo';
import { ledgerBetween } from '../credits/credits';
import { periodAllowance } from '../billing/plans';
import { summarizeUsage, usageRange } from './usage';

export async function creditUsage(user: UserRecord, startDate?: string, endDate?: string) {
  const range = usageRange(now(), startDate, endDate);
  const entries = await ledgerBetween(user.id, range.fromIso, range.toIso);
  const allowance = user.tier === 'pro' && user.subscriptionStatus === 'active' ? periodAllowance(user.addOns ?? {}) : null;
  return summarizeUsage(entries, range, allowance);
}
