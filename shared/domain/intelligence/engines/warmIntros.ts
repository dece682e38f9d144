/**
 * warm-intro-paths-v1: the target fund's portfolio companies, each backed by funding-round evidence
 * (rounds where the fund was lead or investor). The founder of each company is the intro route.
 */
import { SECTORS, STAGES, termLabel } from '#shared/domain/curated/taxonomy';
import { DATASET_AS_OF, type CuratedFund, type CuratedRound } from '#shared/domain/curated/model';
import type { PortfolioCompany } from '#shared/domain/curated/portfolio';
import { fundsNamedRead } from '#shared/store/curatedReads';
import { fundsNamedWithPortfolio, type FundWithPortfolio, withPortfolios } from '#shared/domain/curated/funds';
import type { ShardEntry } from '#shared/store/curatedItems';
import type { CanonicalSlots } from '#shared/domain/intelligence/slots';
import { daysBetween, listOf, monthYear, plural, sentence, usd } from './format';
import { byScore, type PackageEngine, type PreparedRanking, type RankedRecord } from './types';

export interface PortfolioEvidence {
  company: PortfolioCompany;
  /** The fund's rounds in the company, newest first. */
  rounds: CuratedRound[];
}

/** The fund's rounds grouped by company, kept when they match the sector and stage filters. */
export function roundsByCompany(fund: CuratedFund, slots: CanonicalSlots): Map<string, CuratedRound[]> {
  const byCompany = new Map<string, CuratedRound[]>();
  for (const round of fund.rounds) {
    if (slots.sector_focus !== undefined && round.sector !== slots.sector_focus) continue;
    if (slots.stage !== undefined && round.stage !== slots.stage) continue;
    byCompany.set(round.companyId, [...(byCompany.get(round.companyId) ?? []), round]);
  }
  return byCompany;
}

export function rankIntroRoutes(fund: CuratedFund, evidence: PortfolioEvidence[]): RankedRecord[] {
  return evidence
    .map(({ company, rounds }) => {
      const { contact } = company;
      const led = rounds.filter((r) => r.leadFundId === fund.id);
      const newest = rounds[0];
      const age = daysBetween(newest.announcedOn, DATASET_AS_OF);
      const score =
        10 * led.length +
        4 * rounds.length +
        (age <= 365 ? 8 : age <= 730 ? 4 : 0) +
        Math.log10(newest.amountUsd) +
        (contact ? 3 : 0);
      const evidenceText = rounds
        .slice(0, 2)
        .map((r) => {
          const others = r.investors.filter((i) => i.id !== fund.id).map((i) => i.name);
          const company = others.length
            ? ` with ${listOf(others.slice(0, 2))}${others.length > 2 ? ` and ${plural(others.length - 2, 'other')}` : ''}`
            : '';
          return `${r.leadFundId === fund.id ? 'led' : 'joined'} its ${usd(r.amountUsd)} ${termLabel(STAGES, r.stage)} in ${monthYear(r.announcedOn)}${company}`;
        })
        .join(', and ');
      const rationale = sentence([
        `${fund.name} ${evidenceText}${rounds.length > 2 ? ` (${rounds.length} rounds in all)` : ''}`,
        contact
          ? `${contact.fullName} (${contact.role}) is the route in`
          : 'no named founder on record; approach through the company',
      ]);
      return {
        id: company.id,
        score: Math.round(score * 100) / 100,
        fields: {
          name: company.name,
          website: company.website,
          focus_area: company.sectors.map((s) => termLabel(SECTORS, s)).join(', '),
          investment_stage: termLabel(STAGES, newest.stage),
          tagline: company.tagline,
          description: company.description,
          intelligence_blurb: `${company.name} (${company.location}) has raised ${usd(company.raisedUsd)} over ${plural(company.roundCount, 'round')}; ${fund.name} has been on its cap table since ${monthYear(rounds[rounds.length - 1].announcedOn)}${led.length ? ` and led ${plural(led.length, 'round')}` : ''}.`,
          rationale,
        },
      };
    })
    .sort(byScore);
}

/** The fund a name points at: the first by id among same-named funds, with its portfolio. */
const firstFund = (matches: FundWithPortfolio[]): FundWithPortfolio | undefined =>
  matches.sort((a, b) => a.fund.id.localeCompare(b.fund.id))[0];

function rankFund(found: FundWithPortfolio | undefined, slots: CanonicalSlots): RankedRecord[] {
  if (!found) return [];
  const companies = new Map(found.portfolio.map((c) => [c.id, c]));
  const evidence = [...roundsByCompany(found.fund, slots)].flatMap(([companyId, rounds]) => {
    const company = companies.get(companyId);
    return company ? [{ company, rounds }] : [];
  });
  return rankIntroRoutes(found.fund, evidence);
}

export const warmIntroPaths: PackageEngine = {
  rank: async (slots) => rankFund(firstFund(await fundsNamedWithPortfolio(String(slots.target_fund_name))), slots),
  // The name's lookup bucket, then the fund's shard read with the caller's items.
  async prepare(slots): Promise<PreparedRanking<ShardEntry[]>> {
    const read = await fundsNamedRead(String(slots.target_fund_name));
    return { read, rank: async (entries) => rankFund(firstFund(await withPortfolios(entries)), slots) };
  },
  summary(slots, records, candidates) {
    if (records.length === 0)
      return `No funding round in the dataset links ${slots.target_fund_name} to a portfolio company${slots.sector_focus || slots.stage ? ' with these filters' : ''}.`;
    return `${plural(records.length, 'warm intro route')} into ${slots.target_fund_name} out of ${candidates} backed by funding rounds, companies it led first; start with ${records[0].fields.name}.`;
  },
};
