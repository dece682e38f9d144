/**
 * What a finished job delivered, in billable units: a job is charged for the work its deliverable
 * shows, never for work on rows that were merged away or left out. How each capability's work is
 * counted is its `delivered` entry in CAPABILITIES. Pure.
 */
import { CAPABILITIES, CAPABILITY_NAMES, type Capability } from './capabilities';
import { noUnits, type UnitCounts } from './pricing';
import type { DeliverableRow } from './capabilities';
import type { CompanyRow, ContactRow } from './rows';

export interface DeliveredRow {
  row: DeliverableRow;
  /** The contact rows merged into it (none for a company-only row). */
  sources: ContactRow[];
}

export function deliveredUnits(delivered: DeliveredRow[], companies: CompanyRow[]): UnitCounts {
  const units = noUnits();
  for (const capability of CAPABILITY_NAMES) {
    const count = CAPABILITIES[capability].delivered;
    if (count.per === 'contact_row') {
      units[capability] = delivered.filter(
        ({ row, sources }) => sources.length > 0 && count.carries(row, sources),
      ).length;
    } else if (count.per === 'company_domain') {
      units[capability] = new Set(companies.filter(count.shows).map((c) => c.domain)).size;
    }
  }
  return units;
}

/** Per capability, the lesser of what was consumed and what was delivered: the units a finished job is charged for. */
export function chargeableUnits(consumed: UnitCounts, delivered: UnitCounts): UnitCounts {
  const units = noUnits();
  for (const capability of Object.keys(units) as Capability[])
    units[capability] = Math.min(consumed[capability] ?? 0, delivered[capability] ?? 0);
  return units;
}
