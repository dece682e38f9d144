/**
 * What a job is expected to cost, the credits it reserves at creation and its quote: the job's own
 * batches run through its stages with the built-in providers alone (the curated data and local
 * rules, which answer first in the pipeline too), every address found or given counted as one
 * checked. What outside providers find beyond that is reserved from the balance as the work finds
 * it (see pipeline.ts), so this is no upper bound; estimateUnits (pricing.ts) is.
 */
import { planBatches } from './batches';
import type { Capability } from './capabilities';
import { estimateProviders } from './providers/estimate';
import { noUnits, type UnitCounts } from './pricing';
import type { CompanyRow, ContactRow } from './rows';
import { runStage, type StageSettings } from './stages';

/** Batches priced at once: a 1,000-company job is 40 batches, and each stage of one looks up 25 rows. */
const BATCHES_AT_ONCE = 8;

export async function expectedUnits(
  capabilities: Capability[],
  companies: CompanyRow[],
  contacts: ContactRow[],
  settings: StageSettings,
): Promise<UnitCounts> {
  const providers = estimateProviders();
  const units = noUnits();
  const batches = planBatches(capabilities, companies, contacts);
  for (let i = 0; i < batches.length; i += BATCHES_AT_ONCE) {
    await Promise.all(
      batches.slice(i, i + BATCHES_AT_ONCE).map(async (batch) => {
        let rows = { companies: batch.companies, contacts: batch.contacts };
        for (const capability of batch.stages) {
          const out = await runStage(capability, rows, settings, providers);
          units[capability] += out.units;
          rows = out;
        }
      }),
    );
  }
  return units;
}
