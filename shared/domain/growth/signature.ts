/**
 * A plan's fingerprint: SHA-256 of its canonical JSON (keys sorted), bound to the user it was
 * issued to. Resolve stores it; quote and run recompute it, so any edit to the plan, or a plan
 * lifted from another account, no longer matches.
 */
import { sha256Hex } from '#shared/ids';
import { canonicalJson } from '#shared/json';
import { normalizeGoalPlan, type GoalPlan } from './plan';

export { canonicalJson };

export const planFingerprint = (userId: string, plan: GoalPlan): string =>
  sha256Hex(`${userId}\n${canonicalJson(normalizeGoalPlan(plan))}`);

/**
 * What a growth quote token is bound to (the quote module keeps its hash): the plan as this user was issued
 * it; no plan (one that does not parse) matches no quote.
 */
export const quotedPlan = (userId: string, plan: GoalPlan | undefined) => ({
  plan_fingerprint: plan ? planFingerprint(userId, plan) : null,
});
