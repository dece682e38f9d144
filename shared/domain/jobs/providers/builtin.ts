/**
 * The built-in providers: the curated dataset and local rules, no network beyond the DNS port (real
 * DNS in AWS, a table locally and in tests).
 */
import type { DnsPort, MxLookup } from '#shared/adapters/dns';
import { emailDomain, normaliseDomain } from '#shared/hostNames';
import { canonicalLinkedinUrl } from '#shared/domain/jobs/linkedin';
import { hasValidSyntax, isFreeProvider, isRoleAccount, verificationStatus } from '#shared/domain/jobs/emailRules';
import { applyPattern, inferPattern, namePart, nameParts } from '#shared/domain/jobs/emailPatterns';
import { scoreCompany } from '#shared/domain/jobs/qualification';
import { getOrInsertComputed } from '#shared/maps';
import type { CuratedPersonFacts, CuratedSource } from './curatedSource';
import type { DiscoveredContact, Providers, VerifyReason } from './types';

/** Seniority order for picking people when no role focus is given (first match wins). */
const SENIORITY: RegExp[] = [
  /\b(ceo|founder|co-?founder|owner|president)\b/i,
  /\b(cto|cfo|coo|cmo|cpo|chief)\b/i,
  /\b(vp|vice president|head)\b/i,
  /\b(director|partner|lead|principal)\b/i,
  /\bmanager\b/i,
];
export const seniority = (role: string | null) => {
  const rank = SENIORITY.findIndex((r) => r.test(role ?? ''));
  return rank === -1 ? SENIORITY.length : rank;
};
export const matchesFocus = (role: string | null, focus: string[]) =>
  focus.some((f) => (role ?? '').toLowerCase().includes(f.toLowerCase()));

const toContact = (p: CuratedPersonFacts): DiscoveredContact => ({
  person_id: p.id,
  full_name: p.fullName,
  first_name: p.firstName,
  last_name: p.lastName,
  title: p.role,
  linkedin_url: p.linkedinUrl,
  location: p.location,
  source: 'curated',
});

function memoisedDns(dns: DnsPort): (domain: string) => Promise<MxLookup> {
  const answers = new Map<string, Promise<MxLookup>>();
  return (domain) => {
    return getOrInsertComputed(answers, domain, () => dns.resolveMx(domain));
  };
}

export function builtinProviders(deps: {
  curated: CuratedSource;
  dns: DnsPort;
  /** The disposable-domain check: given by the worker, which alone carries the list (a side file beside its bundle). */
  isDisposable: (domain: string) => Promise<boolean>;
}): Providers {
  const { curated } = deps;
  const resolveMx = memoisedDns(deps.dns);

  const peopleAtDomain = async (domain: string | null): Promise<CuratedPersonFacts[]> => {
    const company = domain ? await curated.companyByDomain(domain) : undefined;
    return company ? curated.peopleAtCompany(company.id) : [];
  };

  return {
    qualification: {
      name: 'curated',
      run: async ({ company, criteria }) => scoreCompany(await curated.companyByDomain(company.domain), criteria),
    },
    company_size: {
      name: 'curated',
      run: async ({ company }) => {
        const employees = (await curated.companyByDomain(company.domain))?.employeeCount ?? null;
        return { employee_count: employees, source: employees === null ? null : 'curated' };
      },
    },
    contact_discovery: {
      name: 'curated',
      async run({ company, roleFocus, limit }) {
        const people = await peopleAtDomain(company.domain);
        const candidates = roleFocus.length ? people.filter((p) => matchesFocus(p.role, roleFocus)) : people;
        return [...candidates]
          .sort(
            (a, b) =>
              seniority(a.role) - seniority(b.role) || a.fullName.localeCompare(b.fullName) || a.id.localeCompare(b.id),
          )
          .slice(0, limit)
          .map(toContact);
      },
    },
    linkedin_enrich: {
      name: 'curated',
      async run({ linkedinUrl }) {
        const canonical = canonicalLinkedinUrl(linkedinUrl);
        const person = canonical ? await curated.personByLinkedinUrl(`https://www.${canonical}`) : undefined;
        if (!person) return null;
        return {
          ...toContact(person),
          person_id: person.id,
          company_name: person.companyName,
          x_url: person.xUrl,
          github_url: person.githubUrl,
        };
      },
    },
    email_lookup: {
      name: 'curated',
      async run({ contact }) {
        const people = await peopleAtDomain(contact.domain);
        const name = nameParts(contact);
        const wantedName = namePart(contact.full_name ?? `${contact.first_name ?? ''}${contact.last_name ?? ''}`);
        const person = people.find(
          (p) =>
            (contact.person_id && p.id === contact.person_id) || (wantedName && namePart(p.fullName) === wantedName),
        );
        if (person?.email)
          return { email: person.email.toLowerCase(), source: 'curated', pattern: null, confidence: 1 };
        if (!name || !contact.domain) return { email: null, source: null, pattern: null, confidence: null };
        const known = people.flatMap((p) => {
          const parts = nameParts({ first_name: p.firstName, last_name: p.lastName, full_name: p.fullName });
          return p.email && parts && emailDomain(p.email) === contact.domain
            ? [{ name: parts, localPart: p.email.split('@')[0] }]
            : [];
        });
        const inferred = inferPattern(known);
        const email = inferred && applyPattern(inferred.pattern, name, contact.domain);
        return email
          ? { email, source: 'pattern', pattern: inferred.pattern, confidence: inferred.confidence }
          : { email: null, source: null, pattern: null, confidence: null };
      },
    },
    email_verify: {
      name: 'rules+dns',
      async run({ email }) {
        if (!hasValidSyntax(email)) return { status: 'undeliverable', reasons: ['syntax'], source: 'rules' };
        // A valid address whose domain does not normalise (a@www.io: `www.` is dropped, `io` alone is no
        // domain) is checked by its domain as written.
        const written = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
        const domain = normaliseDomain(written) ?? written;
        const reasons: VerifyReason[] = [];
        if (await deps.isDisposable(domain)) reasons.push('disposable');
        if (isRoleAccount(email.slice(0, email.lastIndexOf('@')))) reasons.push('role_account');
        if (isFreeProvider(domain)) reasons.push('free_provider');
        const mx = await resolveMx(domain);
        if (mx.status === 'none') reasons.push('no_mx');
        if (mx.status === 'timeout') reasons.push('dns_timeout');
        return { status: verificationStatus(reasons), reasons, source: 'rules' };
      },
    },
  };
}
