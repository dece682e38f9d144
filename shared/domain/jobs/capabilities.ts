/**
 * The enrichment capabilities and presets as data. The order of CAPABILITIES is the pipeline order:
 * linkedin_enrich runs before email_lookup because a profile can supply the names an address
 * pattern needs; deliverable_finalize always closes the job.
 */
import * as z from '#shared/zod';
import { withMeta } from '#shared/zod';
import { canonicalLinkedinUrl } from './linkedin';
import type { CompanyRow, ContactRow } from './rows';
import { VALUE_SOURCES } from './sources';
import { VERIFY_REASONS } from './verification';

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
  /** The most units it can consume for so many companies and contacts, found ones included (a growth quote's bound). */
  maxUnits: (volume: { companies: number; contacts: number }) => number;
  delivered: DeliveredCount;
}

/**
 * Each capability described once; prices, the reservation, the delivered charge, a growth plan's
 * external spend and the stage table are read from here (its deliverable columns from
 * DELIVERABLE_COLUMN_TABLE below). Keyed by every name in CAPABILITY_NAMES,
 * so a new capability does not compile until it says all of this.
 */
export const CAPABILITIES: Record<Capability, CapabilityDefinition> = {
  qualification: {
    scope: 'company',
    label: 'Qualification',
    unitCredits: 1,
    unit: 'company scored',
    external: false,
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
    maxUnits: (v) => v.companies,
    delivered: { per: 'company_domain', shows: (c) => !c.dropped && c.company_size?.status === 'resolved' },
  },
  contact_discovery: {
    scope: 'company',
    label: 'Contact discovery',
    unitCredits: 2,
    unit: 'contact found',
    external: false,
    maxUnits: (v) => v.companies * MAX_CONTACTS_PER_COMPANY,
    delivered: { per: 'contact_row', carries: (row) => row.contact_source === 'contact_discovery' },
  },
  linkedin_enrich: {
    scope: 'contact',
    label: 'LinkedIn enrichment',
    unitCredits: 2,
    unit: 'profile enriched',
    external: true,
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
    maxUnits: (v) => v.contacts,
    delivered: { per: 'contact_row', carries: (row) => row.email_status !== null },
  },
  deliverable_finalize: {
    scope: 'job',
    label: 'Finalising deliverable rows',
    unitCredits: 0,
    unit: 'row',
    external: false,
    maxUnits: () => 0,
    delivered: { per: 'none' },
  },
};

/** Who fills a column: the caller's input assets, or a capability's work. */
export type ColumnFiller = 'input' | Capability;

interface ColumnDefinition {
  /** What a row holds in it: nullable, or a list (empty when there is nothing to say). */
  value: z.ZodMiniType;
  filledBy: readonly ColumnFiller[];
  /** It says where another column's value came from (the job's `rows_by_source` counts these). */
  source?: true;
}

const text = z.nullable(z.string());
const sourceOfValue = z.nullable(
  withMeta(z.enum(VALUE_SOURCES), {
    description:
      'Where the value came from: the input, the curated data, a local rule (`pattern`, `rules`) or an outside provider',
  }),
);

/**
 * The deliverable's columns, each declared once with the capabilities whose work fills it (or the
 * caller's input): in the order the CSV and the response list them, and what it holds. The row type
 * (DeliverableRow), the CSV's columns, the columns that say where values came from, each
 * capability's columns and the response schema (shared/schemas/jobs.ts) are all read from here, so
 * a new column is one entry.
 */
