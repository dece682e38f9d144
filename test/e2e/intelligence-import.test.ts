import { describe, expect, it } from 'vitest';
import { importCuratedRecords } from '#shared/data/importer';
import { curatedItemsFor, findByName, fundsNamedWithPortfolio, portfolioUpdates, putCuratedItems, getCompanyByDomain, getCuratedEntity, listFundsInSector, listPeopleByCompany } from '#shared/store/curatedRepo';
import { warmIntroPaths } from '#shared/domain/intelligence/engines/warmIntros';
import type { CuratedFund } from '#shared/data/model';

const lines = (...records: unknown[]) => records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n');
const fund = { kind: 'fund', id: 'fund-imp-acme', name: 'Acme Import Ventures', domain: 'acme-import.vc', fundType: 'vc', tier: 2, jurisdiction: 'singapore', sectors: ['rwa'], stages: ['seed'], minChequeUsd: 250_000, maxChequeUsd: 1_000_000 };
const company = { kind: 'company', id: 'co-imp-acme', name: 'Acme Import Labs', domain: 'https://www.AcmeImportLabs.io', sectors: ['rwa'], employeeCount: 12, emailPattern: 'flast' };
const person = { kind: 'person', id: 'per-imp-acme-1', firstName: 'Ada', lastName: 'Stone', role: 'CEO', roleFamily: 'leadership', companyId: 'co-imp-acme', email: 'astone@acmeimportlabs.io' };
const round = { kind: 'round', id: 'rnd-imp-acme-seed', companyId: 'co-imp-acme', sector: 'rwa', stage: 'seed', amountUsd: 3_000_000, announcedOn: '2026-05-01', leadFundId: 'fund-imp-acme', investorIds: ['fund-imp-acme', 'fund-lattice'] };

