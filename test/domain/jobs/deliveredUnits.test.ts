import { describe, expect, it } from 'vitest';
import { finalizeRows } from '#shared/domain/jobs/finalize';
import { companyRows, contactRows } from '#shared/domain/jobs/inputs';
import type { CompanyRow, ContactRow } from '#shared/domain/jobs/rows';
import type { EmailVerification } from '#shared/domain/jobs/providers/types';
import { alikeNamedContacts } from '#test/support/alikeContacts';

const verified = (c: ContactRow): ContactRow => ({
  ...c,
  email_verification: { status: 'deliverable', reasons: [] } as EmailVerification,
});
const [orbit, shade] = companyRows([
  { company_name: 'Orbit', domain: 'orbit.io' },
  { company_name: 'Shade', domain: 'shade.xyz' },
]);
const discovered = (company: CompanyRow, n: number, fullName: string, over: Partial<ContactRow> = {}): ContactRow => ({
  row_id: `co-${company.input_index}-${n}`,
  source: 'contact_discovery',
  company_input_index: company.input_index,
  full_name: fullName,
  first_name: null,
  last_name: null,
  title: null,
  company_name: company.company_name,
  domain: company.domain,
  email: null,
  linkedin_url: null,
  ...over,
});

describe('the units a deliverable shows (what a finished job is charged for)', () => {
  it('counts each delivered row once: the same address twice is one verification, distinct addresses with alike names are each counted', () => {
    const supplied = contactRows(alikeNamedContacts('orbit.io')).map(verified);
    const { rows, units } = finalizeRows([{ companies: [], contacts: supplied }]);
    expect(rows.map((r) => r.email)).toEqual([
      'ada@orbit.io',
      'ada.park@orbit.io',
      'one@orbit.io',
      'two@orbit.io',
      'zhang.wei@orbit.io',
      'li.na@orbit.io',
    ]);
    expect(units.email_verify).toBe(rows.length);
    expect(units.email_lookup).toBe(0);
  });

  it('charges a person found twice once per capability, and only for the profile and address the row shows', () => {
    const found = (n: number, over: Partial<ContactRow>) => verified(discovered(orbit, n, 'Liam Chen', over));
    const lookup = { status: 'found', source: 'pattern', pattern: 'first.last', confidence: 0.8 } as const;
    const contacts = [
      found(0, {
        linkedin_url: 'https://linkedin.com/in/liam',
        linkedin_enrich: { status: 'enriched' },
        email: 'liam.chen@orbit.io',
        email_lookup: lookup,
      }),
      // Same profile, spelled differently; its own look-up found the same address.
      found(1, {
        linkedin_url: 'https://www.linkedin.com/in/Liam/',
        linkedin_enrich: { status: 'enriched' },
        email: 'liam.chen@orbit.io',
        email_lookup: lookup,
      }),
    ];
    const companies = [
      {
        ...orbit,
        qualification: { score: 80, qualified: true, reasons: [] },
        company_size: { employee_count: 10, status: 'resolved' as const, source: 'curated' as const },
      },
      { ...shade, qualification: { score: 5, qualified: false, reasons: [] }, dropped: true },
      // The same company twice in the input: one company delivered.
      {
        ...orbit,
        input_index: 2,
        qualification: { score: 80, qualified: true, reasons: [] },
        company_size: { employee_count: 10, status: 'resolved' as const, source: 'curated' as const },
      },
    ];
    const { rows, units } = finalizeRows([{ companies, contacts }]);
    expect(rows).toHaveLength(1);
    expect(units).toMatchObject({
      contact_discovery: 1,
      linkedin_enrich: 1,
      email_lookup: 1,
      email_verify: 1,
      company_size: 1,
    });
    // The dropped company was scored: the gate's verdict is delivered work; the duplicate domain is not.
    expect(units.qualification).toBe(2);
  });

  it('does not charge an input contact of a dropped company, nor a supplied address for a look-up', () => {
    const contacts = contactRows([{ full_name: 'Kept Person', email: 'kept@orbit.io' }]).map(verified);
    const droppedContact = verified({
      ...discovered(shade, 0, 'Gone Person'),
      email: 'gone@shade.xyz',
      email_lookup: { status: 'found', source: 'curated', pattern: null, confidence: 1 },
    });
    const { rows, units } = finalizeRows([
      { companies: [{ ...shade, dropped: true }], contacts: [...contacts, droppedContact] },
    ]);
    expect(rows.map((r) => r.email)).toEqual(['kept@orbit.io']);
    expect(units).toMatchObject({ email_verify: 1, email_lookup: 0, contact_discovery: 0 });
  });
});

describe('a LinkedIn URL with malformed percent-encoding', () => {
  it('is delivered as typed instead of failing the finalisation', () => {
    const contacts = contactRows([
      { full_name: 'Odd Slug', linkedin_url: 'https://linkedin.com/in/%E0%A4%A' },
      { full_name: 'Same Slug', linkedin_url: 'linkedin.com/in/%E0%A4%A/' },
    ]);
    const { rows } = finalizeRows([{ companies: [], contacts }]);
    expect(rows).toHaveLength(1);
    expect(rows[0].linkedin_url).toBe('https://linkedin.com/in/%E0%A4%A');
  });
});
