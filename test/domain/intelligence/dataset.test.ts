import { describe, expect, it } from 'vitest';
import { generateDataset, FULL_COUNTS } from '#bin/curated/generator';
import { emailFor } from '#shared/domain/curated/model';
import { FIXED_IDS } from '#bin/curated/fixtures';
import { SECTORS, termFor, termsIn, STAGES } from '#shared/domain/curated/taxonomy';

const full = generateDataset();

describe('curated dataset generator', () => {
  it('is deterministic for a seed and differs for another seed', () => {
    const again = generateDataset();
    expect(JSON.stringify(again.people.slice(0, 200))).toBe(JSON.stringify(full.people.slice(0, 200)));
    expect(generateDataset({ seed: 1, scale: 0.05 }).companies[10].name).not.toBe(full.companies[10].name);
  });

  it('builds the full-size graph the issue asks for', () => {
    expect(full.funds.length).toBeGreaterThanOrEqual(FULL_COUNTS.funds);
    expect(full.companies.length).toBeGreaterThanOrEqual(FULL_COUNTS.companies);
    expect(full.rounds.length).toBeGreaterThanOrEqual(FULL_COUNTS.rounds);
    expect(full.people.length).toBeGreaterThanOrEqual(8000);
    expect(full.kols.length).toBeGreaterThanOrEqual(FULL_COUNTS.kols);
    expect(full.builders.length).toBeGreaterThanOrEqual(FULL_COUNTS.builders);
    expect(new Set(full.funds.map((f) => f.fundType)).size).toBe(5);
    expect(new Set(full.funds.map((f) => f.tier))).toEqual(new Set([1, 2, 3]));
    expect(new Set(full.funds.flatMap((f) => f.sectors)).size).toBeGreaterThanOrEqual(12);
  });

  it('gives every company a unique domain and its people addresses in the company pattern', () => {
    const domains = full.companies.map((c) => c.domain);
    expect(new Set(domains).size).toBe(domains.length);
    for (const d of domains) expect(d).toMatch(/^[a-z0-9]+(\.[a-z]+)+$/);
    const byId = new Map(full.companies.map((c) => [c.id, c]));
    const withEmail = full.people.filter((p) => p.organizationKind === 'company' && p.email);
    expect(withEmail.length).toBeGreaterThan(4000);
    for (const p of withEmail.slice(0, 2000)) {
      const c = byId.get(p.companyId)!;
      expect(p.email).toBe(emailFor(c.emailPattern, p.firstName, p.lastName, c.domain));
    }
    expect(full.companies.filter((c) => c.employeeCount === null).length).toBeGreaterThan(100);
  });

  it('has contact channels at realistic, unequal rates', () => {
    const rate = (k: 'phone' | 'telegramHandle' | 'linkedinUrl') =>
      full.people.filter((p) => p[k]).length / full.people.length;
    expect(rate('phone')).toBeLessThan(0.25);
    expect(rate('telegramHandle')).toBeGreaterThan(0.2);
    expect(rate('telegramHandle')).toBeLessThan(0.6);
    expect(rate('linkedinUrl')).toBeGreaterThan(0.6);
  });

  it('keeps rounds consistent with funds and companies, and the fixed rows in place', () => {
    const polaris = full.funds.find((f) => f.id === FIXED_IDS.polaris)!;
    expect(
      polaris.rounds.filter((r) => r.leadFundId === polaris.id && r.sector === 'defi' && r.stage === 'seed').length,
    ).toBeGreaterThan(5);
    for (const r of full.rounds.slice(0, 500)) expect(r.investors[0].id).toBe(r.leadFundId);
    const nebula = full.companies.find((c) => c.id === FIXED_IDS.nebula)!;
    const seed = nebula.rounds.find((r) => r.stage === 'seed')!;
    expect(seed.leadFundId).toBe(FIXED_IDS.polaris);
    expect(seed.investors.map((i) => i.id)).toContain(FIXED_IDS.lattice);
  });
});

describe('taxonomy matching', () => {
  it('maps synonyms onto one sector and finds terms in free text, longest first', () => {
    expect(termFor(SECTORS, 'Decentralized Finance')?.id).toBe('defi');
    expect(termFor(SECTORS, 'DeFi')?.id).toBe('defi');
    expect(termsIn(SECTORS, 'zero-knowledge and real world assets teams').map((t) => t.id)).toEqual(['rwa', 'privacy']);
    expect(
      termsIn(STAGES, 'Series B+ and seed')
        .map((t) => t.id)
        .sort(),
    ).toEqual(['seed', 'series-b-plus']);
    expect(termsIn(SECTORS, 'blockchain maintainers')).toEqual([]);
  });
});
