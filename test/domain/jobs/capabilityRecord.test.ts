import { describe, expect, it } from 'vitest';
import { CAPABILITIES, CAPABILITY_NAMES } from '#shared/domain/jobs/capabilities';
import { chargeableUnits, deliveredUnits } from '#shared/domain/jobs/deliveredUnits';
import { DELIVERABLE_COLUMNS, finalizeRows } from '#shared/domain/jobs/finalize';
import { companyRows, contactRows } from '#shared/domain/jobs/inputs';
import { estimateUnits, noUnits } from '#shared/domain/jobs/pricing';
import type { DeliverableRow } from '#shared/domain/jobs/rows';
import { EXTERNAL_CAPABILITIES, GOALS } from '#shared/domain/growth/goals';

/** The columns a caller's input assets can fill without any capability. */
const INPUT_COLUMNS: (keyof DeliverableRow)[] = [
  'company_name',
  'domain',
  'website',
  'full_name',
  'first_name',
  'last_name',
  'title',
  'email',
  'linkedin_url',
];

describe('the capability record', () => {
  it('gives every priced capability a delivered count, so its charge cannot silently be min(consumed, 0) = 0', () => {
    for (const capability of CAPABILITY_NAMES) {
      const { unitCredits, delivered, maxUnits } = CAPABILITIES[capability];
      if (unitCredits > 0) {
        expect(delivered.per, capability).not.toBe('none');
        expect(maxUnits({ companies: 3, contacts: 4 }), capability).toBeGreaterThan(0);
      }
    }
  });

  it('is what a finished job is charged by: each priced capability delivered on a row is charged, not zero', () => {
    const companies = companyRows([{ company_name: 'Orbit', domain: 'orbit.io' }]).map((c) => ({
      ...c,
      qualification: { score: 80, qualified: true, reasons: [] },
      company_size: { employee_count: 12, status: 'resolved' as const, source: 'curated' as const },
    }));
    const [contact] = contactRows([
      { full_name: 'Ada Park', domain: 'orbit.io', linkedin_url: 'https://linkedin.com/in/ada' },
    ]);
    const worked = {
      ...contact,
      source: 'contact_discovery' as const,
      email: 'ada.park@orbit.io',
      linkedin_enrich: { status: 'enriched' as const },
      email_lookup: {
        status: 'found' as const,
        source: 'pattern' as const,
        pattern: '{first}.{last}',
        confidence: 0.9,
      },
      email_verification: { status: 'deliverable' as const, reasons: [] },
    };
    const { units } = finalizeRows([{ companies, contacts: [worked] }]);
    const everything = Object.fromEntries(CAPABILITY_NAMES.map((c) => [c, 10])) as ReturnType<typeof noUnits>;
    const charged = chargeableUnits(everything, units);
    for (const capability of CAPABILITY_NAMES)
      expect(charged[capability], capability).toBe(CAPABILITIES[capability].unitCredits > 0 ? 1 : 0);
    expect(deliveredUnits([], [])).toEqual(noUnits());
  });

  it('reserves each chosen capability from its maxUnits, contacts found by discovery included', () => {
    const units = estimateUnits([...CAPABILITY_NAMES], { companies: 2, contacts: 3 });
    const contacts = 3 + CAPABILITIES.contact_discovery.maxUnits({ companies: 2, contacts: 0 });
    for (const capability of CAPABILITY_NAMES)
      expect(units[capability], capability).toBe(CAPABILITIES[capability].maxUnits({ companies: 2, contacts }));
  });

  it('names the external capabilities a growth plan counts as external spend', () => {
    expect([...EXTERNAL_CAPABILITIES].sort()).toEqual(CAPABILITY_NAMES.filter((c) => CAPABILITIES[c].external).sort());
    expect([...EXTERNAL_CAPABILITIES].sort()).toEqual(['email_lookup', 'email_verify', 'linkedin_enrich']);
  });

  it('accounts for every deliverable column: each is filled by the input or by a capability that says so', () => {
    const filled = new Set([...INPUT_COLUMNS, ...CAPABILITY_NAMES.flatMap((c) => CAPABILITIES[c].columns)]);
    expect(DELIVERABLE_COLUMNS.filter((column) => !filled.has(column))).toEqual([]);
    for (const capability of CAPABILITY_NAMES)
      for (const column of CAPABILITIES[capability].columns) expect(DELIVERABLE_COLUMNS, capability).toContain(column);
  });

  it('lets every growth goal promise only columns its input or its capabilities fill', () => {
    for (const goal of GOALS) {
      const filled = new Set<string>([...INPUT_COLUMNS, ...goal.capabilities.flatMap((c) => CAPABILITIES[c].columns)]);
      expect(
        goal.requiredFields.filter((field) => !filled.has(field)),
        goal.goal,
      ).toEqual([]);
    }
  });
});
