/**
 * Canonical forms of the companies and contacts a plan works on, and their de-duplication. Two
 * inputs that mean the same company (`https://www.Acme.com/about`, `acme.com`) become one record,
 * with the fields of both. Pure.
 */
import { isFreeProvider } from '#shared/domain/freeEmailProviders';
import { normaliseDomain } from '#shared/hostNames';
import { ASSET_FIELD_LIMITS } from '#shared/domain/jobs/assets';
import type { CompanyInput, ContactInput } from '#shared/domain/jobs/inputs';

/** The input shapes of an enrichment job (the plan runs on that pipeline), reused as growth's inputs. */
export type InputCompany = CompanyInput;
export type InputContact = ContactInput;

export interface NormalizedCompany {
  company_name?: string;
  domain?: string;
  /** As the caller wrote it, when it names the same domain. */
  website?: string;
}

/** A contact after canonical normalisation: the same fields as an input contact. */
export type NormalizedContact = ContactInput;

export interface NormalizedAssets {
  companies: NormalizedCompany[];
  contacts: NormalizedContact[];
}

export interface Rejection {
  kind: 'company' | 'contact';
  input: string;
  reason: 'no_identifier' | 'invalid_domain' | 'invalid_email' | 'no_domain' | 'over_limit';
}

export interface NormalizationOutcome {
  assets: NormalizedAssets;
  rejected: Rejection[];
  duplicatesRemoved: { companies: number; contacts: number };
}

