import { describe, expect, it } from 'vitest';
import type { GoalPlan } from '#shared/domain/growth/plan';
import { creditsTotal, estimateDelivered, externalCredits, priceBreakdown } from '#shared/domain/growth/pricing';
import { canonicalJson, planFingerprint } from '#shared/domain/growth/signature';
import { resolveGoal } from '#shared/domain/growth/planner';
import { executionPath } from '#shared/domain/growth/coverage';
import { reloadConfig } from '#shared/config/config';

const plan = (over: Partial<GoalPlan> = {}): GoalPlan => ({
  ...resolveGoal({
    planId: '01938a6e-0000-7000-8000-000000000001',
    issuedAt: '2026-11-22T07:00:00.000Z',
    goalText: 'Find emails at these companies',
    constraints: {},
    icpConfig: null,
    assets: { companies: [{ domain: 'acme.com' }, { domain: 'globex.io' }], contacts: [] },
    coverageMode: 'needs_enrichment',
  }).goal_plan,
  ...over,
});

describe('priceBreakdown', () => {
  it('prices each capability at the published unit price, for the most the run can consume', () => {
    const lines = priceBreakdown(plan());
    // 2 companies, up to 5 contacts each: 10 found (2 each), 10 looked up (3 each), 10 verified (1 each).
    expect(lines).toEqual([
      { capability: 'contact_discovery', units: 10, unit_credits: 2, credits: 20, external: false },
      { capability: 'email_lookup', units: 10, unit_credits: 3, credits: 30, external: true },
      { capability: 'email_verify', units: 10, unit_credits: 1, credits: 10, external: true },
      { capability: 'deliverable_finalize', units: 0, unit_credits: 0, credits: 0, external: false },
    ]);
    expect(creditsTotal(lines)).toBe(60);
    expect(externalCredits(lines)).toBe(40);
  });

  it('counts as external spend only what a listed provider would be asked: none listed, none spent; ZeroBounce alone, verification only', () => {
    const saved = process.env.ENRICHMENT_PROVIDERS;
    try {
      process.env.ENRICHMENT_PROVIDERS = 'none';
      reloadConfig();
      expect(externalCredits(priceBreakdown(plan()))).toBe(0);
      expect(executionPath('needs_enrichment', plan().capabilities).fallback_capabilities).toEqual([]);
      process.env.ENRICHMENT_PROVIDERS = 'zerobounce';
      reloadConfig();
      expect(
        priceBreakdown(plan())
          .filter((l) => l.external)
          .map((l) => l.capability),
      ).toEqual(['email_verify']);
      expect(executionPath('needs_enrichment', plan().capabilities).fallback_capabilities).toEqual(['email_verify']);
    } finally {
      if (saved === undefined) delete process.env.ENRICHMENT_PROVIDERS;
      else process.env.ENRICHMENT_PROVIDERS = saved;
      reloadConfig();
    }
  });

  it('estimates deliveries below the price volumes', () => {
    const d = estimateDelivered(plan());
    expect(d).toEqual({
      companies: 2,
      contacts: 10,
      emails_found: 6,
      verified_emails: 4,
      enriched_contacts: 10,
      rows: 10,
    });
  });
});

describe('planFingerprint', () => {
  it('ignores key order and capability order but not content or owner', () => {
    const p = plan();
    const reordered = { ...p, capabilities: [...p.capabilities].reverse() } as GoalPlan;
    expect(planFingerprint('u1', reordered)).toBe(planFingerprint('u1', p));
    expect(planFingerprint('u2', p)).not.toBe(planFingerprint('u1', p));
    const edited = { ...p, input_assets: { ...p.input_assets, companies: [{ domain: 'acme.com' }] } };
    expect(planFingerprint('u1', edited)).not.toBe(planFingerprint('u1', p));
  });

  it('writes canonical JSON with sorted keys', () => {
    expect(canonicalJson({ b: 1, a: [{ d: null, c: 'x' }], e: undefined })).toBe('{"a":[{"c":"x","d":null}],"b":1}');
  });
});
