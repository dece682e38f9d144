/** What growth asks the curated data: is a company domain known, and which domain has a company name. */
import type { SectorId } from '../../data/taxonomy';
import { findByName, getCompanyByDomain, getCuratedEntities, listProspectsInSector, type CuratedCompany } from '../../store/curatedRepo';
import type { NormalizedCompany } from './normalize';

export async function isCuratedCompanyDomain(domain: string): Promise<boolean> {
  return (await getCompanyByDomain(domain)) !== undefined;
}

/** Lower-cased company name to the curated domain, for the names the curated data knows (first match wins). */
export async function curatedDomainsByName(names: string[]): Promise<Map<string, string>> {
  const found = await Promise.all(names.map(async (name) => [name.toLowerCase(), (await findByName('company', name))[0]?.domain] as const));
  return new Map(found.filter((pair): pair is readonly [string, string] => pair[1] !== undefined));
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
