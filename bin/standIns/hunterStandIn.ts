/**
 * A recording stand-in for Hunter API v2 (https://hunter.io/api-documentation/v2), the routes the
 * enrichment pipeline uses: GET /domain-search, /email-finder, /email-verifier and /companies/find,
 * each with the key as the `api_key` query parameter. Answers are Hunter's `{data, meta}`; errors
 * `{errors: [{id, code, details}]}` (401 without a valid key, 400 for a missing parameter). It knows
 * the companies it is given; an address it was told is still being checked answers 202 first, as
 * Hunter does. A failure can be scripted per route: once (`failNext`) or until cleared (`failAll`).
 */
import { startJsonServer, type StandInAnswer } from './httpStandIn';

export interface HunterPerson {
  first_name: string;
  last_name: string;
  position: string | null;
  /** Hunter lists the profile's handle or URL. */
  linkedin: string | null;
  email: string;
  /** 0..100 */
  confidence: number;
  /** What /email-verifier says of the address (Hunter's `status`). */
  verification: 'valid' | 'invalid' | 'accept_all' | 'webmail' | 'disposable' | 'unknown';
}

export interface HunterCompany {
  domain: string;
  name: string;
  /** Hunter's metrics.employees range, e.g. "11-50". */
  employees: string | null;
  people: HunterPerson[];
}

export interface HunterCall {
  path: string;
  query: Record<string, string>;
  status: number;
}

interface ScriptedFailure {
  path: string;
  status: number;
  retryAfter?: number;
  once: boolean;
}

const error = (status: number, id: string, details: string): StandInAnswer => ({
  status,
  body: { errors: [{ id, code: status, details }] },
});

/** Invented companies for trying enrichment locally (`npm start -- --stand-ins`); none is in the curated data. */
export const SAMPLE_HUNTER_COMPANIES: HunterCompany[] = [
  {
    domain: 'lumenrelay.xyz',
    name: 'Lumen Relay',
    employees: '11-50',
    people: [
      {
        first_name: 'Ines',
        last_name: 'Calloway',
        position: 'Co-founder & CEO',
        linkedin: 'https://www.linkedin.com/in/ines-calloway-lr',
        email: 'ines@lumenrelay.xyz',
        confidence: 96,
        verification: 'valid',
      },
      {
        first_name: 'Tomas',
        last_name: 'Brandt',
        position: 'Head of Partnerships',
        linkedin: null,
        email: 'tomas.brandt@lumenrelay.xyz',
        confidence: 88,
        verification: 'accept_all',
      },
    ],
  },
  {
    domain: 'copperfieldchain.io',
    name: 'Copperfield Chain',
    employees: '51-200',
    people: [
      {
        first_name: 'Maren',
        last_name: 'Osei',
        position: 'CTO',
        linkedin: 'maren-osei-cc',
        email: 'maren@copperfieldchain.io',
        confidence: 91,
        verification: 'valid',
      },
    ],
  },
  {
    domain: 'tidewaterlabs.dev',
    name: 'Tidewater Labs',
    employees: '1-10',
    people: [
      {
        first_name: 'Rafa',
        last_name: 'Lindqvist',
        position: 'Founder',
        linkedin: null,
        email: 'rafa.lindqvist@tidewaterlabs.dev',
        confidence: 79,
        verification: 'invalid',
      },
    ],
  },
];

