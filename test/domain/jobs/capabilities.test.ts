import { describe, expect, it } from 'vitest';
import { TableDns } from '#shared/adapters/dns';
import { builtinProviders } from '#shared/domain/jobs/providers/builtin';
import { canonicalLinkedinUrl } from '#shared/domain/jobs/linkedin';
import type {
  CuratedCompanyFacts,
  CuratedPersonFacts,
  CuratedSource,
} from '#shared/domain/jobs/providers/curatedSource';
import { companyRows, contactRows } from '#shared/domain/jobs/inputs';
import { runStage, type StageSettings } from '#shared/domain/jobs/stages';
import type { ContactRow } from '#shared/domain/jobs/rows';
import { inferPattern, nameParts } from '#shared/domain/jobs/emailPatterns';
import { hasValidSyntax, verificationStatus } from '#shared/domain/jobs/emailRules';
import { isDisposableDomain } from '#shared/domain/jobs/disposableDomains';

// A small curated world (Prepare): two companies, people with and without addresses.
const company = (
  over: Partial<CuratedCompanyFacts> & Pick<CuratedCompanyFacts, 'id' | 'domain'>,
): CuratedCompanyFacts => ({
  name: over.domain,
  employeeCount: null,
  sectors: [],
  location: null,
  description: null,
  ...over,
});
const person = (
  id: string,
  companyId: string,
  fullName: string,
  role: string,
  email: string | null,
  linkedin: string | null = null,
): CuratedPersonFacts => {
  const [firstName, lastName] = fullName.split(' ');
  return {
    id,
    fullName,
    firstName,
    lastName,
    role,
    companyId,
    companyName: companyId,
    email,
    linkedinUrl: linkedin,
    xUrl: `https://x.com/${firstName}`,
    githubUrl: null,
    location: 'Berlin, Germany',
  };
};
const COMPANIES = [
  company({
    id: 'c-orbit',
    domain: 'orbit.io',
    name: 'Orbit',
    employeeCount: 42,
    sectors: ['defi', 'infrastructure'],
    location: 'Berlin, Germany',
    description: 'Intent-based lending',
  }),
  company({
    id: 'c-shade',
    domain: 'shade.xyz',
    name: 'Shade',
    employeeCount: null,
    sectors: ['privacy'],
    location: 'Zug, Switzerland',
  }),
];
const PEOPLE = [
  person('p1', 'c-orbit', 'Ada Park', 'Co-founder & CEO', 'ada.park@orbit.io', 'https://www.linkedin.com/in/ada-park'),
  person('p2', 'c-orbit', 'Liam Chen', 'CTO', 'liam.chen@orbit.io'),
  person('p3', 'c-orbit', 'Sofia Rossi', 'Head of Growth', 'sofia.rossi@orbit.io'),
  person('p4', 'c-orbit', 'Maya Patel', 'Business Development Lead', 'maya.patel@orbit.io'),
  person('p5', 'c-orbit', 'Ethan Brooks', 'Community Lead', null),
  person('p6', 'c-orbit', 'Noah Kim', 'Solidity Engineer', 'noah.kim@orbit.io'),
  person('p7', 'c-orbit', 'Zoe Wu', 'Marketing Manager', 'zoe.wu@orbit.io'),
];
const curated: CuratedSource = {
  companyByDomain: async (d) => COMPANIES.find((c) => c.domain === d),
  peopleAtCompany: async (id) => PEOPLE.filter((p) => p.companyId === id),
  personByLinkedinUrl: async (url) =>
    PEOPLE.find((p) => p.linkedinUrl && canonicalLinkedinUrl(p.linkedinUrl) === canonicalLinkedinUrl(url)),
};
const dns = new TableDns({ 'nomail.io': { status: 'none' }, 'slowdns.io': { status: 'timeout' } });
const providers = builtinProviders({ curated, dns, isDisposable: isDisposableDomain });
const settings = (over: Partial<StageSettings> = {}): StageSettings => ({
  criteria: {},
  icpGate: 'skip',
  roleFocus: [],
  ...over,
});

