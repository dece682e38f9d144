import { describe, expect, it } from 'vitest';
import {
  CAPABILITIES,
  CAPABILITY_NAMES,
  columnsFilledBy,
  DELIVERABLE_COLUMN_TABLE,
  DELIVERABLE_COLUMNS,
  type DeliverableColumn,
  deliverableRowShape,
  emptyRow,
  SOURCE_COLUMNS,
} from '#shared/domain/jobs/capabilities';
import { chargeableUnits, deliveredUnits } from '#shared/domain/jobs/deliveredUnits';
import { finalizeRows } from '#shared/domain/jobs/finalize';
import { companyRows, contactRows } from '#shared/domain/jobs/inputs';
import { estimateUnits, noUnits } from '#shared/domain/jobs/pricing';
import { EXTERNAL_CAPABILITIES, GOALS } from '#shared/domain/growth/goals';

/** The columns a caller's input assets can fill without any capability (companyFields and contactFields, assets.ts). */
const INPUT_COLUMNS: DeliverableColumn[] = [
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

  it('declares who fills every deliverable column: the input or a capability that works', () => {
    expect(columnsFilledBy('input')).toEqual(INPUT_COLUMNS);
    for (const [column, { filledBy }] of Object.entries(DELIVERABLE_COLUMN_TABLE))
      expect(filledBy.length, column).toBeGreaterThan(0);
    for (const capability of CAPABILITY_NAMES)
      expect(columnsFilledBy(capability).length > 0, capability).toBe(CAPABILITIES[capability].scope !== 'job');
    expect(columnsFilledBy('email_verify')).toEqual(['email_status', 'email_reasons', 'email_status_source']);
  });

  it('gives the CSV, the response schema and an empty row the same columns, in one order', () => {
    expect(Object.keys(deliverableRowShape())).toEqual(DELIVERABLE_COLUMNS);
    expect(Object.keys(emptyRow())).toEqual(DELIVERABLE_COLUMNS);
    expect(emptyRow()).toMatchObject({ company_name: null, icp_reasons: [], email_reasons: [], person_source: null });
    expect([...SOURCE_COLUMNS].sort()).toEqual([
      'company_size_source',
      'email_source',
      'email_status_source',
      'person_source',
    ]);
  });

  it('lets every growth goal promise only columns its input or its capabilities fill', () => {
    for (const goal of GOALS) {
      const filled = new Set<string>([...INPUT_COLUMNS, ...goal.capabilities.flatMap((c) => columnsFilledBy(c))]);
      expect(
        goal.requiredFields.filter((field) => !filled.has(field)),
        goal.goal,
      ).toEqual([]);
    }
  });
});
