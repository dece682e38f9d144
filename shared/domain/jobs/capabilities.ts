/**
 * The enrichment capabilities and presets as data. The order of CAPABILITIES is the pipeline order:
 * linkedin_enrich runs before email_lookup because a profile can supply the names an address
 * pattern needs; deliverable_finalize always closes the job.
 */
import { canonicalLinkedinUrl } from './linkedin';
import type { CompanyRow, ContactRow, DeliverableRow } from './rows';
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

/**
 * How a finished job's deliverable shows a capability's work, in billable units: a job is charged
 * for the lesser of what it consumed and what it delivered, so a capability without this count
 * would be charged nothing. Each delivered contact row counts at most one unit (a person found twice
 * is one person delivered); company work counts once per distinct domain.
 */
export type DeliveredCount =
  /** One unit per delivered contact row that carries the work; `sources` are the contacts merged into the row. */
  | { per: 'contact_row'; carries: (row: DeliverableRow, sources: ContactRow[]) => boolean }
  /** One unit per distinct domain among the job's scored companies that shows the work. */
  | { per: 'company_domain'; shows: (company: CompanyRow) => boolean }
  /** Free work: nothing to count. */
  | { per: 'none' };

export interface CapabilityDefinition {
  /** The pipeline stage: what it works on (the order of CAPABILITY_NAMES is the order stages run). */
  scope: CapabilityScope;
  label: string;
  /** Unit price in credits and what one unit is. */
  unitCredits: number;
  unit: string;
  /**
   * Calls providers outside the curated data: a growth plan's external spend, and the fallback
   * when the curated data does not cover its inputs.
   */
  external: boolean;
  /** The deliverable columns its work fills (a column may also come from the input, or from another capability). */
  columns: readonly (keyof DeliverableRow)[];
  /** The most units it can consume for so many companies and contacts, found ones included (a growth quote's bound). */
  maxUnits: (volume: { companies: number; contacts: number }) => number;
  delivered: DeliveredCount;
}

/**
 * Each capability described once; prices, the reservation, the delivered charge, a growth plan's
 * external spend and the stage table are read from here. Keyed by every name in CAPABILITY_NAMES,
 * so a new capability does not compile until it says all of this.
 */
export const CAPABILITIES: Record<Capability, CapabilityDefinition> = {
  qualification: {
    scope: 'company',
    label: 'Qualification',
    unitCredits: 1,
    unit: 'company scored',
    external: false,
    columns: ['icp_score', 'icp_qualified', 'icp_reasons'],
    maxUnits: (v) => v.companies,
    // Companies the ICP gate dropped count too: the gate's verdict is what qualification delivers for them.
    delivered: { per: 'company_domain', shows: (c) => c.qualification !== undefined },
  },
  company_size: {
    scope: 'company',
    label: 'Company size',
    unitCredits: 1,
    unit: 'company size resolved',
    external: false,
    columns: ['employee_count', 'company_size_status', 'company_size_source'],
    maxUnits: (v) => v.companies,
    delivered: { per: 'company_domain', shows: (c) => !c.dropped && c.company_size?.status === 'resolved' },
  },
  contact_discovery: {
    scope: 'company',
    label: 'Contact discovery',
    unitCredits: 2,
    unit: 'contact found',
    external: false,
    columns: [
      'full_name',
      'first_name',
      'last_name',
      'title',
      'linkedin_url',
      'x_url',
      'github_url',
      'location',
      'contact_source',
      'person_source',
    ],
    maxUnits: (v) => v.companies * MAX_CONTACTS_PER_COMPANY,
    delivered: { per: 'contact_row', carries: (row) => row.contact_source === 'contact_discovery' },
  },
  linkedin_enrich: {
    scope: 'contact',
    label: 'LinkedIn enrichment',
    unitCredits: 2,
    unit: 'profile enriched',
    external: true,
    columns: ['full_name', 'first_name', 'last_name', 'title', 'x_url', 'github_url', 'location'],
    maxUnits: (v) => v.contacts,
    // Only the profile the row shows: a merged duplicate's other profile was not delivered.
    delivered: {
      per: 'contact_row',
      carries: (row, sources) => {
        const shown = row.linkedin_url ? canonicalLinkedinUrl(row.linkedin_url) : undefined;
        return (
          shown !== undefined &&
          sources.some(
            (s) =>
              s.linkedin_enrich?.status === 'enriched' &&
              s.linkedin_url &&
              canonicalLinkedinUrl(s.linkedin_url) === shown,
          )
        );
      },
    },
  },
  email_lookup: {
    scope: 'contact',
    label: 'E-mail lookup',
    unitCredits: 3,
    unit: 'e-mail found',
    external: true,
    columns: ['email', 'email_source', 'email_confidence'],
    maxUnits: (v) => v.contacts,
    delivered: {
      per: 'contact_row',
      // Found by the job (curated, a pattern or a provider), not supplied with the input.
      carries: (row) => row.email_source !== null && row.email_source !== 'input',
    },
  },
  email_verify: {
    scope: 'contact',
    label: 'E-mail verification',
    unitCredits: 1,
    unit: 'address checked',
    external: true,
    columns: ['email_status', 'email_reasons', 'email_status_source'],
    maxUnits: (v) => v.contacts,
    delivered: { per: 'contact_row', carries: (row) => row.email_status !== null },
  },
  deliverable_finalize: {
    scope: 'job',
    label: 'Finalising deliverable rows',
    unitCredits: 0,
    unit: 'row',
    external: false,
    columns: [],
    maxUnits: () => 0,
    delivered: { per: 'none' },
  },
};

export const PRESET_NAMES = [
  'full_pipeline',
  'verify_existing_emails',
  'company_size_and_email_verify',
  'enrich_contacts_from_companies',
] as const;
export type Preset = (typeof PRESET_NAMES)[number];

/** The presets; the planner still adds what a capability needs for the inputs given. */
export const PRESETS: Record<Preset, Capability[]> = {
  full_pipeline: ['qualification', 'company_size', 'contact_discovery', 'email_lookup', 'email_verify'],
  verify_existing_emails: ['email_verify'],
  company_size_and_email_verify: ['company_size', 'email_verify'],
  enrich_contacts_from_companies: ['contact_discovery', 'linkedin_enrich', 'email_lookup'],
};

/** Contact discovery keeps at most this many people per company, so estimateUnits is an upper bound. */
export const MAX_CONTACTS_PER_COMPANY = 5;
/** Input rows per queue message: a large job fans out over many messages. */
export const ROWS_PER_MESSAGE = 25;
export const MAX_COMPANIES = 1000;
export const MAX_CONTACTS = 5000;

export const isCapability = (name: string): name is Capability =>
  (CAPABILITY_NAMES as readonly string[]).includes(name);
export const isPreset = (name: string): name is Preset => (PRESET_NAMES as readonly string[]).includes(name);