const companies = companyRows([
  { company_name: 'Orbit', website: 'https://www.orbit.io/about' },
  { company_name: 'Shade', domain: 'shade.xyz' },
  { company_name: 'Unknown Co', domain: 'unknown-co.io' },
]);

describe('qualification', () => {
  it('scores 0-100 on the configured criteria with a reason for each, and the gate drops the unqualified', async () => {
    const out = await runStage(
      'qualification',
      { companies, contacts: [] },
      settings({ criteria: { industries: ['DeFi'], locations: ['Berlin'], min_score: 60 }, icpGate: 'apply' }),
      providers,
    );
    const [orbit, shade, unknown] = out.companies;
    expect(orbit.qualification).toEqual({
      score: 100,
      qualified: true,
      reasons: ['sector matches DeFi', 'located in Berlin, Germany'],
    });
    expect(shade.qualification!.score).toBe(0);
    expect(shade.dropped).toBe(true);
    expect(unknown.qualification!.reasons[0]).toMatch(/not in the curated data/);
    expect(out.units).toBe(3);
    expect(out.counters).toEqual({ companies_qualified: 1, companies_dropped: 2 });
  });

  it('weights criteria: industry met (35) and size missed (20) → 64', async () => {
    const out = await runStage(
      'qualification',
      { companies: companies.slice(0, 1), contacts: [] },
      settings({ criteria: { niche: 'infrastructure', max_employees: 10 } }),
      providers,
    );
    expect(out.companies[0].qualification).toMatchObject({ score: 64, qualified: true });
    expect(out.companies[0].dropped).toBe(false);
  });
});

describe('company_size', () => {
  it('takes the curated employee count, else unresolved, and charges only resolved sizes', async () => {
    const out = await runStage('company_size', { companies, contacts: [] }, settings(), providers);
    expect(out.companies.map((c) => c.company_size)).toEqual([
      { employee_count: 42, status: 'resolved', source: 'curated' },
      { employee_count: null, status: 'unresolved', source: null },
      { employee_count: null, status: 'unresolved', source: null },
    ]);
    expect(out.units).toBe(1);
  });

  it('skips companies the ICP gate dropped', async () => {
    const out = await runStage(
      'company_size',
      { companies: [{ ...companies[0], dropped: true }], contacts: [] },
      settings(),
      providers,
    );
    expect(out.companies[0].company_size).toBeUndefined();
    expect(out.units).toBe(0);
  });
});

describe('contact_discovery', () => {
  it('finds at most five curated people per company, most senior first (ties by name), without their addresses', async () => {
    const out = await runStage('contact_discovery', { companies, contacts: [] }, settings(), providers);
    expect(out.contacts.map((c) => c.full_name)).toEqual([
      'Ada Park',
      'Liam Chen',
      'Sofia Rossi',
      'Ethan Brooks',
      'Maya Patel',
    ]);
    expect(
      out.contacts.every((c) => c.email === null && c.domain === 'orbit.io' && c.source === 'contact_discovery'),
    ).toBe(true);
    expect(out.contacts[0]).toMatchObject({ row_id: 'co-0-0', person_id: 'p1', company_input_index: 0 });
    expect(out.units).toBe(5);
  });

  it('keeps only roles matching the role focus', async () => {
    const out = await runStage(
      'contact_discovery',
      { companies, contacts: [] },
      settings({ roleFocus: ['growth', 'marketing'] }),
      providers,
    );
    expect(out.contacts.map((c) => c.title)).toEqual(['Head of Growth', 'Marketing Manager']);
    expect(out.units).toBe(2);
  });
});

const discovered = async (): Promise<ContactRow[]> =>
  (await runStage('contact_discovery', { companies, contacts: [] }, settings(), providers)).contacts;

