/**
 * deliverable_finalize: the batches' rows joined and deduplicated into one row per contact (with
 * its company's findings), plus one row per kept company that has no contact. Companies dropped by
 * the ICP gate are left out. Pure.
 */
import { canonicalLinkedinUrl } from './linkedin';
import { namePart } from './emailPatterns';
import { DELIVERABLE_COLUMNS, type DeliverableRow, emptyRow, SOURCE_COLUMNS } from './capabilities';
import type { CompanyRow, ContactRow } from './rows';
import { deliveredUnits } from './deliveredUnits';
import type { UnitCounts } from './pricing';

export interface Deliverable {
  rows: DeliverableRow[];
  duplicatesRemoved: number;
  /** The billable units the rows show (see deliveredUnits): a finished job is charged no more. */
  units: UnitCounts;
}

const companyFields = (c: CompanyRow | undefined) => ({
  icp_score: c?.qualification?.score ?? null,
  icp_qualified: c?.qualification?.qualified ?? null,
  icp_reasons: c?.qualification?.reasons ?? [],
  employee_count: c?.company_size?.employee_count ?? null,
  company_size_status: c?.company_size?.status ?? null,
  company_size_source: c?.company_size?.status === 'resolved' ? (c.company_size.source ?? null) : null,
});

function contactRow(contact: ContactRow, company: CompanyRow | undefined): DeliverableRow {
  return {
    company_name: contact.company_name ?? company?.company_name ?? null,
    domain: contact.domain ?? company?.domain ?? null,
    website: company?.website ?? null,
    ...companyFields(company),
    full_name: contact.full_name,
    first_name: contact.first_name,
    last_name: contact.last_name,
    title: contact.title,
    email: contact.email,
    email_source: contact.email
      ? contact.email_lookup?.status === 'found'
        ? contact.email_lookup.source
        : 'input'
      : null,
    email_confidence: contact.email
      ? contact.email_lookup?.status === 'found'
        ? contact.email_lookup.confidence
        : null
      : null,
    email_status: contact.email_verification?.status ?? null,
    email_reasons: contact.email_verification?.reasons ?? [],
    // Verified before sources were recorded: only the rules could have.
    email_status_source: contact.email_verification ? (contact.email_verification.source ?? 'rules') : null,
    linkedin_url: contact.linkedin_url,
    x_url: contact.x_url ?? null,
    github_url: contact.github_url ?? null,
    location: contact.location ?? null,
    contact_source: contact.source,
    person_source: contact.source === 'contact_discovery' ? (contact.person_source ?? 'curated') : null,
  };
}

function companyOnlyRow(company: CompanyRow): DeliverableRow {
  return {
    ...emptyRow(),
    company_name: company.company_name,
    domain: company.domain,
    website: company.website,
    ...companyFields(company),
  };
}

/** Names that say nothing about who someone is: two rows "named" so are not one person for it. */
const PLACEHOLDER_NAMES = new Set([
  'na',
  'nan',
  'none',
  'null',
  'unknown',
  'tbd',
  'test',
  'contact',
  'noname',
  'anonymous',
  'xx',
  'xxx',
]);

const emailId = (row: DeliverableRow) => (row.email ? `email:${row.email.toLowerCase()}` : undefined);
const linkedinId = (row: DeliverableRow) => {
  const linkedin = row.linkedin_url && canonicalLinkedinUrl(row.linkedin_url);
  return linkedin ? `linkedin:${linkedin}` : undefined;
};

/** Same name at the same domain; undefined when the name has no Latin letters or is a placeholder. */
function nameId(row: DeliverableRow): string | undefined {
  const name = namePart(row.full_name);
  if (name.length < 2 || PLACEHOLDER_NAMES.has(name) || !row.domain) return undefined;
  return `name:${name}@${row.domain}`;
}

/** One person, however they were spelled: same address, same LinkedIn profile, or same name at the same domain. */
function identities(row: DeliverableRow): string[] {
  return [emailId(row), linkedinId(row), nameId(row)].filter((id): id is string => id !== undefined);
}

