/**
 * A plan's fingerprint: SHA-256 of its canonical JSON (keys sorted), bound to the user it was
 * issued to. Resolve stores it; quote and run recompute it, so any edit to the plan, or a plan
 * lifted from another account, no longer matches.
 */
import { sha256Hex } from '../../ids';
import { normalizeGoalPlan, type GoalPlan } from './plan';

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export const planFingerprint = (userId: string, plan: GoalPlan): string => sha256Hex(`${userId}\n${canonicalJson(normalizeGoalPlan(plan))}`);