export const DELIVERABLE_COLUMN_TABLE = {
  company_name: { value: text, filledBy: ['input'] },
  domain: { value: text, filledBy: ['input'] },
  website: { value: text, filledBy: ['input'] },
  icp_score: { value: z.nullable(z.int()), filledBy: ['qualification'] },
  icp_qualified: { value: z.nullable(z.boolean()), filledBy: ['qualification'] },
  icp_reasons: { value: z.array(z.string()), filledBy: ['qualification'] },
  employee_count: { value: z.nullable(z.int()), filledBy: ['company_size'] },
  company_size_status: { value: z.nullable(z.enum(['resolved', 'unresolved'])), filledBy: ['company_size'] },
  /** Where employee_count came from: `curated` or a provider's name. */
  company_size_source: { value: sourceOfValue, filledBy: ['company_size'], source: true },
  full_name: { value: text, filledBy: ['input', 'contact_discovery', 'linkedin_enrich'] },
  first_name: { value: text, filledBy: ['input', 'contact_discovery', 'linkedin_enrich'] },
  last_name: { value: text, filledBy: ['input', 'contact_discovery', 'linkedin_enrich'] },
  title: { value: text, filledBy: ['input', 'contact_discovery', 'linkedin_enrich'] },
  email: { value: text, filledBy: ['input', 'email_lookup'] },
  /** `input`, `curated`, `pattern` or a provider's name. */
  email_source: { value: sourceOfValue, filledBy: ['email_lookup'], source: true },
  email_confidence: { value: z.nullable(z.number()), filledBy: ['email_lookup'] },
  email_status: {
    value: z.nullable(z.enum(['deliverable', 'risky', 'undeliverable', 'unknown'])),
    filledBy: ['email_verify'],
  },
  email_reasons: { value: z.array(z.enum(VERIFY_REASONS)), filledBy: ['email_verify'] },
  /** Who verified the address: `rules` or a provider's name. */
  email_status_source: { value: sourceOfValue, filledBy: ['email_verify'], source: true },
  linkedin_url: { value: text, filledBy: ['input', 'contact_discovery'] },
  x_url: { value: text, filledBy: ['contact_discovery', 'linkedin_enrich'] },
  github_url: { value: text, filledBy: ['contact_discovery', 'linkedin_enrich'] },
  location: { value: text, filledBy: ['contact_discovery', 'linkedin_enrich'] },
  contact_source: { value: z.nullable(z.enum(['input', 'contact_discovery'])), filledBy: ['contact_discovery'] },
  /** Who found the person: `curated` or a provider's name (null for a supplied contact). */
  person_source: { value: sourceOfValue, filledBy: ['contact_discovery'], source: true },
} as const satisfies Record<string, ColumnDefinition>;

type ColumnTable = typeof DELIVERABLE_COLUMN_TABLE;
export type DeliverableColumn = keyof ColumnTable;

/** The columns' value schemas by name, in order: the response's row (shared/schemas/jobs.ts). */
export type DeliverableRowShape = { [K in DeliverableColumn]: ColumnTable[K]['value'] };

/** One deliverable row: a contact with its company's findings, or a company with no contact. */
// A type, not an interface: rows are JSON records (Record<string, unknown>) wherever they are served.
export type DeliverableRow = { [K in DeliverableColumn]: z.output<ColumnTable[K]['value']> };

const entries = Object.entries(DELIVERABLE_COLUMN_TABLE) as [DeliverableColumn, ColumnDefinition][];

/** The CSV's columns, in order. */
export const DELIVERABLE_COLUMNS: readonly DeliverableColumn[] = entries.map(([name]) => name);

type SourceColumn = {
  [K in DeliverableColumn]: ColumnTable[K] extends { source: true } ? K : never;
}[DeliverableColumn];

/** The columns that say where a row's values came from. */
export const SOURCE_COLUMNS = entries.filter(([, column]) => column.source).map(([name]) => name) as SourceColumn[];

/** The columns a capability's work fills (a column may also come from the input, or from another capability). */
export const columnsFilledBy = (filler: ColumnFiller): DeliverableColumn[] =>
  entries.filter(([, column]) => column.filledBy.includes(filler)).map(([name]) => name);

export const deliverableRowShape = (): DeliverableRowShape =>
  Object.fromEntries(entries.map(([name, column]) => [name, column.value])) as DeliverableRowShape;

/** A row with nothing in it: every column null, a list column empty. */
export const emptyRow = (): DeliverableRow =>
  Object.fromEntries(
    entries.map(([name, column]): [string, unknown] => [name, column.value instanceof z.ZodMiniArray ? [] : null]),
  ) as DeliverableRow;

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
