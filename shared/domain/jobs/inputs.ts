/**
 * Input assets to rows: domains normalised, names split, each row traceable to its input position.
 * Companies without a usable domain are a 400 naming the row.
 */
import { ValidationError, type FieldIssue } from '#shared/domain/errors';
import { emailDomain, normaliseDomain } from '#shared/hostNames';
import type { InputFacts } from './planner';
import type { CompanyRow, ContactRow } from './rows';

export interface CompanyInput {
  company_name?: string;
  domain?: string;
  website?: string;
}

export interface ContactInput {
  full_name?: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  company_name?: string;
  domain?: string;
  linkedin_url?: string;
  title?: string;
}

export interface InputAssets {
  companies?: CompanyInput[];
  contacts?: ContactInput[];
}

const text = (v: string | undefined) => (v?.trim() ? v.trim() : null);

export function companyRows(companies: CompanyInput[]): CompanyRow[] {
  const issues: FieldIssue[] = [];
  const rows = companies.flatMap((c, i) => {
    const domain = normaliseDomain(c.domain) ?? normaliseDomain(c.website);
    if (!domain) {
      issues.push({
        path: `input_assets.companies.${i}`,
        message: 'Needs a website or domain that is a valid host name',
      });
      return [];
    }
    // Callers other than the HTTP API (growth) may send a domain alone; the domain then names the company.
    return [{ input_index: i, company_name: text(c.company_name) ?? domain, domain, website: text(c.website) }];
  });
  if (issues.length) throw new ValidationError('Some companies have no usable website or domain.', issues);
  return rows;
}

export function contactRows(contacts: ContactInput[]): ContactRow[] {
  return contacts.map((c, i) => {
    const first = text(c.first_name);
    const last = text(c.last_name);
    const email = text(c.email)?.toLowerCase() ?? null;
    return {
      row_id: `in-${i}`,
      source: 'input',
      company_input_index: null,
      full_name: text(c.full_name) ?? ([first, last].filter(Boolean).join(' ') || null),
      first_name: first,
      last_name: last,
      title: text(c.title),
      company_name: text(c.company_name),
      domain: normaliseDomain(c.domain) ?? emailDomain(email) ?? null,
      email,
      linkedin_url: text(c.linkedin_url),
    };
  });
}

export function inputFacts(
  companies: CompanyRow[],
  contacts: ContactRow[],
  options: { icpGate: 'skip' | 'apply'; hasIcpCriteria: boolean },
): InputFacts {
  return {
    companies: companies.length,
    contacts: contacts.length,
    contactsWithoutEmail: contacts.filter((c) => !c.email).length,
    contactsWithLinkedin: contacts.filter((c) => c.linkedin_url).length,
    icpGate: options.icpGate,
    hasIcpCriteria: options.hasIcpCriteria,
  };
}
