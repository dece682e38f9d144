/** What growth asks the curated data: which company domains it knows, and which domain has a company name. */
import type { SectorId } from '#shared/domain/curated/taxonomy';
import {
  companyLookup,
  getCuratedEntities,
  listProspectsInSector,
  type CompanyLookup,
} from '#shared/store/curatedReads';
import type { CuratedCompany } from '#shared/domain/curated/model';
import type { NormalizedCompany } from './normalize';

/** One reader for one request: the lookup partitions it reads are read once, whatever it asks. */
export const curatedCompanyLookup = (): CompanyLookup => companyLookup();

/** How many of the domains the curated data knows a company at (a subdomain counts for its parent). */
export async function countCuratedCompanyDomains(
  domains: string[],
  lookup: CompanyLookup = companyLookup(),
): Promise<number> {
  const known = await lookup.knownDomains(domains);
  return domains.filter((d) => known.has(d)).length;
}

/** Lower-cased company name to the curated domain, for the names the curated data knows (first match wins). */
export async function curatedDomainsByName(
  names: string[],
  lookup: CompanyLookup = companyLookup(),
): Promise<Map<string, string>> {
  const found = await lookup.companiesByName(names);
  return new Map(
    names.flatMap((name) => {
      const company = found.get(name);
      return company ? [[name.toLowerCase(), company.domain] as const] : [];
    }),
  );
}

/**
 * Companies of a sector, for goals that name a market instead of pasting companies ("leads in
 * DeFi"): the employers of the sector's prospects whose own sectors include it, first `limit`.
 */
export async function curatedCompaniesInSector(sector: SectorId, limit: number): Promise<NormalizedCompany[]> {
  const people = await listProspectsInSector(sector);
  const ids = [...new Set(people.filter((p) => p.organizationKind === 'company').map((p) => p.companyId))];
  const companies = await getCuratedEntities<CuratedCompany>('company', ids);
  return [...companies.values()]
    .filter((c) => c.sectors.includes(sector))
    .slice(0, limit)
    .map((c) => ({ company_name: c.name, domain: c.domain }));
}
