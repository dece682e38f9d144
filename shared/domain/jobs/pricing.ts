import { CAPABILITIES, type Capability } from './capabilities';

/** Units consumed per capability (what the capability prices apply to). */
export type UnitCounts = Record<Capability, number>;

export const noUnits = (): UnitCounts => Object.fromEntries(Object.keys(CAPABILITIES).map((c) => [c, 0])) as UnitCounts;

export function creditsFor(units: Partial<UnitCounts>): number {
  return Object.entries(units).reduce((sum, [c, n]) => sum + CAPABILITIES[c as Capability].unitCredits * (n ?? 0), 0);
}

export function creditsByCapability(units: Partial<UnitCounts>): Partial<Record<Capability, number>> {
  return Object.fromEntries(
    Object.entries(units).map(([c, n]) => [c, CAPABILITIES[c as Capability].unitCredits * (n ?? 0)]),
  );
}

/**
 * The most a job can consume: every company scored and sized, the maximum of contacts found at each,
 * and every contact (supplied or found) looked up, verified and enriched. What a growth quote prices
 * and its run reserves (so max_external_spend_credits holds); a job of its own reserves its expected
 * cost instead (expectedCost.ts) and reserves more as it goes.
 */
export function estimateUnits(capabilities: Capability[], inputs: { companies: number; contacts: number }): UnitCounts {
  const found = capabilities.includes('contact_discovery')
    ? CAPABILITIES.contact_discovery.maxUnits({ companies: inputs.companies, contacts: 0 })
    : 0;
  const volume = { companies: inputs.companies, contacts: inputs.contacts + found };
  const units = noUnits();
  for (const c of capabilities) units[c] = CAPABILITIES[c].maxUnits(volume);
  return units;
}

export const estimateCredits = (capabilities: Capability[], inputs: { companies: number; contacts: number }): number =>
  creditsFor(estimateUnits(capabilities, inputs));