describe('email_lookup', () => {
  it('uses the curated address when there is one (confidence 1)', async () => {
    const out = await runStage(
      'email_lookup',
      { companies: [], contacts: (await discovered()).slice(0, 1) },
      settings(),
      providers,
    );
    expect(out.contacts[0]).toMatchObject({
      email: 'ada.park@orbit.io',
      email_lookup: { status: 'found', source: 'curated', confidence: 1 },
    });
    expect(out.units).toBe(1);
  });

  it('otherwise infers the domain pattern from known addresses there, with a confidence', async () => {
    const contacts = [
      ...(await discovered()).slice(3, 4),
      ...contactRows([{ full_name: 'Grace Hopper', domain: 'orbit.io' }]),
    ];
    const out = await runStage('email_lookup', { companies: [], contacts }, settings(), providers);
    expect(out.contacts.map((c) => [c.email, c.email_lookup?.source, c.email_lookup?.pattern])).toEqual([
      ['ethan.brooks@orbit.io', 'pattern', '{first}.{last}'],
      ['grace.hopper@orbit.io', 'pattern', '{first}.{last}'],
    ]);
    expect(out.contacts[0].email_lookup!.confidence).toBe(0.95);
    expect(out.units).toBe(2);
  });

  it('finds nothing (and charges nothing) without known addresses or a name, and skips contacts that have one', async () => {
    const contacts = contactRows([
      { full_name: 'Jonas Weber', domain: 'shade.xyz' },
      { first_name: 'Cher', domain: 'orbit.io' },
      { email: 'x@y.io' },
    ]);
    const out = await runStage('email_lookup', { companies: [], contacts }, settings(), providers);
    expect(out.contacts.map((c) => c.email_lookup?.status)).toEqual(['not_found', 'not_found', undefined]);
    expect(out.units).toBe(0);
  });
});

describe('email_verify', () => {
  const verify = async (email: string) => await providers.email_verify.run({ email });
  const cases: [string, string, string[]][] = [
    ['ada.park@orbit.io', 'deliverable', []],
    ['not an address', 'undeliverable', ['syntax']],
    ['a..b@orbit.io', 'undeliverable', ['syntax']],
    ['someone@mailinator.com', 'undeliverable', ['disposable']],
    ['info@orbit.io', 'risky', ['role_account']],
    ['ada@gmail.com', 'risky', ['free_provider']],
    ['ada@nomail.io', 'undeliverable', ['no_mx']],
    ['support@slowdns.io', 'unknown', ['role_account', 'dns_timeout']],
    ['ada@reserved.invalid', 'undeliverable', ['no_mx']],
    // `www.` is dropped when a domain is normalised, and `io` alone is none: checked as written (it used to throw).
    ['ada@www.io', 'deliverable', []],
  ];
  for (const [email, status, reasons] of cases) {
    it(`${email} → ${status} ${reasons.join(',')}`, async () =>
      expect(await verify(email)).toEqual({ status, reasons, source: 'rules' }));
  }

  it('charges one unit per address checked and counts statuses', async () => {
    const contacts = contactRows([
      { email: 'ada.park@orbit.io' },
      { email: 'info@orbit.io' },
      { full_name: 'No Mail' },
    ]);
    const out = await runStage('email_verify', { companies: [], contacts }, settings(), providers);
    expect(out.units).toBe(2);
    expect(out.counters).toEqual({ deliverable: 1, risky: 1 });
    expect(out.contacts[2].email_verification).toBeUndefined();
  });

  it('rules: syntax edge cases, wildcard disposable subdomains, status precedence', async () => {
    expect(hasValidSyntax(`${'a'.repeat(65)}@orbit.io`)).toBe(false);
    expect(hasValidSyntax('first+tag@orbit.io')).toBe(true);
    expect(await isDisposableDomain('orbit.io')).toBe(false);
    expect(await isDisposableDomain('anything.33m.co')).toBe(true);
    expect(verificationStatus(['free_provider', 'no_mx'])).toBe('undeliverable');
    expect(verificationStatus([])).toBe('deliverable');
  });
});

