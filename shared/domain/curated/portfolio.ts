/**
 * What a warm-intro query needs of a fund's portfolio companies, kept on the fund's profile item
 * (curated layout 5) so that the query reads the fund and its portfolio in one request instead of
 * the fund, then its companies, then their contacts (two BatchGetItems each past 100 companies).
 * Written by the seed and kept current by imports (a fund, one of its companies or a company's
 * primary contact changing rewrites the funds concerned).
 */
import type { CuratedCompany, CuratedEntity, CuratedFund, CuratedPerson } from './model';

export interface PortfolioCompany {
  id: string;
  name: string;
  website: string;
  sectors: CuratedCompany['sectors'];
  location: string;
  tagline: string;
  description: string;
  /** All the company's rounds, not only the fund's. */
  raisedUsd: number;
  roundCount: number;
  /** The company's primary contact, the intro route. */
  contact: Pick<CuratedPerson, 'fullName' | 'role'> | null;
}

/** The ids of the companies the fund took part in a round of. */
export const portfolioCompanyIds = (fund: CuratedFund): string[] => [...new Set(fund.rounds.map((r) => r.companyId))];

/** The fund's portfolio from the entities at hand; a company missing from them is left out. */
export function portfolioOf(fund: CuratedFund, entity: (id: string) => CuratedEntity | undefined): PortfolioCompany[] {
  return portfolioCompanyIds(fund).flatMap((id) => {
    const company = entity(id);
    if (company?.kind !== 'company') return [];
    // The route in is someone at the company: a contact who has moved elsewhere is no longer one.
    const named = company.primaryContactId ? entity(company.primaryContactId) : undefined;
    const contact = named?.kind === 'person' && named.companyId === company.id ? named : undefined;
    return [
      {
        id: company.id,
        name: company.name,
        website: company.website,
        sectors: company.sectors,
        location: company.location,
        tagline: company.tagline,
        description: company.description,
        raisedUsd: company.rounds.reduce((sum, r) => sum + r.amountUsd, 0),
        roundCount: company.rounds.length,
        contact: contact ? { fullName: contact.fullName, role: contact.role } : null,
      },
    ];
  });
}

/**
 * The funds whose stored portfolio changes when these entities are written: the funds themselves,
 * the investors of the companies, and the investors of the companies whose primary contact is one of
 * the people (pass a moved person's earlier version too: their former company). `entity` must know
 * the people's companies.
 */
export function fundsConcerned(
  changed: CuratedEntity[],
  entity: (id: string) => CuratedEntity | undefined,
): Set<string> {
  const funds = new Set<string>();
  const investorsOf = (company: CuratedCompany) => {
    for (const r of company.rounds) for (const i of r.investors) funds.add(i.id);
  };
  for (const e of changed) {
    if (e.kind === 'fund') funds.add(e.id);
    else if (e.kind === 'company') investorsOf(e);
    else if (e.kind === 'person') {
      const company = entity(e.companyId);
      if (company?.kind === 'company' && company.primaryContactId === e.id) investorsOf(company);
    }
  }
  return funds;
}
