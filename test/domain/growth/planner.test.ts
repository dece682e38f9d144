import { describe, expect, it } from 'vitest';
import { classifyGoal } from '#shared/domain/growth/classify';
import { coverageModeOf, executionPath } from '#shared/domain/growth/coverage';
import type { NormalizedAssets } from '#shared/domain/growth/normalize';
import { resolveGoal, type PlanningInput } from '#shared/domain/growth/planner';
import { goalPlanSchema } from '#shared/domain/growth/plan';

const none: NormalizedAssets = { companies: [], contacts: [] };
const companies: NormalizedAssets = {
  companies: [{ company_name: 'Acme', domain: 'acme.com' }, { domain: 'globex.io' }],
  contacts: [],
};
const emails: NormalizedAssets = {
  companies: [],
  contacts: [
    { email: 'ada@acme.com', domain: 'acme.com' },
    { email: 'bob@initech.com', domain: 'initech.com' },
  ],
};
const people: NormalizedAssets = {
  companies: [],
  contacts: [{ full_name: 'Ada Lovelace', domain: 'acme.com', linkedin_url: 'https://www.linkedin.com/in/ada' }],
};

describe('classifyGoal', () => {
  it.each([
    ['Verify these emails before our campaign', emails, 'email_verification'],
    ['clean up my list so nothing bounces', emails, 'email_verification'],
    ['Find the work emails of decision makers at these companies', companies, 'email_discovery'],
    ['Enrich these contacts with LinkedIn profiles and titles', people, 'contact_enrichment'],
    ['Generate 50 qualified leads in DeFi', companies, 'lead_generation'],
    ['Research these companies: how big are they?', companies, 'company_research'],
  ] as const)('%s → %s', (goalText, assets, goal) => {
    expect(classifyGoal({ goalText, assets })).toBe(goal);
  });

  it('lets the inputs decide when the words say nothing', () => {
    expect(classifyGoal({ goalText: 'help me', assets: emails })).toBe('email_verification');
    expect(classifyGoal({ goalText: 'help me', assets: people })).toBe('contact_enrichment');
    expect(classifyGoal({ goalText: 'help me', assets: companies })).toBe('email_discovery');
    expect(classifyGoal({ goalText: 'help me', assets: none })).toBe('lead_generation');
  });
});

describe('coverage', () => {
  it('is sufficient when every domain is known, partial when some are, needs_enrichment otherwise', () => {
    expect(coverageModeOf(3, 3)).toBe('sufficient');
    expect(coverageModeOf(1, 3)).toBe('partial');
    expect(coverageModeOf(0, 3)).toBe('needs_enrichment');
    expect(coverageModeOf(0, 0)).toBe('needs_enrichment');
  });

  it('falls back to outside providers only when coverage is short and the plan has such capabilities', () => {
    expect(executionPath('partial', ['contact_discovery', 'email_lookup', 'email_verify'])).toEqual({
      recommended_path: 'enrichment_plus_fallback',
      fallback_capabilities: ['email_lookup', 'email_verify'],
    });
    expect(executionPath('sufficient', ['email_lookup'])).toEqual({
      recommended_path: 'enrichment_only',
      fallback_capabilities: [],
    });
    expect(executionPath('needs_enrichment', ['qualification', 'company_size'])).toEqual({
      recommended_path: 'enrichment_only',
      fallback_capabilities: [],
    });
  });
});

const planning = (over: Partial<PlanningInput>): PlanningInput => ({
  planId: '01938a6e-0000-7000-8000-000000000000',
  issuedAt: '2026-11-22T07:00:00.000Z',
  goalText: 'Find emails at these companies',
  constraints: {},
  icpConfig: null,
  assets: companies,
  coverageMode: 'needs_enrichment',
  ...over,
});

describe('resolveGoal', () => {
  it('plans an e-mail discovery over companies on the enrichment pipeline, in pipeline order, quotable', () => {
    const r = resolveGoal(planning({}));
    expect(r.goal_type).toBe('email_discovery');
    expect(r.quotable).toBe(true);
    expect(r.missing_requirements).toEqual([]);
    expect(r.goal_plan.pipeline_id).toBe('growth.email_discovery.v1');
    expect(r.goal_plan.preset).toBe('custom');
    expect(r.goal_plan.capabilities).toEqual([
      'contact_discovery',
      'email_lookup',
      'email_verify',
      'deliverable_finalize',
    ]);
    expect(r.goal_plan.output.required_fields).toContain('email');
    expect(r.goal_plan.output.preview_rows).toBe(5);
    expect(r.recommended_path).toBe('enrichment_plus_fallback');
    expect(r.fallback_capabilities).toEqual(['email_lookup', 'email_verify']);
    expect(r.suggested_next_action).toMatch(/POST \/growth\/quote/);
    expect(goalPlanSchema.safeParse(r.goal_plan).success).toBe(true);
  });

  it('says what is missing when the goal has nothing to work on', () => {
    const r = resolveGoal(planning({ goalText: 'verify my emails', assets: none }));
    expect(r.goal_type).toBe('email_verification');
    expect(r.quotable).toBe(false);
    expect(r.missing_requirements).toEqual(['input_assets.contacts[].email']);
    expect(resolveGoal(planning({ goalText: 'verify my emails', assets: emails })).goal_plan.preset).toBe(
      'verify_existing_emails',
    );
    expect(r.suggested_next_action).toMatch(/e-mail addresses to verify/);
  });

  it('leaves company stages out when only contacts are given, and adds what the chosen stages need', () => {
    const r = resolveGoal(planning({ goalText: 'find emails for these people', assets: people }));
    expect(r.goal_plan.capabilities).not.toContain('contact_discovery');
    expect(r.goal_plan.capabilities).toEqual(
      expect.arrayContaining(['email_lookup', 'email_verify', 'deliverable_finalize']),
    );
  });

  it('applies the ICP gate when an icp_config comes with a qualifying goal', () => {
    const r = resolveGoal(
      planning({
        goalText: 'generate leads',
        icpConfig: { industries: ['defi'], min_score: 60 },
        constraints: { niche: 'DeFi', count: 20 },
      }),
    );
    expect(r.goal_type).toBe('lead_generation');
    expect(r.goal_plan.execution_options).toEqual({ icp_gate: 'apply', niche: 'DeFi' });
    expect(r.goal_plan.capabilities[0]).toBe('qualification');
    expect(r.goal_plan.preset).toBe('full_pipeline');
  });
});
