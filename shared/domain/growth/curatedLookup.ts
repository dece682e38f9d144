/** What growth asks the curated data: is a company domain known, and which domain has a company name. */
import { findByName, getCompanyByDomain } from '../../store/curatedRepo';

export async function isCuratedCompanyDomain(domain: string): Promise<boolean> {
  return (await getCompanyByDomain(domain)) !== undefined;
}

/** Lower-cased company name to the curated domain, for the names the curated data knows (first match wins). */
export async function curatedDomainsByName(names: string[]): Promise<Map<string, string>> {
  const found = await Promise.all(names.map(async (name) => [name.toLowerCase(), (await findByName('company', name))[0]?.domain] as const));
  return new Map(found.filter((pair): pair is readonly [string, string] => pair[1] !== undefined));
}
