import { describe, expect, it } from 'vitest';
import { creditsFor, estimateCredits, estimateUnits } from '#shared/domain/jobs/pricing';
import { MAX_CONTACTS_PER_COMPANY } from '#shared/domain/jobs/capabilities';

describe('job pricing', () => {
  it('prices consumed units per capability', () => {
    expect(
      creditsFor({
        qualification: 10,
        company_size: 7,
        contact_discovery: 4,
        email_lookup: 3,
        email_verify: 5,
        linkedin_enrich: 2,
        deliverable_finalize: 9,
      }),
    ).toBe(10 * 1 + 7 * 1 + 4 * 2 + 3 * 3 + 5 * 1 + 2 * 2 + 0);
  });

  it('estimates the most a job can consume: every company, the maximum contacts per company, every contact looked up and verified', () => {
    const caps = [
      'qualification',
      'company_size',
      'contact_discovery',
      'email_lookup',
      'email_verify',
      'deliverable_finalize',
    ] as const;
    const units = estimateUnits([...caps], { companies: 100, contacts: 20 });
    const contacts = 20 + 100 * MAX_CONTACTS_PER_COMPANY;
    expect(units).toMatchObject({
      qualification: 100,
      company_size: 100,
      contact_discovery: 100 * MAX_CONTACTS_PER_COMPANY,
      email_lookup: contacts,
      email_verify: contacts,
      linkedin_enrich: 0,
    });
    expect(estimateCredits([...caps], { companies: 100, contacts: 20 })).toBe(100 + 100 + 2 * 500 + 3 * 520 + 520);
  });

  it('estimates only the supplied contacts when nothing discovers more', () => {
    expect(estimateCredits(['email_verify', 'deliverable_finalize'], { companies: 0, contacts: 40 })).toBe(40);
  });
});
