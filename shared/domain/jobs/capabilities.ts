/**
 * The enrichment capabilities and presets as data. The order of CAPABILITIES is the pipeline order:
 * linkedin_enrich runs before email_lookup because a profile can supply the names an address
 * pattern needs; deliverable_finalize always closes the job.
 */
export const CAPABILITY_NAMES = [
  'qualification',
  'company_size',
  'contact_discovery',
  'linkedin_enrich',
  'email_lookup',
  'email_verify',
  'deliverable_finalize',
] as const;
export type Capability = (typeof CAPABILITY_NAMES)[number];

/** What a stage works on: each company row, each contact row, or the whole job at the end. */
export type CapabilityScope = 'company' | 'contact' | 'job';

export interface CapabilityDefinition {
  scope: CapabilityScope;
  label: string;
  /** Contract 7 unit price in credits and what one unit is. */
  unitCredits: number;
  unit: string;
}

export const CAPABILITIES: Record<Capability, CapabilityDefinition> = {
  qualification: { scope: 'company', label: 'Qualification', unitCredits: 1, unit: 'company scored' },
  company_size: { scope: 'company', label: 'Company size', unitCredits: 1, unit: 'company size resolved' },
  contact_discovery: { scope: 'company', label: 'Contact discovery', unitCredits: 2, unit: 'contact found' },
  linkedin_enrich: { scope: 'contact', label: 'LinkedIn enrichment', unitCredits: 2, unit: 'profile enriched' },
  email_lookup: { scope: 'contact', label: 'E-mail lookup', unitCredits: 3, unit: 'e-mail found' },
  email_verify: { scope: 'contact', label: 'E-mail verification', unitCredits: 1, unit: 'address checked' },
  deliverable_finalize: { scope: 'job', label: 'Finalising deliverable rows', unitCredits: 0, unit: 'row' },
};

export const PRESET_NAMES = ['full_pipeline', 'verify_existing_emails', 'company_size_and_email_verify', 'enrich_contacts_from_companies'] as const;
export type Preset = (typeof PRESET_NAMES)[number];

/** Spec 2.6 presets; the planner still adds what a capability needs for the inputs given. */
export const PRESETS: Record<Preset, Capability[]> = {
  full_pipeline: ['qualification', 'company_size', 'contact_discovery', 'email_lookup', 'email_verify'],
  verify_existing_emails: ['email_verify'],
  company_size_and_email_verify: ['company_size', 'email_verify'],
  enrich_contacts_from_companies: ['contact_discovery', 'linkedin_enrich', 'email_lookup'],
};

/** Contact discovery keeps at most this many people per company, so the reserved estimate is an upper bound. */
export const MAX_CONTACTS_PER_COMPANY = 5;
/** Input rows per queue message: a large job fans out over many messages. */
export const ROWS_PER_MESSAGE = 25;
export const MAX_COMPANIES = 1000;
export const MAX_CONTACTS = 5000;

export const isCapability = (name: string): name is Capability => (CAPABILITY_NAMES as readonly string[]).includes(name);
export const isPreset = (name: string): name is Preset => (PRESET_NAMES as readonly string[]).includes(name);
