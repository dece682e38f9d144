/**
 * ICP scoring as a table of weighted criteria. Only the criteria the caller configured count; the
 * score is the weight met over the weight configured (0-100), and every criterion gives a reason.
 */
import type { CuratedCompanyFacts } from './providers/curatedSource';
import type { IcpCriteria, Qualification } from './providers/types';

export const DEFAULT_MIN_SCORE = 50;

interface Criterion {
  name: string;
  weight: number;
  configured: (c: IcpCriteria) => boolean;
  /** Undefined result: the company's data cannot answer (not in the curated set). */
  test: (company: CuratedCompanyFacts | undefined, c: IcpCriteria) => { met: boolean; reason: string };
}

const lower = (s: string) => s.toLowerCase();
const mentions = (haystack: string[], needles: string[]) =>
  needles.filter((n) => haystack.some((h) => lower(h).includes(lower(n)) || lower(n).includes(lower(h))));
const unknown = (what: string) => ({ met: false, reason: `${what} unknown: company not in the curated data` });

const CRITERIA: Criterion[] = [
  {
    name: 'industry',
    weight: 35,
    configured: (c) => Boolean(c.industries?.length || c.niche),
    test: (company, c) => {
      if (!company) return unknown('industry');
      const wanted = [...(c.industries ?? []), ...(c.niche ? [c.niche] : [])];
      const hits = mentions(company.sectors, wanted);
      return hits.length
        ? { met: true, reason: `sector matches ${hits.join(', ')}` }
        : { met: false, reason: `sectors ${company.sectors.join(', ') || 'none'} match none of ${wanted.join(', ')}` };
    },
  },
  {
    name: 'location',
    weight: 20,
    configured: (c) => Boolean(c.locations?.length),
    test: (company, c) => {
      if (!company) return unknown('location');
      const wanted = c.locations ?? [];
      const hits = company.location ? mentions([company.location], wanted) : [];
      return hits.length
        ? { met: true, reason: `located in ${company.location}` }
        : { met: false, reason: `location ${company.location ?? 'unknown'} not in ${wanted.join(', ')}` };
    },
  },
  {
    name: 'keywords',
    weight: 25,
    configured: (c) => Boolean(c.keywords?.length),
    test: (company, c) => {
      if (!company) return unknown('keywords');
      const wanted = c.keywords ?? [];
      const hits = mentions([company.name, company.description ?? '', ...company.sectors].filter(Boolean), wanted);
      return hits.length
        ? { met: true, reason: `mentions ${hits.join(', ')}` }
        : { met: false, reason: `mentions none of ${wanted.join(', ')}` };
    },
  },
  {
    name: 'size',
    weight: 20,
    configured: (c) => c.min_employees !== undefined || c.max_employees !== undefined,
    test: (company, c) => {
      const n = company?.employeeCount;
      if (n === undefined || n === null) return { met: false, reason: 'employee count unknown' };
      const within = n >= (c.min_employees ?? 0) && n <= (c.max_employees ?? Number.POSITIVE_INFINITY);
      return {
        met: within,
        reason: `${n} employees ${within ? 'within' : 'outside'} ${c.min_employees ?? 0}-${c.max_employees ?? '∞'}`,
      };
    },
  },
];

export function scoreCompany(company: CuratedCompanyFacts | undefined, criteria: IcpCriteria): Qualification {
  const applicable = CRITERIA.filter((c) => c.configured(criteria));
  if (applicable.length === 0) return { score: 100, reasons: ['no ICP criteria given: every company qualifies'] };
  const outcomes = applicable.map((c) => ({ c, ...c.test(company, criteria) }));
  const met = outcomes.filter((o) => o.met).reduce((s, o) => s + o.c.weight, 0);
  const total = applicable.reduce((s, c) => s + c.weight, 0);
  return { score: Math.round((100 * met) / total), reasons: outcomes.map((o) => o.reason) };
}

export const isQualified = (q: Qualification, criteria: IcpCriteria): boolean =>
  q.score >= (criteria.min_score ?? DEFAULT_MIN_SCORE);
