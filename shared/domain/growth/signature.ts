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
