/**
 * What a finished job delivered, in billable units: a job is charged for the work its deliverable
 * shows, never for work on rows that were merged away or left out. Each delivered contact row counts
 * at most one unit per capability (a person found twice is one person delivered), each distinct
 * company domain at most one. Pure.
 */
import { canonicalLinkedinUrl } from './linkedin';
import { noUnits, type UnitCounts } from './pricing';
import type { Capability } from './capabilities';
import type { CompanyRow, ContactRow, DeliverableRow } from './rows';

type ContactCapability = 'contact_discovery' | 'linkedin_enrich' | 'email_lookup' | 'email_verify';

/** Whether a delivered contact row carries one unit of each contact capability; `sources` are the contacts merged into it. */
const CONTACT_WORK: Record<ContactCapability, (row: DeliverableRow, sources: ContactRow[]) => boolean> = {
  contact_discovery: (row) => row.contact_source === 'contact_discovery',
  // Only the profile the row shows: a merged duplicate's other profile was not delivered.
  linkedin_enrich: (row, sources) => {
    const shown = row.linkedin_url ? canonicalLinkedinUrl(row.linkedin_url) : undefined;
    return shown !== undefined && sources.some((s) => s.linkedin_enrich?.status === 'enriched' && s.linkedin_url && canonicalLinkedinUrl(s.linkedin_url) === shown);
  },
  email_lookup: (row) => row.email_source === 'curated' || row.email_source === 'pattern',
  email_verify: (row) => row.email_status !== null,
};

/**
 * Company work, once per domain. Scoring counts for companies the ICP gate dropped too: the gate's
 * verdict (stats.companies_dropped, the growth gap report) is what qualification delivers for them.
 */
const COMPANY_WORK: Record<'qualification' | 'company_size', (company: CompanyRow) => boolean> = {
  qualification: (c) => c.qualification !== undefined,
  company_size: (c) => !c.dropped && c.company_size?.status === 'resolved',
};

export interface DeliveredRow {
  row: DeliverableRow;
  /** The contact rows merged into it (none for a company-only row). */
  sources: ContactRow[];
}

export function deliveredUnits(delivered: DeliveredRow[], companies: CompanyRow[]): UnitCounts {
  const units = noUnits();
  for (const { row, sources } of delivered) {
    if (sources.length === 0) continue;
    for (const [capability, carries] of Object.entries(CONTACT_WORK)) if (carries(row, sources)) units[capability as Capability] += 1;
  }
  for (const [capability, did] of Object.entries(COMPANY_WORK)) {
    units[capability as Capability] = new Set(companies.filter(did).map((c) => c.domain)).size;
  }
  return units;
}

/** Per capability, the lesser of what was consumed and what was delivered: the units a finished job is charged for. */
export function chargeableUnits(consumed: UnitCounts, delivered: UnitCounts): UnitCounts {
  const units = noUnits();
  for (const capability of Object.keys(units) as Capability[]) units[capability] = Math.min(consumed[capability] ?? 0, delivered[capability] ?? 0);
  return units;
}
