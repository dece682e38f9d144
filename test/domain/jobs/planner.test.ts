import { describe, expect, it } from 'vitest';
import { planJob, type InputFacts } from '#shared/domain/jobs/planner';
import type { Capability, Preset } from '#shared/domain/jobs/capabilities';
import { ValidationError } from '#shared/http/errors';

const facts = (over: Partial<InputFacts> = {}): InputFacts => ({
  companies: 10,
  contacts: 0,
  contactsWithoutEmail: 0,
  contactsWithLinkedin: 0,
  icpGate: 'skip',
  hasIcpCriteria: false,
  ...over,
});

describe('planJob: presets', () => {
  const cases: { preset: Preset; facts: InputFacts; stages: Capability[]; warnings: number }[] = [
    {
      preset: 'full_pipeline',
      facts: facts(),
      stages: [
        'qualification',
        'company_size',
        'contact_discovery',
        'email_lookup',
        'email_verify',
        'deliverable_finalize',
      ],
      warnings: 0,
    },
    {
      preset: 'verify_existing_emails',
      facts: facts({ companies: 0, contacts: 5 }),
      stages: ['email_verify', 'deliverable_finalize'],
      warnings: 0,
    },
    {
      preset: 'verify_existing_emails',
      facts: facts({ companies: 0, contacts: 5, contactsWithoutEmail: 2 }),
      stages: ['email_lookup', 'email_verify', 'deliverable_finalize'],
      warnings: 1,
    },
    {
      preset: 'company_size_and_email_verify',
      facts: facts(),
      stages: ['company_size', 'contact_discovery', 'email_lookup', 'email_verify', 'deliverable_finalize'],
      warnings: 2,
    },
    {
      preset: 'enrich_contacts_from_companies',
      facts: facts(),
      stages: ['contact_discovery', 'linkedin_enrich', 'email_lookup', 'deliverable_finalize'],
      warnings: 0,
    },
  ];
  for (const c of cases) {
    it(`${c.preset} with ${c.facts.companies} companies and ${c.facts.contacts} contacts`, () => {
      const plan = planJob({ preset: c.preset }, c.facts);
      expect(plan.preset).toBe(c.preset);
      expect(plan.capabilities).toEqual(c.stages);
      expect(plan.warnings).toHaveLength(c.warnings);
    });
  }
});

describe('planJob: custom capability lists', () => {
  it('orders capabilities in pipeline order whatever order they were sent in, and names the preset custom', () => {
    const plan = planJob({ capabilities: ['email_verify', 'company_size', 'qualification'] }, facts({ contacts: 3 }));
    expect(plan.preset).toBe('custom');
    expect(plan.capabilities).toEqual(['qualification', 'company_size', 'email_verify', 'deliverable_finalize']);
    expect(plan.warnings).toEqual([]);
  });

  it('adds the chain email_verify → email_lookup → contact_discovery for a company list, with a warning for each', () => {
    const plan = planJob({ capabilities: ['email_verify'] }, facts());
    expect(plan.capabilities).toEqual(['contact_discovery', 'email_lookup', 'email_verify', 'deliverable_finalize']);
    expect(plan.warnings).toHaveLength(2);
    expect(plan.warnings[0]).toMatch(/email_lookup was added/);
    expect(plan.warnings[1]).toMatch(/contact_discovery was added/);
  });

  it('adds qualification when icp_gate is apply, and warns when there are no criteria', () => {
    const plan = planJob({ capabilities: ['company_size'] }, facts({ icpGate: 'apply' }));
    expect(plan.capabilities).toEqual(['qualification', 'company_size', 'deliverable_finalize']);
    expect(plan.warnings.join(' | ')).toMatch(/qualification was added.*every company qualifies/);
  });

  it('notes inputs the chosen capabilities do not use', () => {
    expect(planJob({ capabilities: ['email_verify'] }, facts({ contacts: 2 })).warnings).toEqual([
      'input_assets.companies is not used by the chosen capabilities',
    ]);
    expect(planJob({ capabilities: ['company_size'] }, facts({ contacts: 2 })).warnings).toEqual([
      'input_assets.contacts is not used by the chosen capabilities',
    ]);
    expect(planJob({ capabilities: ['linkedin_enrich'] }, facts({ companies: 0, contacts: 2 })).warnings).toEqual([
      'no contact has a linkedin_url, so linkedin_enrich has nothing to enrich',
    ]);
  });

  it('deliverable_finalize alone is a deduplication of the inputs, with nothing to warn about', () => {
    expect(planJob({ capabilities: ['deliverable_finalize'] }, facts({ contacts: 4 }))).toEqual({
      preset: 'custom',
      capabilities: ['deliverable_finalize'],
      warnings: [],
    });
  });

  const invalid: { name: string; choice: Parameters<typeof planJob>[0]; facts: InputFacts; path: string }[] = [
    {
      name: 'both preset and capabilities',
      choice: { preset: 'full_pipeline', capabilities: ['qualification'] },
      facts: facts(),
      path: 'body',
    },
    { name: 'neither preset nor capabilities', choice: {}, facts: facts(), path: 'body' },
    {
      name: 'no inputs at all',
      choice: { preset: 'full_pipeline' },
      facts: facts({ companies: 0 }),
      path: 'input_assets',
    },
    {
      name: 'company capabilities without companies',
      choice: { capabilities: ['company_size'] },
      facts: facts({ companies: 0, contacts: 3 }),
      path: 'input_assets.companies',
    },
    {
      name: 'contact discovery pulled in without companies',
      choice: { capabilities: ['email_lookup'] },
      facts: facts({ companies: 0, contacts: 0 }),
      path: 'input_assets',
    },
  ];
  for (const c of invalid) {
    it(`rejects ${c.name} with a validation error on ${c.path}`, () => {
      let error: unknown;
      try {
        planJob(c.choice, c.facts);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).details).toEqual([expect.objectContaining({ path: c.path })]);
    });
  }
});