const EMAIL = /^[a-z0-9._%+'-]+@([a-z0-9-]+\.)+[a-z][a-z0-9-]*[a-z0-9]$/;

const collapse = (value: string | undefined): string | undefined => {
  const v = value?.replace(/\s+/g, ' ').trim();
  return v ? v : undefined;
};

/** Lower-cased and trimmed (mailbox names are case-insensitive in practice); undefined when malformed. */
export function normalizeEmail(value: string | undefined): string | undefined {
  const raw = collapse(value)
    ?.toLowerCase()
    .replace(/^mailto:/, '');
  return raw && EMAIL.test(raw) ? raw : undefined;
}

/** `HTTPS://LinkedIn.com/in/Ada-L/?trk=x` → `https://www.linkedin.com/in/ada-l`. */
export function normalizeLinkedinUrl(value: string | undefined): string | undefined {
  const raw = collapse(value)?.toLowerCase();
  const match = raw?.match(/linkedin\.com\/(in|pub|company)\/([^/?#\s]+)/);
  const url = match ? `https://www.linkedin.com/${match[1]}/${match[2]}` : undefined;
  // The canonical form can be longer than what was typed; past the field's limit the plan carrying it could not be sent back.
  return url && url.length <= ASSET_FIELD_LIMITS.linkedin_url ? url : undefined;
}

/** A company domain from an e-mail address; none for free mailbox providers (gmail.com is nobody's company). */
export function companyDomainOfEmail(email: string | undefined): string | undefined {
  const domain = email?.split('@')[1];
  return domain && !isFreeProvider(domain) ? domain : undefined;
}

const fill = <T extends object>(target: T, source: T): T => {
  for (const [k, v] of Object.entries(source))
    if (v !== undefined && (target as Record<string, unknown>)[k] === undefined)
      (target as Record<string, unknown>)[k] = v;
  return target;
};

const describe = (value: object) => JSON.stringify(value).slice(0, 200);

function normalizeCompany(input: InputCompany): NormalizedCompany | Rejection['reason'] {
  const name = collapse(input.company_name);
  const given = input.domain ?? input.website;
  const domain = normaliseDomain(input.domain) ?? normaliseDomain(input.website);
  if (given && !domain && !name) return 'invalid_domain';
  if (!domain && !name) return 'no_identifier';
  const out: NormalizedCompany = {};
  if (name) out.company_name = name;
  if (domain) out.domain = domain;
  // The caller's own website comes back in the export as given (the domain is what matching uses).
  const website = collapse(input.website);
  if (website && domain && normaliseDomain(website) === domain) out.website = website;
  return out;
}

function normalizeContact(input: InputContact): NormalizedContact | Rejection['reason'] {
  const email = normalizeEmail(input.email);
  if (input.email && !email) return 'invalid_email';
  const first = collapse(input.first_name);
  const last = collapse(input.last_name);
  const full = collapse(input.full_name) ?? collapse([first, last].filter(Boolean).join(' '));
  const out: NormalizedContact = {
    full_name: full,
    first_name: first ?? (full?.includes(' ') ? full.split(' ')[0] : undefined),
    last_name: last ?? (full?.includes(' ') ? full.split(' ').slice(1).join(' ') : undefined),
    email,
    company_name: collapse(input.company_name),
    domain: normaliseDomain(input.domain) ?? companyDomainOfEmail(email),
    linkedin_url: normalizeLinkedinUrl(input.linkedin_url),
    title: collapse(input.title),
  };
  for (const k of Object.keys(out) as (keyof NormalizedContact)[]) if (out[k] === undefined) delete out[k];
  if (!out.email && !out.linkedin_url && !(out.full_name && (out.domain || out.company_name))) return 'no_identifier';
  return out;
}

/** The name of a company without a domain: normalizeCompany keeps none that has neither. */
export function companyNameOf(c: NormalizedCompany): string {
  if (c.company_name === undefined) throw new Error('A company has neither a domain nor a name');
  return c.company_name;
}

/** The identity two records share when they are the same company or person. */
const companyIdentity = (c: NormalizedCompany) => (c.domain ? `d:${c.domain}` : `n:${companyNameOf(c).toLowerCase()}`);
function contactIdentity(c: NormalizedContact): string {
  if (c.email) return `e:${c.email}`;
  if (c.linkedin_url) return `l:${c.linkedin_url}`;
  // normalizeContact keeps no other contact without a name and a company.
  const company = c.domain ?? c.company_name?.toLowerCase();
  if (!c.full_name || !company) throw new Error('A contact has no e-mail, LinkedIn URL, or name and company');
  return `n:${c.full_name.toLowerCase()}@${company}`;
}

function dedupe<T extends object>(records: T[], identity: (r: T) => string): { kept: T[]; removed: number } {
  const byIdentity = new Map<string, T>();
  for (const record of records) {
    const id = identity(record);
    const existing = byIdentity.get(id);
    if (existing) fill(existing, record);
    else byIdentity.set(id, { ...record });
  }
  return { kept: [...byIdentity.values()], removed: records.length - byIdentity.size };
}

/**
 * Normalises and de-duplicates companies and contacts, in input order (the first occurrence keeps
 * its place; later duplicates only fill fields it lacked). A company known only by name merges
 * into a company with the same name and a domain.
 */
export function normalizeAssets(companies: InputCompany[], contacts: InputContact[]): NormalizationOutcome {
  const rejected: Rejection[] = [];
  const goodCompanies: NormalizedCompany[] = [];
  for (const c of companies) {
    const n = normalizeCompany(c);
    if (typeof n === 'string') rejected.push({ kind: 'company', input: describe(c), reason: n });
    else goodCompanies.push(n);
  }
  const goodContacts: NormalizedContact[] = [];
  for (const c of contacts) {
    const n = normalizeContact(c);
    if (typeof n === 'string') rejected.push({ kind: 'contact', input: describe(c), reason: n });
    else goodContacts.push(n);
  }
  const byDomain = dedupe(goodCompanies, companyIdentity);
  const namesWithDomain = new Map(
    byDomain.kept.flatMap((c) => (c.domain && c.company_name ? [[c.company_name.toLowerCase(), c] as const] : [])),
  );
  const companiesOut = byDomain.kept.filter((c) => c.domain || !namesWithDomain.has(companyNameOf(c).toLowerCase()));
  const contactsOut = dedupe(goodContacts, contactIdentity);
  return {
    assets: { companies: companiesOut, contacts: contactsOut.kept },
    rejected,
    duplicatesRemoved: { companies: goodCompanies.length - companiesOut.length, contacts: contactsOut.removed },
  };
}

/**
 * The pipeline works on domains: a company known only by name takes the domain the curated data
 * has for that name (`domainsByName`, lower-cased names), or is reported as `no_domain`. Companies
 * that turn out to share a domain are merged.
 */
export function settleCompanyDomains(
  outcome: NormalizationOutcome,
  domainsByName: Map<string, string>,
): NormalizationOutcome {
  const rejected = [...outcome.rejected];
  const located: NormalizedCompany[] = [];
  for (const company of outcome.assets.companies) {
    const domain = company.domain ?? domainsByName.get(companyNameOf(company).toLowerCase());
    if (domain) located.push({ ...company, domain });
    else rejected.push({ kind: 'company', input: describe(company), reason: 'no_domain' });
  }
  const merged = dedupe(located, companyIdentity);
  return {
    assets: { ...outcome.assets, companies: merged.kept },
    rejected,
    duplicatesRemoved: {
      ...outcome.duplicatesRemoved,
      companies: outcome.duplicatesRemoved.companies + merged.removed,
    },
  };
}

/** Keeps the first `max` companies and contacts (what one pipeline run takes); the rest are reported as over_limit. */
export function capAssets(
  outcome: NormalizationOutcome,
  max: { companies: number; contacts: number },
): NormalizationOutcome {
  const { companies, contacts } = outcome.assets;
  return {
    ...outcome,
    assets: { companies: companies.slice(0, max.companies), contacts: contacts.slice(0, max.contacts) },
    rejected: [
      ...outcome.rejected,
      ...companies
        .slice(max.companies)
        .map((c): Rejection => ({ kind: 'company', input: describe(c), reason: 'over_limit' })),
      ...contacts
        .slice(max.contacts)
        .map((c): Rejection => ({ kind: 'contact', input: describe(c), reason: 'over_limit' })),
    ],
  };
}
