import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { importCuratedRecords } from '#bin/curated/importer';
import {
  findByName,
  getCompanyByDomain,
  getCuratedEntity,
  listFundsInSector,
  listPeopleByCompany,
} from '#shared/store/curatedReads';
import { fundsNamedWithPortfolio, refreshPortfolios } from '#shared/domain/curated/funds';
import { putCuratedEntities } from '#shared/store/curatedWrites';
import { shardEntriesOf } from '#shared/store/curatedItems';
import { warmIntroPaths } from '#shared/domain/intelligence/engines/warmIntros';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { vi } from 'vitest';
import { ddb, table } from '#shared/store/client';
import { curatedShardKey, curatedShardOf } from '#shared/store/keys';

const shardOfFund = (fundId: string) => curatedShardKey('fund', curatedShardOf('fund', fundId));
/** The fund's entry in its shard, as stored now. */
const storedEntry = async (fundId: string) => {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: shardOfFund(fundId), ConsistentRead: true }),
  );
  return Item ? shardEntriesOf(Item).get(fundId) : undefined;
};
import type { CuratedFund } from '#shared/domain/curated/model';

const lines = (...records: unknown[]) => records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n');
const fund = {
  kind: 'fund',
  id: 'fund-imp-acme',
  name: 'Acme Import Ventures',
  domain: 'acme-import.vc',
  fundType: 'vc',
  tier: 2,
  jurisdiction: 'singapore',
  sectors: ['rwa'],
  stages: ['seed'],
  minChequeUsd: 250_000,
  maxChequeUsd: 1_000_000,
};
const company = {
  kind: 'company',
  id: 'co-imp-acme',
  name: 'Acme Import Labs',
  domain: 'https://www.AcmeImportLabs.io',
  sectors: ['rwa'],
  employeeCount: 12,
  emailPattern: 'flast',
};
const person = {
  kind: 'person',
  id: 'per-imp-acme-1',
  firstName: 'Ada',
  lastName: 'Stone',
  role: 'CEO',
  roleFamily: 'leadership',
  companyId: 'co-imp-acme',
  email: 'astone@acmeimportlabs.io',
};
const round = {
  kind: 'round',
  id: 'rnd-imp-acme-seed',
  companyId: 'co-imp-acme',
  sector: 'rwa',
  stage: 'seed',
  amountUsd: 3_000_000,
  announcedOn: '2026-05-01',
  leadFundId: 'fund-imp-acme',
  investorIds: ['fund-imp-acme', 'fund-lattice'],
};