describe('JSONL import', () => {
  it('reports every bad line by number and loads nothing when any line is bad', async () => {
    const outcome = await importCuratedRecords(
      lines(company, '{not json', { ...person, id: 'per-imp-bad', roleFamily: 'wizardry' }, { kind: 'spaceship' }, { ...round, id: 'rnd-imp-bad', companyId: 'co-nowhere' }, { ...company }),
    );
    expect(outcome.ok).toBe(false);
    expect([...new Set(outcome.problems.map((p) => p.line))]).toEqual([2, 3, 4, 5, 6]);
    expect(outcome.problems.find((p) => p.line === 3)!.message).toMatch(/roleFamily/);
    expect(outcome.problems.find((p) => p.line === 5)!.message).toMatch(/co-nowhere/);
    expect(outcome.problems.find((p) => p.line === 6)!.message).toMatch(/duplicate id/);
    expect(await getCompanyByDomain('acmeimportlabs.io')).toBeUndefined();
  });

  it('refuses a domain that is not a host name, naming its line', async () => {
    const outcome = await importCuratedRecords(lines(fund, { ...company, id: 'co-imp-nodomain', domain: 'not a domain' }));
    expect(outcome.ok).toBe(false);
    expect(outcome.problems.map((p) => p.line)).toEqual([2]);
    expect(outcome.problems[0].message).toMatch(/domain/);
  });

  it('loads funds, companies, people and rounds, folding rounds into their funds and companies', async () => {
    const outcome = await importCuratedRecords(lines(fund, company, person, round));
    expect(outcome).toMatchObject({ ok: true, counts: { fund: 1, company: 1, person: 1, round: 1 } });
    const stored = await getCompanyByDomain('acmeimportlabs.io');
    expect(stored).toMatchObject({ id: 'co-imp-acme', domain: 'acmeimportlabs.io', employeeCount: 12, rounds: [{ id: 'rnd-imp-acme-seed', leadFundName: 'Acme Import Ventures' }] });
    expect((await listPeopleByCompany('co-imp-acme')).map((p) => [p.fullName, p.companyName])).toEqual([['Ada Stone', 'Acme Import Labs']]);
    const rwa = await listFundsInSector('rwa');
    expect(rwa.find((f) => f.id === 'fund-imp-acme')?.sectorRecord.seed).toMatchObject({ led: 1, joined: 0 });
    const coInvestor = await getCuratedEntity<CuratedFund>('fund', 'fund-lattice');
    expect(coInvestor?.rounds.some((r) => r.id === 'rnd-imp-acme-seed' && r.leadFundId === 'fund-imp-acme')).toBe(true);
    expect((await findByName('fund', 'acme import ventures')).map((f) => f.id)).toEqual(['fund-imp-acme']);
  });

  it('replaces a record by id and drops index entries the new version no longer has', async () => {
    await importCuratedRecords(lines(company));
    const outcome = await importCuratedRecords(lines({ ...company, domain: 'acme-renamed.io', employeeCount: null }));
    expect(outcome.ok).toBe(true);
    expect(await getCompanyByDomain('acmeimportlabs.io')).toBeUndefined();
    expect(await getCompanyByDomain('acme-renamed.io')).toMatchObject({ id: 'co-imp-acme', employeeCount: null });
  });

  it("keeps the investors' portfolios current when a company or its contact is imported alone (warm intros read them)", async () => {
    const ids = { fund: 'fund-imp-port', company: 'co-imp-port', person: 'per-imp-port-1' };
    const portfolioOf = async (fundName: string) => (await fundsNamedWithPortfolio(fundName))[0]?.portfolio;
    await importCuratedRecords(
      lines(
        { ...fund, id: ids.fund, name: 'Portfolio Import Ventures', domain: 'portfolio-import.vc' },
        { ...company, id: ids.company, name: 'Port Labs', domain: 'portlabs.io', primaryContactId: ids.person },
        { ...person, id: ids.person, companyId: ids.company },
        { ...round, id: 'rnd-imp-port-seed', companyId: ids.company, leadFundId: ids.fund, investorIds: [ids.fund, 'fund-lattice'] },
      ),
    );
    expect(await portfolioOf('Portfolio Import Ventures')).toEqual([
      expect.objectContaining({ id: ids.company, name: 'Port Labs', raisedUsd: 3_000_000, roundCount: 1, contact: { fullName: 'Ada Stone', role: 'CEO' } }),
    ]);
    const lattice = await getCuratedEntity<CuratedFund>('fund', 'fund-lattice');
    expect((await portfolioOf(lattice!.name))?.find((c) => c.id === ids.company)?.contact).toEqual({ fullName: 'Ada Stone', role: 'CEO' });

    // The contact alone: both investors' portfolios follow.
    expect((await importCuratedRecords(lines({ ...person, id: ids.person, companyId: ids.company, lastName: 'Rivers', role: 'Chief Executive' }))).ok).toBe(true);
    expect((await portfolioOf('Portfolio Import Ventures'))?.[0].contact).toEqual({ fullName: 'Ada Rivers', role: 'Chief Executive' });
    expect((await portfolioOf(lattice!.name))?.find((c) => c.id === ids.company)?.contact).toEqual({ fullName: 'Ada Rivers', role: 'Chief Executive' });

    // The company alone, renamed: its rounds stay, the portfolio shows the new name.
    expect((await importCuratedRecords(lines({ ...company, id: ids.company, name: 'Port Renamed Labs', domain: 'portlabs.io', primaryContactId: ids.person }))).ok).toBe(true);
    expect((await portfolioOf('Portfolio Import Ventures'))?.[0]).toMatchObject({ name: 'Port Renamed Labs', raisedUsd: 3_000_000, contact: { fullName: 'Ada Rivers' } });
    const [route] = await warmIntroPaths.rank({ target_fund_name: 'Portfolio Import Ventures' });
    expect(route.fields).toMatchObject({ name: 'Port Renamed Labs' });
    expect(String(route.fields.rationale)).toContain('Ada Rivers (Chief Executive) is the route in');
  });

  it('reads the companies and contacts of a fund stored without its portfolio (a table seeded under layout 4)', async () => {
    const lattice = (await getCuratedEntity<CuratedFund>('fund', 'fund-lattice'))!;
    const withPortfolio = (await fundsNamedWithPortfolio(lattice.name))[0].portfolio;
    expect(withPortfolio.length).toBeGreaterThan(0);
    await putCuratedItems(curatedItemsFor(lattice).filter((item) => item.entity === 'curated'));
    expect((await getCuratedEntity<CuratedFund>('fund', 'fund-lattice'))?.id).toBe('fund-lattice');
    expect((await fundsNamedWithPortfolio(lattice.name))[0].portfolio).toEqual(withPortfolio);
    await putCuratedItems(await portfolioUpdates([lattice], new Map()));
  });
});
