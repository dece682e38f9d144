/** What growth asks the curated data: is a company domain known, and which domain has a company name. */
export async function isCuratedCompanyDomain(_domain: string): Promise<boolean> {
  // Wired to the curated repository (shared/store/curatedRepo.ts) once it lands.
  return false;
}

/** Lower-cased company name to domain, for the names the curated data knows. */
export async function curatedDomainsByName(_names: string[]): Promise<Map<string, string>> {
  return new Map();
}
