/**
 * What a run delivered, read from the pipeline's rows: counts, where the data came from, and the
 * gaps with their reasons. Also each stage's status from the job's counters. Pure.
 */
import type { Capability } from './goals';
import type { DeliverableRow } from '#shared/domain/jobs/capabilities';
import { countRowsBySource } from '#shared/domain/jobs/finalize';

export type StageStatus = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled' | 'skipped';
type RunStatus = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';

export interface StageProgress {
  status: RunStatus;
  capabilities: Capability[];
  stageTotals: Partial<Record<Capability, number>>;
  stageDone: Partial<Record<Capability, number>>;
}

/**
 * A stage is completed when all its rows are done and skipped when it had none. While the job runs,
 * a stage with some rows done is running, and so is the first stage nothing has reached yet (batches
 * move through stages independently); a stopped job marks its unfinished stages with how it stopped.
 * Finalising runs once every other stage is through, and is done exactly when the job is.
 */
export function stageStatuses(job: StageProgress): Record<string, StageStatus> {
  const stopped = job.status === 'failed' || job.status === 'cancelled' ? job.status : undefined;
  const out: Record<string, StageStatus> = {};
  let frontierSeen = false;
  for (const capability of job.capabilities.filter((c) => c !== 'deliverable_finalize')) {
    const total = job.stageTotals[capability] ?? 0;
    const done = job.stageDone[capability] ?? 0;
    let status: StageStatus;
    if (job.status === 'pending') status = 'pending';
    else if (total === 0) status = 'skipped';
    else if (done >= total || job.status === 'completed') status = 'completed';
    else if (stopped) status = stopped;
    else status = done > 0 || !frontierSeen ? 'running' : 'pending';
    if (status === 'running' || status === 'pending') frontierSeen = true;
    out[capability] = status;
  }
  if (job.capabilities.includes('deliverable_finalize')) {
    out.deliverable_finalize =
      job.status === 'completed'
        ? 'completed'
        : (stopped ?? (job.status === 'running' && !frontierSeen ? 'running' : 'pending'));
  }
  return out;
}

export function deliveredCounts(rows: DeliverableRow[]): Record<string, number> {
  const count = (p: (r: DeliverableRow) => boolean) => rows.filter(p).length;
  return {
    rows: rows.length,
    companies: new Set(rows.map((r) => r.domain).filter(Boolean)).size,
    contacts: count((r) => r.contact_source !== null),
    emails: count((r) => r.email !== null),
    emails_found: count((r) => r.email_source === 'curated' || r.email_source === 'pattern'),
    verified_emails: count((r) => r.email_status === 'deliverable'),
    risky_emails: count((r) => r.email_status === 'risky'),
    undeliverable_emails: count((r) => r.email_status === 'undeliverable'),
    enriched_contacts: count((r) => r.contact_source !== null && (r.linkedin_url !== null || r.title !== null)),
  };
}

/** Where each row's data came from: the caller's input, the curated data, or inference by pattern. */
export function dataSourceMix(rows: DeliverableRow[]): Record<string, number> {
  const count = (p: (r: DeliverableRow) => boolean) => rows.filter(p).length;
  return {
    enriched_records: count(
      (r) =>
        r.contact_source === 'contact_discovery' ||
        (r.email_source !== null && r.email_source !== 'input') ||
        r.employee_count !== null ||
        r.icp_score !== null,
    ),
    input_contacts: count((r) => r.contact_source === 'input'),
    discovered_contacts: count((r) => r.contact_source === 'contact_discovery'),
    emails_from_input: count((r) => r.email_source === 'input'),
    emails_from_curated: count((r) => r.email_source === 'curated'),
    emails_from_pattern: count((r) => r.email_source === 'pattern'),
    companies_sized: count((r) => r.company_size_status === 'resolved'),
    // Rows by where their values came from (curated, pattern, rules, hunter, ...), as a job's stats count them.
    ...Object.fromEntries(Object.entries(countRowsBySource(rows)).map(([source, n]) => [`rows_from_${source}`, n])),
  };
}

/** Why a row falls short of what the plan set out to deliver; the first reason that applies. */
const GAP_RULES: { reason: string; applies: (r: DeliverableRow, caps: Set<Capability>) => boolean }[] = [
  { reason: 'no_contact_found', applies: (r, caps) => caps.has('contact_discovery') && r.contact_source === null },
  {
    reason: 'email_not_found',
    applies: (r, caps) => caps.has('email_lookup') && r.contact_source !== null && r.email === null,
  },
  { reason: 'email_undeliverable', applies: (r) => r.email_status === 'undeliverable' },
  {
    reason: 'email_unverified',
    applies: (r, caps) =>
      caps.has('email_verify') && r.email !== null && (r.email_status === null || r.email_status === 'unknown'),
  },
  { reason: 'company_size_unresolved', applies: (r) => r.company_size_status === 'unresolved' },
];

export const GAP_LIST_LIMIT = 100;

export function gapReport(rows: DeliverableRow[], capabilities: Capability[], companiesDropped: number) {
  const caps = new Set(capabilities);
  const reasons: Record<string, number> = {};
  const unresolved: { row: number; label: string; reason: string }[] = [];
  rows.forEach((r, i) => {
    const gap = GAP_RULES.find((rule) => rule.applies(r, caps));
    if (!gap) return;
    reasons[gap.reason] = (reasons[gap.reason] ?? 0) + 1;
    if (unresolved.length < GAP_LIST_LIMIT)
      unresolved.push({
        row: i + 1,
        label: r.email ?? r.full_name ?? r.domain ?? r.company_name ?? `row ${i + 1}`,
        reason: gap.reason,
      });
  });
  if (companiesDropped > 0) reasons.dropped_by_icp_gate = companiesDropped;
  return { unresolved_count: Object.values(reasons).reduce((s, n) => s + n, 0), reasons, unresolved };
}

/** A preview row: only the fields the plan promised, in its order. */
export const previewRow = (row: DeliverableRow, fields: string[]) => {
  const values = new Map(Object.entries(row));
  return Object.fromEntries(fields.map((f) => [f, values.get(f) ?? null]));
};
