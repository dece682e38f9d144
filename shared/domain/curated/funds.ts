/**
 * Funds with their portfolios (portfolio.ts): kept beside each fund in its shard by the seed and by
 * imports (refreshPortfolios), read with the fund (fundsNamedWithPortfolio).
 */
import { fundsNamedRead, getCuratedEntities, readAlone } from '#shared/store/curatedReads';
import type { ShardEntry } from '#shared/store/curatedItems';
import { changeCuratedEntry } from '#shared/store/curatedWrites';
import type { CuratedCompany, CuratedEntity, CuratedFund, CuratedPerson } from './model';
import { fundsConcerned, portfolioCompanyIds, portfolioOf, type PortfolioCompany } from './portfolio';

/**
 * Rewrites the portfolio kept on every fund that writing `changed` (new and replaced versions of
 * entities, already stored) concerns, from what is stored now (strongly consistent reads). The fund's
 * shard is written under its version: another import that changed the shard meanwhile makes this one
 * read the fund and its portfolio again, and a fund's own data is never put back from an older read.
 * `known` saves reading the people's companies again.
 */
export async function refreshPortfolios(changed: CuratedEntity[], known: Map<string, CuratedEntity>): Promise<void> {
  const companiesOfPeople = changed.flatMap((e) =>
    e.kind === 'person' && e.organizationKind === 'company' && !known.has(e.companyId) ? [e.companyId] : [],
  );
  const at = new Map(known);
  for (const [id, company] of await getCuratedEntities('company', companiesOfPeople, { consistent: true }))
    at.set(id, company);
  for (const fundId of fundsConcerned(changed, (id) => at.get(id)))
    await changeCuratedEntry('fund', fundId, async (stored) =>
      stored?.entity.kind === 'fund'
        ? { entity: stored.entity, portfolio: await readPortfolio(stored.entity, true) }
        : undefined,
    );
}

/** The portfolio of a fund from its stored companies and their contacts (two BatchGetItems of their shards). */
async function readPortfolio(fund: CuratedFund, consistent = false): Promise<PortfolioCompany[]> {
  const companies = await getCuratedEntities<CuratedCompany>('company', portfolioCompanyIds(fund), { consistent });
  const contacts = await getCuratedEntities<CuratedPerson>(
    'person',
    [...companies.values()].flatMap((c) => (c.primaryContactId ? [c.primaryContactId] : [])),
    { consistent },
  );
  return portfolioOf(fund, (id) => companies.get(id) ?? contacts.get(id));
}

/** A fund found by name with its portfolio (portfolio.ts). */
export interface FundWithPortfolio {
  fund: CuratedFund;
  portfolio: PortfolioCompany[];
}

/**
 * The funds whose name has this slug, each with its portfolio, read with the fund from its shard. A
 * fund without one (its shard over budget, or between an import's write and its refresh) or whose
 * portfolio misses one of its companies (an import racing another) has its companies and contacts read instead.
 */
export async function fundsNamedWithPortfolio(name: string): Promise<FundWithPortfolio[]> {
  return withPortfolios(await readAlone(await fundsNamedRead(name)));
}

/**
 * The named funds' stored entries made whole: the portfolio kept beside each when it covers every
 * company of the fund's rounds, else read from the companies and their contacts.
 */
export function withPortfolios(entries: ShardEntry[]): Promise<FundWithPortfolio[]> {
  return Promise.all(
    entries.flatMap(({ entity: fund, portfolio: stored }) => {
      if (fund.kind !== 'fund') return [];
      const storedIds = new Set(stored?.map((c) => c.id));
      const covers = stored && portfolioCompanyIds(fund).every((id) => storedIds.has(id));
      return [(async () => ({ fund, portfolio: stored && covers ? stored : await readPortfolio(fund) }))()];
    }),
  );
}
