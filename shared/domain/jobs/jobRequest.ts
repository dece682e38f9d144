/**
 * What a job request comes to before anything is written: the capabilities it asks for, checked; its
 * inputs as rows; its settings; its plan and expected cost. POST /bd/jobs/quote and POST /bd/jobs
 * (startJob.ts) both start here, so a quote prices exactly what the job then runs.
 */
import { ValidationError } from '#shared/domain/errors';
import { CAPABILITY_NAMES, isCapability, isPreset, MAX_COMPANIES, MAX_CONTACTS, type Capability } from './capabilities';
import { companyRows, contactRows, inputFacts, type InputAssets } from './inputs';
import { planJob } from './planner';
import { creditsFor } from './pricing';
import { expectedUnits } from './expectedCost';
import type { StageSettings } from './stages';
import type { IcpCriteria } from './providers/types';

export interface StartJobInput {
  userId: string;
  preset?: string;
  requestedCapabilities?: string[];
  inputAssets: InputAssets;
  icpConfig?: object;
  executionOptions?: { niche?: string; icp_gate?: 'skip' | 'apply'; role_focus?: string[] };
  chatId?: string | null;
  /** The caller reserved already (its own ledger tool); the job settles that reservation with what it consumed. */
  billing?: { reservationId: string };
  /** Defaults to `api`. */
  origin?: string;
  /** From quoteEnrichmentJob for this same request: reserve at most its credits, and use it up. */
  quoteToken?: string;
}

/** The request itself, without who pays for it and how. */
export type JobRequest = Omit<StartJobInput, 'userId' | 'billing' | 'origin' | 'quoteToken'>;

/** The kind of quote a job token is (quotes of every area share one store). */
export const JOB_QUOTE_KIND = 'bd_job';

function choiceOf(input: Pick<StartJobInput, 'preset' | 'requestedCapabilities'>): {
  preset?: Parameters<typeof planJob>[0]['preset'];
  capabilities?: Capability[];
} {
  if (input.preset !== undefined && !isPreset(input.preset))
    throw new ValidationError(`Unknown preset ${input.preset}.`, [{ path: 'preset', message: 'Unknown preset' }]);
  const unknown = (input.requestedCapabilities ?? []).filter((c) => !isCapability(c));
  if (unknown.length) {
    throw new ValidationError(`Unknown capabilities: ${unknown.join(', ')}. Known: ${CAPABILITY_NAMES.join(', ')}.`, [
      { path: 'requested_capabilities', message: 'Unknown capability' },
    ]);
  }
  if (input.requestedCapabilities?.length === 0)
    throw new ValidationError('requested_capabilities is empty.', [
      { path: 'requested_capabilities', message: 'At least one capability' },
    ]);
  return { preset: input.preset as never, capabilities: input.requestedCapabilities as Capability[] | undefined };
}

function limits(assets: InputAssets): void {
  if ((assets.companies?.length ?? 0) > MAX_COMPANIES)
    throw new ValidationError(`At most ${MAX_COMPANIES} companies a job.`, [
      { path: 'input_assets.companies', message: 'Too many' },
    ]);
  if ((assets.contacts?.length ?? 0) > MAX_CONTACTS)
    throw new ValidationError(`At most ${MAX_CONTACTS} contacts a job.`, [
      { path: 'input_assets.contacts', message: 'Too many' },
    ]);
}

/** What a job request comes to before anything is written: its plan, inputs and settings. */
export function planEnrichmentJob(input: JobRequest) {
  limits(input.inputAssets);
  const choice = choiceOf(input);
  const companies = companyRows(input.inputAssets.companies ?? []);
  const contacts = contactRows(input.inputAssets.contacts ?? []);
  const icp = (input.icpConfig ?? {}) as IcpCriteria;
  const criteria: IcpCriteria = {
    ...icp,
    ...(input.executionOptions?.niche ? { niche: input.executionOptions.niche } : {}),
  };
  const settings: StageSettings = {
    criteria,
    icpGate: input.executionOptions?.icp_gate ?? 'skip',
    roleFocus: input.executionOptions?.role_focus ?? [],
  };
  const hasIcpCriteria = Boolean(
    criteria.niche ||
      criteria.industries?.length ||
      criteria.locations?.length ||
      criteria.keywords?.length ||
      criteria.min_employees !== undefined ||
      criteria.max_employees !== undefined,
  );
  const plan = planJob(choice, inputFacts(companies, contacts, { icpGate: settings.icpGate, hasIcpCriteria }));
  return { plan, companies, contacts, settings };
}

export type PlannedJob = ReturnType<typeof planEnrichmentJob>;

/** A job's expected cost (expectedCost.ts): what its quote says and what it reserves at creation. */
export async function expectedJobCost(planned: PlannedJob) {
  const units = await expectedUnits(planned.plan.capabilities, planned.companies, planned.contacts, planned.settings);
  return { units, credits: creditsFor(units) };
}

/** What a job quote is bound to: the request as validated, without the token itself. */
export const jobQuoteRequest = (input: JobRequest) => ({
  preset: input.preset,
  requestedCapabilities: input.requestedCapabilities,
  inputAssets: input.inputAssets,
  icpConfig: input.icpConfig,
  executionOptions: input.executionOptions,
  chatId: input.chatId ?? null,
});
