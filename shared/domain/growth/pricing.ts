/**
 * The price of a plan before it runs. A growth run is an enrichment job, so the units and unit
 * prices are the pipeline's own (jobs/pricing.ts): the quote is the job's upper-bound
 * estimate, reserved at run start; only consumed units are charged and the rest is rebated. Pure.
 */
import { CAPABILITIES } from '#shared/domain/jobs/capabilities';
import { estimateUnits } from '#shared/domain/jobs/pricing';
import { spendsOnProviders, type Capability } from './goals';
import type { GoalPlan } from './plan';

/** Expected shares behind the delivered estimates (never behind the price, which is an upper bound). */
export const EXPECTED_RATES = { emailFound: 0.6, deliverable: 0.8, profileFound: 0.7 } as const;

export interface BreakdownLine {
  capability: Capability;
  units: number;
  unit_credits: number;
  credits: number;
  external: boolean;
}

const volumes = (plan: GoalPlan) => ({
  companies: plan.input_assets.companies.length,
  contacts: plan.input_assets.contacts.length,
});

export function priceBreakdown(plan: GoalPlan): BreakdownLine[] {
  const units = estimateUnits(plan.capabilities, volumes(plan));
  return plan.capabilities.map((capability) => {
    const unitCredits = CAPABILITIES[capability].unitCredits;
    return {
      capability,
      units: units[capability],
      unit_credits: unitCredits,
      credits: units[capability] * unitCredits,
      external: spendsOnProviders(capability),
    };
  });
}

export const creditsTotal = (lines: BreakdownLine[]) => lines.reduce((sum, l) => sum + l.credits, 0);
export const externalCredits = (lines: BreakdownLine[]) =>
  lines.filter((l) => l.external).reduce((sum, l) => sum + l.credits, 0);

export interface DeliveryEstimate {
  companies: number;
  contacts: number;
  emails_found: number;
  verified_emails: number;
  enriched_contacts: number;
  rows: number;
}

/** What the run is expected to deliver: the same volumes as the price, at the expected rates. */
export function estimateDelivered(plan: GoalPlan): DeliveryEstimate {
  const v = volumes(plan);
  const units = estimateUnits(plan.capabilities, v);
  const has = (c: Capability) => plan.capabilities.includes(c);
  const contacts = v.contacts + units.contact_discovery;
  const withEmail = plan.input_assets.contacts.filter((c) => c.email).length;
  const emailsFound = has('email_lookup') ? Math.floor((contacts - withEmail) * EXPECTED_RATES.emailFound) : 0;
  return {
    companies: v.companies,
    contacts,
    emails_found: emailsFound,
    verified_emails: has('email_verify') ? Math.floor((emailsFound + withEmail) * EXPECTED_RATES.deliverable) : 0,
    enriched_contacts: has('linkedin_enrich')
      ? Math.floor(contacts * EXPECTED_RATES.profileFound)
      : units.contact_discovery,
    rows: contacts || v.companies,
  };
}
