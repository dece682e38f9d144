/**
 * What a renewal sweep does with one community, decided from its billing state alone (pure, so the
 * rules are tested without a database). The sweep then applies the decision with conditional writes.
 */
import { COMMUNITY_PRICING } from './communityTypes';

export type BillingState = 'active' | 'suspended' | 'expired';

export interface BillingSnapshot {
  billingState: BillingState;
  autoRenew: boolean;
  nextBillingAt: string | null;
  /** 1 for the period paid at provisioning, +1 per renewal. */
  periodIndex: number;
}

export type RenewalDecision =
  | { kind: 'not_due' }
  | { kind: 'expire' }
  | { kind: 'charge'; period: number; newPeriodStart: string; nextBillingAt: string };

const PERIOD_MS = COMMUNITY_PRICING.periodDays * 24 * 60 * 60 * 1000;

export const periodEndAfter = (startIso: string): string =>
  new Date(new Date(startIso).getTime() + PERIOD_MS).toISOString();

/**
 * `dueBy` only selects what is due (an operator may sweep ahead of time); `present` is when the
 * payment happens, so it is what a suspended community's new period starts from.
 */
export function decideRenewal(c: BillingSnapshot, dueBy: Date, present: Date = dueBy): RenewalDecision {
  if (c.billingState === 'expired' || !c.nextBillingAt || new Date(c.nextBillingAt) > dueBy) return { kind: 'not_due' };
  // A period may be paid ahead of time, but one that is paid for runs to its end.
  if (!c.autoRenew) return periodEnded(c, present) ? { kind: 'expire' } : { kind: 'not_due' };
  // An active community's periods follow each other without drift however late the sweep runs; a
  // suspended one was not monitored, so its new period starts when the payment finally succeeds
  // (never before the period it pays for was due).
  const paidAt = present.toISOString();
  const newPeriodStart =
    // biome-ignore lint/complexity/useMathMinMax: ISO-8601 timestamps, compared as strings; Math.max would turn them into NaN
    c.billingState === 'suspended' ? (paidAt > c.nextBillingAt ? paidAt : c.nextBillingAt) : c.nextBillingAt;
  return { kind: 'charge', period: c.periodIndex + 1, newPeriodStart, nextBillingAt: periodEndAfter(newPeriodStart) };
}

/**
 * Whether the paid period is over at `present`. A sweep for a later instant renews ahead of time, but only
 * the end of the period may stop monitoring (expire, or suspend when the renewal cannot be paid).
 */
export const periodEnded = (c: Pick<BillingSnapshot, 'nextBillingAt'>, present: Date): boolean =>
  c.nextBillingAt !== null && Date.parse(c.nextBillingAt) <= present.getTime();

/** One charge id per community and period: however many sweeps try, the wallet applies it once. */
export const renewalChargeId = (communityId: string, period: number): string =>
  `community-${communityId}-period-${period}`;