describe('linkedin_enrich', () => {
  it('fills the gaps of a contact from the curated profile and charges per profile found', async () => {
    const contacts = contactRows([
      { linkedin_url: 'linkedin.com/in/Ada-Park/', title: 'Chief Executive' },
      { linkedin_url: 'https://www.linkedin.com/in/nobody-here' },
      { full_name: 'No Profile' },
    ]);
    const out = await runStage('linkedin_enrich', { companies: [], contacts }, settings(), providers);
    expect(out.contacts[0]).toMatchObject({
      full_name: 'Ada Park',
      first_name: 'Ada',
      title: 'Chief Executive',
      x_url: 'https://x.com/Ada',
      person_id: 'p1',
      linkedin_enrich: { status: 'enriched' },
    });
    expect(out.contacts[0].email).toBeNull();
    expect(out.contacts[1].linkedin_enrich).toEqual({ status: 'not_found' });
    expect(out.units).toBe(1);
  });
});

describe('address patterns', () => {
  it('picks the pattern most known addresses follow; confidence grows with share and samples', () => {
    const known = (pairs: [string, string][]) =>
      pairs.map(([name, localPart]) => ({ name: nameParts({ full_name: name })!, localPart }));
    expect(
      inferPattern(
        known([
          ['Ada Park', 'apark'],
          ['Liam Chen', 'lchen'],
          ['Sofia Rossi', 'sofia.rossi'],
        ]),
      ),
    ).toEqual({
      pattern: '{f}{last}',
      support: 2,
      samples: 3,
      confidence: 0.8,
    });
    expect(inferPattern(known([['Ada Park', 'ada']]))).toMatchObject({ pattern: '{first}', confidence: 0.65 });
    expect(inferPattern(known([['Ada Park', 'xyz']]))).toBeUndefined();
    expect(nameParts({ full_name: 'José María Núñez' })).toEqual({ first: 'jose', last: 'nunez' });
  });
});

describe('a stage within a budget (the units the job can still pay for)', () => {
  it('stops at the budget in input order, leaves the remaining rows untouched and says it stopped', async () => {
    // Act: contact discovery may find three people, e-mail lookup one address, qualification two companies.
    const found = await runStage('contact_discovery', { companies, contacts: [] }, settings(), providers, 3);
    const looked = await runStage(
      'email_lookup',
      { companies: [], contacts: found.contacts },
      settings(),
      providers,
      1,
    );
    const scored = await runStage('qualification', { companies, contacts: [] }, settings(), providers, 2);

    // Assess
    expect(found).toMatchObject({ units: 3, stopped: true });
    expect(found.contacts.map((c) => c.full_name)).toEqual(['Ada Park', 'Liam Chen', 'Sofia Rossi']);
    expect(looked).toMatchObject({ units: 1, stopped: true });
    expect(looked.contacts.map((c) => c.email)).toEqual(['ada.park@orbit.io', null, null]);
    expect(looked.contacts.slice(1).every((c) => c.email_lookup === undefined)).toBe(true);
    expect(scored).toMatchObject({ units: 2, stopped: true });
    expect(scored.companies.map((c) => c.qualification !== undefined)).toEqual([true, true, false]);
  });

  it('a budget that covers every row changes nothing: the same rows and units as an unbounded run, not stopped', async () => {
    // Five at Orbit, none at the others: a budget of exactly five would stop before asking about them.
    const bounded = await runStage('contact_discovery', { companies, contacts: [] }, settings(), providers, 6);
    const unbounded = await runStage('contact_discovery', { companies, contacts: [] }, settings(), providers);
    expect(bounded).toEqual(unbounded);
    expect(bounded.stopped).toBe(false);
  });
});