describe('JSONL import', () => {
  it('reports every bad line by number and loads nothing when any line is bad', async () => {
    const outcome = await importCuratedRecords(
      lines(
        company,
        '{not json',
        { ...person, id: 'per-imp-bad', roleFamily: 'wizardry' },
        { kind: 'spaceship' },
        { ...round, id: 'rnd-imp-bad', companyId: 'co-nowhere' },
        { ...company },
      ),
    );
    expect(outcome.ok).toBe(false);
    expect([...new Set(outcome.problems.map((p) => p.line))]).toEqual([2, 3, 4, 5, 6]);
    expect(outcome.problems.find((p) => p.line === 3)!.message).toMatch(/roleFamily/);
    expect(outcome.problems.find((p) => p.line === 5)!.message).toMatch(/co-nowhere/);
    expect(outcome.problems.find((p) => p.line === 6)!.message).toMatch(/duplicate id/);
    expect(await getCompanyByDomain('acmeimportlabs.io')).toBeUndefined();
  });

  it('refuses a domain that is not a host name, naming its line', async () => {
    const outcome = await importCuratedRecords(
      lines(fund, { ...company, id: 'co-imp-nodomain', domain: 'not a domain' }),
    );
    expect(outcome.ok).toBe(false);
    expect(outcome.problems.map((p) => p.line)).toEqual([2]);
    expect(outcome.problems[0].message).toMatch(/domain/);
  });

  it('loads funds, companies, people and rounds, folding rounds into their funds and companies', async () => {
    const outcome = await importCuratedRecords(lines(fund, company, person, round));
    expect(outcome).toMatchObject({ ok: true, counts: { fund: 1, company: 1, person: 1, round: 1 } });
    const stored = await getCompanyByDomain('acmeimportlabs.io');
    expect(stored).toMatchObject({
      id: 'co-imp-acme',
      domain: 'acmeimportlabs.io',
      employeeCount: 12,
      rounds: [{ id: 'rnd-imp-acme-seed', leadFundName: 'Acme Import Ventures' }],
    });
    expect((await listPeopleByCompany('co-imp-acme')).map((p) => [p.fullName, p.companyName])).toEqual([
      ['Ada Stone', 'Acme Import Labs'],
    ]);
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
        {
          ...round,
          id: 'rnd-imp-port-seed',
          companyId: ids.company,
          leadFundId: ids.fund,
          investorIds: [ids.fund, 'fund-lattice'],
        },
      ),
    );
    expect(await portfolioOf('Portfolio Import Ventures')).toEqual([
      expect.objectContaining({
        id: ids.company,
        name: 'Port Labs',
        raisedUsd: 3_000_000,
        roundCount: 1,
        contact: { fullName: 'Ada Stone', role: 'CEO' },
      }),
    ]);
    const lattice = await getCuratedEntity<CuratedFund>('fund', 'fund-lattice');
    expect((await portfolioOf(lattice!.name))?.find((c) => c.id === ids.company)?.contact).toEqual({
      fullName: 'Ada Stone',
      role: 'CEO',
    });

    // The contact alone: both investors' portfolios follow.
    expect(
      (
        await importCuratedRecords(
          lines({ ...person, id: ids.person, companyId: ids.company, lastName: 'Rivers', role: 'Chief Executive' }),
        )
      ).ok,
    ).toBe(true);
    expect((await portfolioOf('Portfolio Import Ventures'))?.[0].contact).toEqual({
      fullName: 'Ada Rivers',
      role: 'Chief Executive',
    });
    expect((await portfolioOf(lattice!.name))?.find((c) => c.id === ids.company)?.contact).toEqual({
      fullName: 'Ada Rivers',
      role: 'Chief Executive',
    });

    // The company alone, renamed: its rounds stay, the portfolio shows the new name.
    expect(
      (
        await importCuratedRecords(
          lines({
            ...company,
            id: ids.company,
            name: 'Port Renamed Labs',
            domain: 'portlabs.io',
            primaryContactId: ids.person,
          }),
        )
      ).ok,
    ).toBe(true);
    expect((await portfolioOf('Portfolio Import Ventures'))?.[0]).toMatchObject({
      name: 'Port Renamed Labs',
      raisedUsd: 3_000_000,
      contact: { fullName: 'Ada Rivers' },
    });
    const [route] = await warmIntroPaths.rank({ target_fund_name: 'Portfolio Import Ventures' });
    expect(route.fields).toMatchObject({ name: 'Port Renamed Labs' });
    expect(String(route.fields.rationale)).toContain('Ada Rivers (Chief Executive) is the route in');
  });

  it('reads the companies and contacts of a fund stored without its portfolio (between an import and its refresh)', async () => {
    const lattice = (await getCuratedEntity<CuratedFund>('fund', 'fund-lattice'))!;
    const withPortfolio = (await fundsNamedWithPortfolio(lattice.name))[0].portfolio;
    expect(withPortfolio.length).toBeGreaterThan(0);
    await putCuratedEntities([lattice]);
    expect((await storedEntry('fund-lattice'))?.portfolio).toBeUndefined();
    expect((await getCuratedEntity<CuratedFund>('fund', 'fund-lattice'))?.id).toBe('fund-lattice');
    expect((await fundsNamedWithPortfolio(lattice.name))[0].portfolio).toEqual(withPortfolio);
    await refreshPortfolios([lattice], new Map());
    expect((await storedEntry('fund-lattice'))?.portfolio).toEqual(withPortfolio);
  });

  it('never puts a fund back from an older read: a fund changed by another import meanwhile is read again before its portfolio is written', async () => {
    const ids = { fund: 'fund-imp-race', a: 'co-imp-race-a', b: 'co-imp-race-b' };
    await importCuratedRecords(
      lines(
        { ...fund, id: ids.fund, name: 'Race Import Ventures', domain: 'race-import.vc' },
        { ...company, id: ids.a, name: 'Race A Labs', domain: 'race-a.io' },
        { ...company, id: ids.b, name: 'Race B Labs', domain: 'race-b.io' },
        { ...round, id: 'rnd-imp-race-a', companyId: ids.a, leadFundId: ids.fund, investorIds: [ids.fund] },
      ),
    );
    // Between this import's read of the fund's shard and its portfolio write, another import adds a round in B to it.
    const client = ddb();
    const send = client.send.bind(client);
    let raced = false;
    const spy = vi.spyOn(client, 'send').mockImplementation((async (command: {
      constructor: { name: string };
      input: { Item?: { pk?: string } };
    }) => {
      if (command.constructor.name === 'PutCommand' && command.input.Item?.pk === shardOfFund(ids.fund).pk && !raced) {
        raced = true;
        const entity = (await storedEntry(ids.fund))!.entity as CuratedFund;
        const added = { ...entity.rounds[0], id: 'rnd-imp-race-b', companyId: ids.b, companyName: 'Race B Labs' };
        await putCuratedEntities([{ ...entity, rounds: [added, ...entity.rounds] }]);
      }
      return send(command as never);
    }) as never);
    try {
      expect(
        (await importCuratedRecords(lines({ ...company, id: ids.a, name: 'Race A Renamed', domain: 'race-a.io' }))).ok,
      ).toBe(true);
    } finally {
      spy.mockRestore();
    }
    expect(raced).toBe(true);
    const stored = (await getCuratedEntity<CuratedFund>('fund', ids.fund))!;
    expect(stored.rounds.map((r) => r.id).sort()).toEqual(['rnd-imp-race-a', 'rnd-imp-race-b']);
    const kept = (await storedEntry(ids.fund))!.portfolio!;
    expect(kept.map((c) => [c.id, c.name]).sort()).toEqual([
      [ids.a, 'Race A Renamed'],
      [ids.b, 'Race B Labs'],
    ]);
  });

  it('a contact who moved to another company is no longer the route into their former one', async () => {
    const ids = { fund: 'fund-imp-move', a: 'co-imp-move-a', b: 'co-imp-move-b', person: 'per-imp-move-1' };
    await importCuratedRecords(
      lines(
        { ...fund, id: ids.fund, name: 'Move Import Ventures', domain: 'move-import.vc' },
        { ...company, id: ids.a, name: 'Move A Labs', domain: 'move-a.io', primaryContactId: ids.person },
        { ...company, id: ids.b, name: 'Move B Labs', domain: 'move-b.io' },
        { ...person, id: ids.person, companyId: ids.a },
        { ...round, id: 'rnd-imp-move-a', companyId: ids.a, leadFundId: ids.fund, investorIds: [ids.fund] },
      ),
    );
    const contactOf = async () => (await fundsNamedWithPortfolio('Move Import Ventures'))[0].portfolio[0].contact;
    expect(await contactOf()).toEqual({ fullName: 'Ada Stone', role: 'CEO' });
    expect((await importCuratedRecords(lines({ ...person, id: ids.person, companyId: ids.b }))).ok).toBe(true);
    expect(await contactOf()).toBeNull();
    expect(
      (
        await importCuratedRecords(
          lines({ ...person, id: ids.person, companyId: ids.b, lastName: 'Rivers', role: 'CFO' }),
        )
      ).ok,
    ).toBe(true);
    expect(await contactOf()).toBeNull();
  });

  it('keeps no portfolio on a fund whose shard it would push near the 400 KB item limit: that fund is read the long way', async () => {
    // Text that does not compress (shards are gzipped): letters drawn at random from a wide range.
    const noise = (length: number) =>
      Array.from({ length }, () => String.fromCodePoint(randomInt(0x4e00, 0x9fff))).join('');
    const companies = Array.from({ length: 150 }, (_, i) => ({
      ...company,
      id: `co-imp-big-${i}`,
      name: `Big ${i} Labs`,
      domain: `big-${i}.io`,
      description: noise(2000),
      tagline: noise(300),
    }));
    const rounds = companies.map((c, i) => ({
      ...round,
      id: `rnd-imp-big-${i}`,
      companyId: c.id,
      leadFundId: 'fund-imp-big',
      investorIds: ['fund-imp-big'],
    }));
    const outcome = await importCuratedRecords(
      lines(
        { ...fund, id: 'fund-imp-big', name: 'Big Import Ventures', domain: 'big-import.vc' },
        ...companies,
        ...rounds,
      ),
    );
    expect(outcome.ok).toBe(true);
    expect(await storedEntry('fund-imp-big')).toMatchObject({ entity: { id: 'fund-imp-big' } });
    expect((await storedEntry('fund-imp-big'))?.portfolio).toBeUndefined();
    const [found] = await fundsNamedWithPortfolio('Big Import Ventures');
    expect(found.portfolio).toHaveLength(150);
    expect(found.portfolio.find((c) => c.id === companies[0].id)?.description).toBe(companies[0].description);
  });
});