export async function startHunterStandIn(apiKey: string, companies: HunterCompany[] = SAMPLE_HUNTER_COMPANIES) {
  const calls: HunterCall[] = [];
  const failures: ScriptedFailure[] = [];
  /** Addresses whose next verification answers 202 (still checking). */
  const pending = new Set<string>();
  const byDomain = new Map(companies.map((c) => [c.domain, c]));
  const people = () => companies.flatMap((c) => c.people.map((p) => ({ company: c, person: p })));

  const answer = (path: string, q: URLSearchParams): StandInAnswer => {
    if (q.get('api_key') !== apiKey)
      return error(401, 'authentication_failed', 'No user found for the API key supplied');
    const failure = failures.findIndex((f) => f.path === path);
    if (failure >= 0) {
      const f = failures[failure];
      if (f.once) failures.splice(failure, 1);
      return {
        ...error(
          f.status,
          f.status === 429 ? 'too_many_requests' : f.status === 403 ? 'restricted_account' : 'server_error',
          f.status === 429 ? 'You have reached your usage limit' : `Scripted HTTP ${f.status}`,
        ),
        ...(f.retryAfter !== undefined ? { headers: { 'retry-after': String(f.retryAfter) } } : {}),
      };
    }
    const domain = q.get('domain')?.toLowerCase() ?? '';
    switch (path) {
      case '/domain-search': {
        if (!domain) return error(400, 'wrong_params', 'You are missing the domain or company parameter');
        const limit = Number(q.get('limit') ?? 10);
        const company = byDomain.get(domain);
        const emails = (company?.people ?? []).slice(0, limit).map((p) => ({
          value: p.email,
          type: 'personal',
          confidence: p.confidence,
          sources: [],
          first_name: p.first_name,
          last_name: p.last_name,
          position: p.position,
          seniority: null,
          department: null,
          linkedin: p.linkedin,
          twitter: null,
          phone_number: null,
          verification: { date: null, status: null },
        }));
        return {
          status: 200,
          body: {
            data: {
              domain,
              disposable: false,
              webmail: false,
              accept_all: false,
              pattern: company ? '{first}' : null,
              organization: company?.name ?? null,
              emails,
              linked_domains: [],
            },
            meta: {
              results: company?.people.length ?? 0,
              limit,
              offset: 0,
              params: { domain, company: null, type: q.get('type'), seniority: null, department: null },
            },
          },
        };
      }
      case '/email-finder': {
        const first = q.get('first_name')?.toLowerCase();
        const last = q.get('last_name')?.toLowerCase();
        if (!domain || !first || !last)
          return error(400, 'wrong_params', 'You are missing the domain, first_name or last_name parameter');
        const found = byDomain
          .get(domain)
          ?.people.find((p) => p.first_name.toLowerCase() === first && p.last_name.toLowerCase() === last);
        return {
          status: 200,
          body: {
            data: {
              first_name: q.get('first_name'),
              last_name: q.get('last_name'),
              email: found?.email ?? null,
              score: found?.confidence ?? null,
              domain,
              accept_all: false,
              position: found?.position ?? null,
              twitter: null,
              linkedin_url: found?.linkedin ?? null,
              phone_number: null,
              company: byDomain.get(domain)?.name ?? null,
              sources: [],
              verification: { date: null, status: null },
            },
            meta: { params: { first_name: q.get('first_name'), last_name: q.get('last_name'), domain } },
          },
        };
      }
      case '/email-verifier': {
        const email = q.get('email')?.toLowerCase();
        if (!email) return error(400, 'wrong_params', 'You are missing the email parameter');
        if (pending.delete(email)) return { status: 202, body: { data: { status: 'pending', email } } };
        const known = people().find(({ person }) => person.email === email);
        const status = known?.person.verification ?? 'unknown';
        return {
          status: 200,
          body: {
            data: {
              status,
              result: status === 'valid' ? 'deliverable' : status === 'invalid' ? 'undeliverable' : 'risky',
              score: status === 'valid' ? 92 : 50,
              email,
              regexp: true,
              gibberish: false,
              disposable: status === 'disposable',
              webmail: status === 'webmail',
              mx_records: true,
              smtp_server: true,
              smtp_check: status === 'valid',
              accept_all: status === 'accept_all',
              block: false,
              sources: [],
            },
            meta: { params: { email } },
          },
        };
      }
      case '/companies/find': {
        if (!domain) return error(400, 'wrong_params', 'You are missing the domain parameter');
        const company = byDomain.get(domain);
        if (!company) return error(404, 'not_found', 'The company was not found');
        return {
          status: 200,
          body: {
            data: {
              id: `c-${domain}`,
              name: company.name,
              legalName: null,
              domain,
              domainAliases: [],
              site: { phoneNumbers: [], emailAddresses: [] },
              category: { sector: null, industry: null },
              tags: [],
              description: null,
              foundedYear: null,
              location: null,
              metrics: { employees: company.employees, annualRevenue: null, raised: null },
            },
            meta: { domain },
          },
        };
      }
      default:
        return error(404, 'route_not_found', 'This route does not exist');
    }
  };

  const server = await startJsonServer((req) => {
    const out = answer(req.path, req.query);
    calls.push({ path: req.path, query: Object.fromEntries(req.query), status: out.status });
    return out;
  });

  return {
    apiBase: server.url,
    calls,
    /** The calls to one route, oldest first. */
    callsTo: (path: string) => calls.filter((c) => c.path === path),
    /** The next call to `path` answers `status` (with `Retry-After` when given). */
    failNext: (path: string, status: number, retryAfter?: number) =>
      failures.push({ path, status, retryAfter, once: true }),
    /** Every call to `path` answers `status` until reset. */
    failAll: (path: string, status: number, retryAfter?: number) =>
      failures.push({ path, status, retryAfter, once: false }),
    /** The next verification of `email` answers 202 (still checking). */
    verifyLater: (email: string) => pending.add(email.toLowerCase()),
    reset: () => {
      calls.length = 0;
      failures.length = 0;
      pending.clear();
    },
    close: server.close,
  };
}

export type HunterStandIn = Awaited<ReturnType<typeof startHunterStandIn>>;