/**
 * A name match alone is weak evidence: two rows whose addresses or profiles differ are two people
 * (each is charged for, so each must be delivered), whatever their names normalise to.
 */
function samePerson(a: DeliverableRow, b: DeliverableRow): boolean {
  const ea = emailId(a),
    eb = emailId(b);
  const la = linkedinId(a),
    lb = linkedinId(b);
  if ((ea && ea === eb) || (la && la === lb)) return true;
  return !(ea && eb) && !(la && lb);
}

/** Fills the kept row's gaps from its duplicate. */
function merge(kept: DeliverableRow, dup: DeliverableRow): DeliverableRow {
  const out: Record<string, unknown> = { ...kept };
  for (const [k, v] of Object.entries(dup)) if (out[k] === null && v !== null) out[k] = v;
  return out as DeliverableRow;
}

export function finalizeRows(batches: { companies: CompanyRow[]; contacts: ContactRow[] }[]): Deliverable {
  const companies = batches.flatMap((b) => b.companies).filter((c) => !c.dropped);
  const byIndex = new Map(companies.map((c) => [c.input_index, c]));
  const byDomain = new Map(companies.map((c) => [c.domain, c]));
  const contacts = batches
    .flatMap((b) => b.contacts)
    .filter((c) => c.company_input_index === null || byIndex.has(c.company_input_index));

  const rows: DeliverableRow[] = [];
  const sources: ContactRow[][] = [];
  const seen = new Map<string, number>();
  const withContacts = new Set<string>();
  let duplicatesRemoved = 0;
  for (const contact of contacts) {
    const company =
      contact.company_input_index !== null
        ? byIndex.get(contact.company_input_index)
        : contact.domain
          ? byDomain.get(contact.domain)
          : undefined;
    const row = contactRow(contact, company);
    if (company) withContacts.add(company.domain);
    const ids = identities(row);
    const existing = ids.map((id) => seen.get(id)).find((i) => i !== undefined && samePerson(rows[i], row));
    if (existing !== undefined) {
      rows[existing] = merge(rows[existing], row);
      sources[existing].push(contact);
      for (const id of identities(rows[existing])) seen.set(id, existing);
      duplicatesRemoved += 1;
      continue;
    }
    for (const id of ids) seen.set(id, rows.length);
    rows.push(row);
    sources.push([contact]);
  }
  const seenDomains = new Set<string>();
  for (const company of companies) {
    if (withContacts.has(company.domain) || seenDomains.has(company.domain)) {
      if (seenDomains.has(company.domain)) duplicatesRemoved += 1;
      seenDomains.add(company.domain);
      continue;
    }
    seenDomains.add(company.domain);
    rows.push(companyOnlyRow(company));
    sources.push([]);
  }
  const scored = batches.flatMap((b) => b.companies);
  return {
    rows,
    duplicatesRemoved,
    units: deliveredUnits(
      rows.map((row, i) => ({ row, sources: sources[i] })),
      scored,
    ),
  };
}

/** Delivered rows by source: a row counts once under each source its values came from. */
export function countRowsBySource(rows: DeliverableRow[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const sources = new Set(SOURCE_COLUMNS.map((c) => row[c]).filter((s) => s !== null));
    for (const source of sources) counts.set(source, (counts.get(source) ?? 0) + 1);
  }
  return Object.fromEntries([...counts].sort(([a], [b]) => a.localeCompare(b)));
}

const csvCell = (value: unknown): string => {
  const text = value === null || value === undefined ? '' : Array.isArray(value) ? value.join('; ') : String(value);
  // Quote when needed; a leading formula character is neutralised so spreadsheets do not execute it.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

export function toCsv(rows: DeliverableRow[]): string {
  const lines = [
    DELIVERABLE_COLUMNS.join(','),
    ...rows.map((r) => DELIVERABLE_COLUMNS.map((c) => csvCell(r[c])).join(',')),
  ];
  return `${lines.join('\r\n')}\r\n`;
}
