import { describe, expect, it } from 'vitest';
import { rankFunds } from '#shared/domain/intelligence/engines/vcShortlist';
import { rankKols } from '#shared/domain/intelligence/engines/kols';
import { networkOf } from '#shared/domain/intelligence/expansions';
import { fundProfileStats, sectorRecord } from '#shared/domain/curated/fundStats';
import type { CuratedFund, CuratedKol, CuratedRound } from '#shared/domain/curated/model';
import type { FundInSector } from '#shared/store/curatedReads';

let seq = 0;
const round = (over: Partial<CuratedRound> & Pick<CuratedRound, 'leadFundId' | 'investors'>): CuratedRound => ({
  id: `rnd-${++seq}`,
  companyId: `co-${seq}`,
  companyName: `Company ${seq}`,
  sector: 'defi',
  stage: 'seed',
  amountUsd: 2_000_000,
  announcedOn: '2026-06-01',
  leadFundName: over.investors[0].name,
  ...over,
});
const fund = (id: string, over: Partial<CuratedFund> = {}): CuratedFund => ({
  kind: 'fund',
  id,
  name: `Fund ${id}`,
  domain: `${id}.vc`,
  website: `https://${id}.vc`,
  fundType: 'vc',
  tier: 2,
  jurisdiction: 'singapore',
  location: 'Singapore',
  sectors: ['defi'],
  stages: ['seed'],
  minChequeUsd: 250_000,
  maxChequeUsd: 1_000_000,
  foundedYear: 2018,
  tagline: 't',
  description: 'd',
  partnerId: null,
  rounds: [],
  ...over,
});
const inSector = (f: CuratedFund): FundInSector => {
  const { rounds, ...rest } = f;
  return {
    ...rest,
    roundCount: rounds.length,
    ...fundProfileStats(f),
    sectorRecord: sectorRecord(f, 'defi', '2026-11-15'),
  };
};
const A = { id: 'a', name: 'Fund a' };
const B = { id: 'b', name: 'Fund b' };
const C = { id: 'c', name: 'Fund c' };

describe('VC shortlist ranking', () => {
  const rounds = [
    round({ leadFundId: 'a', investors: [A, B] }),
    round({
      leadFundId: 'a',
      investors: [A, C],
      companyName: 'Lumen Finance',
      amountUsd: 3_200_000,
      announcedOn: '2026-09-10',
    }),
    round({ leadFundId: 'b', investors: [B, A] }),
    round({ leadFundId: 'c', investors: [C], stage: 'series-a' }),
  ];
  const funds = [A, B, C].map(({ id }) =>
    fund(id, { rounds: rounds.filter((r) => r.investors.some((i) => i.id === id)) }),
  );

  it('puts the fund that led most rounds in the sector and stage first, and cites them', () => {
    const ranked = rankFunds(funds.map(inSector), { sector_focus: 'defi', stage: 'seed', limit: 10 });
    expect(ranked.map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(ranked[0].fields.rationale).toMatch(
      /^Led 2 DeFi seed rounds and joined 1 more \(latest: Lumen Finance, \$3\.2M in Sep 2026 as lead\)/,
    );
    expect(ranked[2].fields.rationale).toMatch(/^Joined 1 DeFi seed round/);
    expect(ranked[0].fields.intelligence_blurb).toMatch(
      /^Fund a has led 2 of its 3 rounds on record \(67% as lead\) across DeFi; DeFi at seed accounts for 3 of them; most frequent co-investors: Fund b and Fund c/,
    );
  });

  it('drops funds outside the cheque range or filters, and says how the cheques fit', () => {
    const withBig = [...funds, fund('d', { minChequeUsd: 5_000_000, maxChequeUsd: 9_000_000 })].map(inSector);
    const ranked = rankFunds(withBig, {
      sector_focus: 'defi',
      stage: 'seed',
      limit: 10,
      min_investment: 500_000,
      max_investment: 2_000_000,
    });
    expect(ranked.map((r) => r.id)).not.toContain('d');
    expect(ranked[0].fields.rationale).toMatch(/cheques \$250k–\$1M overlap 33% of your \$500k–\$2M range/);
    expect(rankFunds(withBig, { sector_focus: 'defi', stage: 'seed', limit: 10, tier: 1 })).toEqual([]);
  });
});

describe('network depth', () => {
  it('counts co-investors from shared rounds and names the companies they share', () => {
    const a = fund('a', {
      rounds: [
        round({ leadFundId: 'a', investors: [A, B], companyId: 'co-x', companyName: 'X' }),
        round({ leadFundId: 'b', investors: [B, A], companyId: 'co-y', companyName: 'Y', announcedOn: '2026-10-01' }),
        round({ leadFundId: 'a', investors: [A, C], companyId: 'co-x', companyName: 'X' }),
      ],
    });
    const net = networkOf(a);
    expect(net.co_investors[0]).toMatchObject({
      fund_id: 'b',
      shared_rounds: 2,
      rounds_led_by_this_fund: 1,
      last_shared_round: '2026-10-01',
      relationship_strength: 'medium',
    });
    expect(net.co_investors[1]).toMatchObject({ fund_id: 'c', shared_rounds: 1, relationship_strength: 'weak' });
    expect(net.shared_portfolio_companies[0]).toMatchObject({
      name: 'X',
      co_investors: ['Fund b', 'Fund c'],
      rounds: 2,
    });
    expect(net.network_summary).toMatch(/co-invests most with Fund b \(2 shared rounds/);
  });
});

describe('KOL ranking', () => {
  const kol = (id: string, over: Partial<CuratedKol>): CuratedKol => ({
    kind: 'kol',
    id,
    name: id,
    handle: id,
    platform: 'x',
    followers: 10_000,
    gmScore: 500,
    smarts: 50,
    xBioLabel: 'DeFi researcher',
    xBioReason: 'r',
    sectors: ['defi'],
    location: 'Lisbon, Portugal',
    description: 'd',
    email: null,
    linkedinUrl: null,
    xUrl: null,
    telegramHandle: null,
    phone: null,
    githubUrl: null,
    ...over,
  });
  it('applies thresholds and ranks by GM Score and smart followers', () => {
    const ranked = rankKols(
      [kol('low', { gmScore: 300 }), kol('high', { gmScore: 900, smarts: 400 }), kol('small', { followers: 900 })],
      { sector_focus: 'defi', limit: 10, min_followers: 1000 },
    );
    expect(ranked.map((r) => r.id)).toEqual(['high', 'low']);
    expect(ranked[0].fields.rationale).toMatch(
      /GM Score 900 with 400 smart followers; 10k followers on X \(above your 1k minimum\)/,
    );
  });
});
