import { CAPABILITIES, MAX_CONTACTS_PER_COMPANY, type Capability } from './capabilities';

/** Units consumed per capability (what the contract 7 prices apply to). */
export type UnitCounts = Record<Capability, number>;

export const noUnits = (): UnitCounts =>
  Object.fromEntries(Object.keys(CAPABILITIES).map((c) => [c, 0])) as UnitCounts;

export function creditsFor(units: Partial<UnitCounts>): number {
  return Object.entries(units).reduce((sum, [c, n]) => sum + CAPABILITIES[c as Capability].unitCredits * (n ?? 0), 0);
}

export function creditsByCapability(units: Partial<UnitCounts>): Partial<Record<Capability, number>> {
  return Object.fromEntries(Object.entries(units).map(([c, n]) => [c, CAPABILITIES[c as Capability].unitCredits * (n ?? 0)]));
}

/**
 * The most a job can consume: every company scored and sized, the maximum of contacts found at each,
 * and every contact (supplied or found) looked up, verified and enriched. Reserved at creation; only
 * consumed units are charged at the end.
 */
export function estimateUnits(capabilities: Capability[], inputs: { companies: number; contacts: number }): UnitCounts {
  const has = (c: Capability) => capabilities.includes(c);
  const contacts = inputs.contacts + (has('contact_discovery') ? inputs.companies * MAX_CONTACTS_PER_COMPANY : 0);
  const units = noUnits();
  const perCapability: Record<Capability, number> = {
    qualification: inputs.companies,
    company_size: inputs.companies,
    contact_discovery: inputs.companies * MAX_CONTACTS_PER_COMPANY,
    linkedin_enrich: contacts,
    email_lookup: contacts,
    email_verify: contacts,
    deliverable_finalize: 0,
  };
  for (const c of capabilities) units[c] = perCapability[c];
  return units;
}

export const estimateCredits = (capabilities: Capability[], inputs: { companies: number; contacts: number }): number =>
  creditsFor(estimateUnits(capabilities, inputs));
