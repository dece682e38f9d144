/**
 * The curated dataset as the built-in providers see it. The default reads the intelligence area's
 * curated store; tests of the providers pass an in-memory source with the same shape.
 */
export interface CuratedCompanyFacts {
  id: string;
  name: string;
  domain: string;
  employeeCount: number | null;
  sectors: string[];
  location: string | null;
  description: string | null;
}

export interface CuratedPersonFacts {
  id: string;
  fullName: string;
  firstName: string | null;
  lastName: string | null;
  role: string | null;
  companyId: string | null;
  companyName: string | null;
  email: string | null;
  linkedinUrl: string | null;
  xUrl: string | null;
  githubUrl: string | null;
  location: string | null;
}

export interface CuratedSource {
  companyByDomain(domain: string): Promise<CuratedCompanyFacts | undefined>;
  peopleAtCompany(companyId: string): Promise<CuratedPersonFacts[]>;
  personByLinkedinUrl(url: string): Promise<CuratedPersonFacts | undefined>;
}

/** Remembers answers for the life of one stage run: a batch asks about the same company several times. */
export function memoised(source: CuratedSource): CuratedSource {
  const companies = new Map<string, Promise<CuratedCompanyFacts | undefined>>();
  const people = new Map<string, Promise<CuratedPersonFacts[]>>();
  const profiles = new Map<string, Promise<CuratedPersonFacts | undefined>>();
  const once = <T>(map: Map<string, Promise<T>>, key: string, load: () => Promise<T>) => {
    if (!map.has(key)) map.set(key, load());
    return map.get(key)!;
  };
  return {
    companyByDomain: (d) => once(companies, d, () => source.companyByDomain(d)),
    peopleAtCompany: (id) => once(people, id, () => source.peopleAtCompany(id)),
    personByLinkedinUrl: (u) => once(profiles, u, () => source.personByLinkedinUrl(u)),
  };
}
