import { describe, expect, it } from 'vitest';
import type { DeliverableRow } from '#shared/domain/jobs/capabilities';
import { dataSourceMix, deliveredCounts, gapReport, previewRow, stageStatuses } from '#shared/domain/growth/outcome';
import type { Capability } from '#shared/domain/growth/goals';

const row = (over: Partial<DeliverableRow>): DeliverableRow => ({
  company_name: 'Acme',
  domain: 'acme.com',
  website: null,
  icp_score: null,
  icp_qualified: null,
  icp_reasons: [],
  employee_count: null,
  company_size_status: null,
  company_size_source: null,
  full_name: null,
  first_name: null,
  last_name: null,
  title: null,
  email: null,
  email_source: null,
  email_confidence: null,
  email_status: null,
  email_reasons: [],
  email_status_source: null,
  linkedin_url: null,
  x_url: null,
  github_url: null,
  location: null,
  contact_source: null,
  person_source: null,
  ...over,
});

const rows = [
  row({
    full_name: 'Ada',
    title: 'CTO',
    email: 'ada@acme.com',
    email_source: 'curated',
    email_status: 'deliverable',
    contact_source: 'contact_discovery',
  }),
  row({
    full_name: 'Bob',
    email: 'bob@acme.com',
    email_source: 'pattern',
    email_status: 'undeliverable',
    contact_source: 'contact_discovery',
  }),
  row({ full_name: 'Cy', contact_source: 'contact_discovery' }),
  row({ company_name: 'Globex', domain: 'globex.io' }),
];
const caps: Capability[] = ['contact_discovery', 'email_lookup', 'email_verify', 'deliverable_finalize'];

describe('run outcome', () => {
  it('counts what was delivered', () => {
    expect(deliveredCounts(rows)).toEqual({
      rows: 4,
      companies: 2,
      contacts: 3,
      emails: 2,
      emails_found: 2,
      verified_emails: 1,
      risky_emails: 0,
      undeliverable_emails: 1,
      enriched_contacts: 1,
    });
  });

  it('says where the data came from', () => {
    expect(dataSourceMix(rows)).toMatchObject({
      enriched_records: 3,
      discovered_contacts: 3,
      emails_from_curated: 1,
      emails_from_pattern: 1,
      input_contacts: 0,
    });
  });

  it('reports each gap once with its first reason, plus companies the ICP gate dropped', () => {
    const report = gapReport(rows, caps, 2);
    expect(report.reasons).toEqual({
      email_undeliverable: 1,
      email_not_found: 1,
      no_contact_found: 1,
      dropped_by_icp_gate: 2,
    });
    expect(report.unresolved_count).toBe(5);
    expect(report.unresolved).toEqual([
      { row: 2, label: 'bob@acme.com', reason: 'email_undeliverable' },
      { row: 3, label: 'Cy', reason: 'email_not_found' },
      { row: 4, label: 'globex.io', reason: 'no_contact_found' },
    ]);
  });

  it('previews only the promised fields, in order', () => {
    expect(previewRow(rows[0], ['email', 'full_name', 'nope'])).toEqual({
      email: 'ada@acme.com',
      full_name: 'Ada',
      nope: null,
    });
  });
});

describe('stageStatuses', () => {
  const base = { capabilities: caps, stageTotals: { contact_discovery: 4, email_lookup: 10, email_verify: 10 } };
  it('is all pending before the job starts', () => {
    expect(Object.values(stageStatuses({ ...base, status: 'pending', stageDone: {} }))).toEqual([
      'pending',
      'pending',
      'pending',
      'pending',
    ]);
  });
  it('marks finished stages completed, started ones and the next in line running', () => {
    expect(stageStatuses({ ...base, status: 'running', stageDone: { contact_discovery: 4, email_lookup: 3 } })).toEqual(
      {
        contact_discovery: 'completed',
        email_lookup: 'running',
        email_verify: 'pending',
        deliverable_finalize: 'pending',
      },
    );
    expect(
      stageStatuses({
        ...base,
        status: 'running',
        stageDone: { contact_discovery: 4, email_lookup: 10, email_verify: 10 },
      }).deliverable_finalize,
    ).toBe('running');
  });
  it('marks unfinished stages of a stopped job with how it stopped, and stages without rows skipped', () => {
    expect(
      stageStatuses({
        ...base,
        stageTotals: { ...base.stageTotals, email_verify: 0 },
        status: 'cancelled',
        stageDone: { contact_discovery: 4 },
      }),
    ).toEqual({
      contact_discovery: 'completed',
      email_lookup: 'cancelled',
      email_verify: 'skipped',
      deliverable_finalize: 'cancelled',
    });
  });
});
