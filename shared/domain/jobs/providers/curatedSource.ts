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

/**
 * Remembers answers for `ttlMs` (at most `maxEntries` of each kind, oldest dropped first). Curated
 * data is reference data that changes only when an operator seeds or imports, while one job asks
 * about the same company in up to four stages: a warm worker answers the repeats from memory.
 */
export function cachedCuratedSource(
  source: CuratedSource,
  options: { ttlMs: number; maxEntries: number; now?: () => number },
): CuratedSource {
  const clock = options.now ?? Date.now;
  const cache = <T>(load: (key: string) => Promise<T>) => {
    const entries = new Map<string, { at: number; value: Promise<T> }>();
    return (key: string): Promise<T> => {
      const hit = entries.get(key);
      if (hit && clock() - hit.at < options.ttlMs) return hit.value;
      const value = load(key);
      // A failed look-up is not remembered: the next delivery asks again.
      value.catch(() => entries.delete(key));
      entries.delete(key);
      entries.set(key, { at: clock(), value });
      // The oldest entry is the first in insertion order (a hit was re-inserted above).
      const oldest = entries.keys().next();
      if (entries.size > options.maxEntries && !oldest.done) entries.delete(oldest.value);
      return value;
    };
  };
  return {
    companyByDomain: cache((d) => source.companyByDomain(d)),
    peopleAtCompany: cache((id) => source.peopleAtCompany(id)),
    personByLinkedinUrl: cache((u) => source.personByLinkedinUrl(u)),
  };
}
