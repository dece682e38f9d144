import { describe, expect, it } from 'vitest';
import { DELIVERABLE_COLUMNS } from '#shared/domain/jobs/capabilities';
import { finalizeRows, toCsv } from '#shared/domain/jobs/finalize';
import { companyRows, contactRows } from '#shared/domain/jobs/inputs';
import type { CompanyRow, ContactRow } from '#shared/domain/jobs/rows';

const [orbit, shade, dropped] = companyRows([
  { company_name: 'Orbit', domain: 'orbit.io' },
  { company_name: 'Shade', domain: 'shade.xyz' },
  { company_name: 'Gone', domain: 'gone.io' },
]);
const discovered = (company: CompanyRow, n: number, fullName: string, over: Partial<ContactRow> = {}): ContactRow => ({
  row_id: `co-${company.input_index}-${n}`,
  source: 'contact_discovery',
  company_input_index: company.input_index,
  full_name: fullName,
  first_name: fullName.split(' ')[0],
  last_name: fullName.split(' ')[1],
  title: null,
  company_name: company.company_name,
  domain: company.domain,
  email: null,
  linkedin_url: null,
  ...over,
});

describe('deliverable_finalize', () => {
  it('one row per contact with its company findings, one row per kept company without contacts, dropped companies left out', () => {
    const companies = [
      { ...orbit, company_size: { employee_count: 42, status: 'resolved' as const, source: 'curated' as const } },
      shade,
      { ...dropped, dropped: true },
    ];
    const contacts = [
      discovered(orbit, 0, 'Ada Park', {
        email: 'ada.park@orbit.io',
        email_lookup: { status: 'found', source: 'curated', pattern: null, confidence: 1 },
      }),
      discovered(dropped, 0, 'Nope Person'),
    ];
    const { rows, duplicatesRemoved } = finalizeRows([{ companies, contacts }]);
    expect(rows.map((r) => [r.domain, r.full_name])).toEqual([
      ['orbit.io', 'Ada Park'],
      ['shade.xyz', null],
    ]);
    expect(rows[0]).toMatchObject({
      employee_count: 42,
      email_source: 'curated',
      email_confidence: 1,
      contact_source: 'contact_discovery',
    });
    expect(duplicatesRemoved).toBe(0);
  });

  it('deduplicates one person across batches by address, LinkedIn profile or name at the domain, filling gaps from the duplicate', () => {
    const supplied = contactRows([
      { full_name: 'Ada Park', email: 'ADA.PARK@orbit.io' },
      { full_name: 'Liam Chen', linkedin_url: 'https://www.linkedin.com/in/liam-chen/' },
      { full_name: 'Sofia Rossi', domain: 'orbit.io', title: 'Head of Growth' },
    ]);
    const found = [
      discovered(orbit, 0, 'Ada Park', {
        email: 'ada.park@orbit.io',
        linkedin_url: 'https://linkedin.com/in/ada-park',
      }),
      discovered(orbit, 1, 'L. Chen', { linkedin_url: 'linkedin.com/in/Liam-Chen' }),
      discovered(orbit, 2, 'Sofia Rossi', { email: 'sofia.rossi@orbit.io' }),
    ];
    const { rows, duplicatesRemoved } = finalizeRows([
      { companies: [orbit], contacts: found },
      { companies: [], contacts: supplied },
    ]);
    expect(duplicatesRemoved).toBe(3);
    expect(rows).toHaveLength(3);
    expect(rows.find((r) => r.full_name === 'Sofia Rossi')).toMatchObject({
      email: 'sofia.rossi@orbit.io',
      title: 'Head of Growth',
    });
  });

  it('writes CSV with a header row, quoting and neutralising formula-like cells', () => {
    const contacts = contactRows([{ full_name: 'Quote "Q", Esq.', title: '=HYPERLINK("x")', email: 'q@orbit.io' }]);
    const csv = toCsv(finalizeRows([{ companies: [], contacts }]).rows);
    const [header, line] = csv.trimEnd().split('\r\n');
    expect(header).toBe(DELIVERABLE_COLUMNS.join(','));
    expect(line).toContain('"Quote ""Q"", Esq."');
    expect(line).toContain(`"'=HYPERLINK(""x"")"`);
  });
});

describe('deliverable_finalize keeps distinct addresses apart', () => {
  it('delivers contacts with non-Latin or placeholder names and distinct e-mails, merges only the same address', () => {
    const supplied = contactRows([
      { full_name: '张伟', email: 'zhang.wei@orbit.io' },
      { full_name: '李娜', email: 'li.na@orbit.io' },
      { full_name: 'N/A', email: 'one@orbit.io' },
      { full_name: 'N/A', email: 'two@orbit.io' },
      { full_name: 'Ada Park', email: 'ada@orbit.io' },
      { full_name: 'Ada Park', email: 'ADA@Orbit.io' },
    ]);
    const { rows, duplicatesRemoved } = finalizeRows([{ companies: [], contacts: supplied }]);
    expect(rows.map((r) => r.email)).toEqual([
      'zhang.wei@orbit.io',
      'li.na@orbit.io',
      'one@orbit.io',
      'two@orbit.io',
      'ada@orbit.io',
    ]);
    expect(duplicatesRemoved).toBe(supplied.length - rows.length);
  });

  it('does not merge two placeholder-named contacts without addresses by their shared "name"', () => {
    const found = [
      discovered(orbit, 0, 'N/A', { linkedin_url: 'https://linkedin.com/in/one' }),
      discovered(orbit, 1, 'N/A', { linkedin_url: 'https://linkedin.com/in/two' }),
    ];
    expect(finalizeRows([{ companies: [orbit], contacts: found }]).rows).toHaveLength(2);
  });
});
