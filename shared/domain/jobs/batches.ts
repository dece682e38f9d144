/**
 * How a job fans out: input rows in batches of ROWS_PER_MESSAGE, each batch carried through its
 * stages one queue message at a time. Company batches run the company stages, and the contact
 * stages too when contact discovery fills them with people; batches of supplied contacts run the
 * contact stages only. Pure.
 */
import { CAPABILITIES, ROWS_PER_MESSAGE, type Capability } from './capabilities';
import type { CompanyRow, ContactRow } from './rows';

export interface BatchPlan {
  batch_no: number;
  companies: CompanyRow[];
  contacts: ContactRow[];
  /** The stages this batch runs, in pipeline order. */
  stages: Capability[];
  /** Input rows: what progress counts per stage. */
  rows: number;
}

const chunk = <T>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

export function planBatches(
  capabilities: Capability[],
  companies: CompanyRow[],
  contacts: ContactRow[],
  size = ROWS_PER_MESSAGE,
): BatchPlan[] {
  const perBatch = capabilities.filter((c) => CAPABILITIES[c].scope !== 'job');
  const contactStages = perBatch.filter((c) => CAPABILITIES[c].scope === 'contact');
  const companyStages = capabilities.includes('contact_discovery')
    ? perBatch
    : perBatch.filter((c) => CAPABILITIES[c].scope === 'company');
  const plans = [
    ...chunk(companies, size).map((rows) => ({
      companies: rows,
      contacts: [] as ContactRow[],
      stages: companyStages,
      rows: rows.length,
    })),
    ...chunk(contacts, size).map((rows) => ({
      companies: [] as CompanyRow[],
      contacts: rows,
      stages: contactStages,
      rows: rows.length,
    })),
  ];
  // A job of deliverable_finalize alone still delivers its inputs (deduplicated): its batches have no stages.
  const kept = perBatch.length === 0 ? plans : plans.filter((p) => p.stages.length > 0);
  return kept.map((p, i) => ({ batch_no: i, ...p }));
}

/** Rows each stage will process over the whole job (the denominators of progress). */
export function stageTotals(batches: BatchPlan[]): Partial<Record<Capability, number>> {
  const totals: Partial<Record<Capability, number>> = {};
  for (const b of batches) for (const s of b.stages) totals[s] = (totals[s] ?? 0) + b.rows;
  return totals;
}
