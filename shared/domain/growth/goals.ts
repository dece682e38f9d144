/**
 * The five goals a growth plan can serve, as data: how a goal is recognised in plain words, which
 * enrichment capabilities deliver it, what it needs as input and what its output rows carry.
 * Classification and planning read this table; adding a goal is adding a row.
 */
export const GOAL_TYPES = [
  'email_discovery',
  'contact_enrichment',
  'email_verification',
  'lead_generation',
  'company_research',
] as const;
export type GoalType = (typeof GOAL_TYPES)[number];

/** The enrichment pipeline's capabilities, in the order it runs them: a growth run is an enrichment job. */
export { CAPABILITY_NAMES as PIPELINE_ORDER, type Capability } from '#shared/domain/jobs/capabilities';
import { listedLookups } from '#shared/adapters/enrichment/catalog';
import { CAPABILITIES, CAPABILITY_NAMES, type Capability } from '#shared/domain/jobs/capabilities';

/** What a goal must be given: companies to work on, or contacts (with e-mail addresses where it verifies). */
export type InputNeed = 'companies' | 'contacts' | 'contacts_with_email' | 'companies_or_contacts';

export interface GoalDefinition {
  goal: GoalType;
  /** Phrases that point at this goal; each match adds its weight to the goal's score. */
  cues: { pattern: RegExp; weight: number }[];
  /** Extra score when the inputs have this shape (a pasted list of e-mails suggests verification). */
  inputCues: {
    when: 'contacts_with_email' | 'companies_only' | 'contacts_without_email' | 'no_inputs_with_niche';
    weight: number;
  }[];
  /** What the goal asks of the pipeline; the jobs planner adds what these need for the inputs given. */
  capabilities: Capability[];
  needs: InputNeed;
  requiredFields: string[];
  /** What the plan produces, in words, for next-step messages. */
  deliverable: string;
}

export const GOALS: GoalDefinition[] = [
  {
    goal: 'email_verification',
    cues: [
      { pattern: /\bverif(y|ied|ication)\b/, weight: 3 },
      { pattern: /\bvalidat(e|ion)\b/, weight: 3 },
      { pattern: /\bdeliverab(le|ility)\b/, weight: 3 },
      { pattern: /\bbounc(e|es|ing)\b/, weight: 2 },
      { pattern: /\bclean(up)?\b/, weight: 2 },
    ],
    inputCues: [{ when: 'contacts_with_email', weight: 2 }],
    capabilities: ['email_verify'],
    needs: 'contacts_with_email',
    requiredFields: ['email', 'email_status', 'email_reasons'],
    deliverable: 'verified e-mail addresses',
  },
  {
    goal: 'email_discovery',
    cues: [
      { pattern: /\b(find|get|discover|look ?up|need)\b.*\be-?mails?\b/, weight: 3 },
      { pattern: /\be-?mail (addresses|address)\b/, weight: 2 },
      { pattern: /\bwork e-?mails?\b/, weight: 2 },
      { pattern: /\bcontact (info|details)\b/, weight: 1 },
    ],
    inputCues: [{ when: 'companies_only', weight: 1 }],
    capabilities: ['contact_discovery', 'email_lookup', 'email_verify'],
    needs: 'companies_or_contacts',
    requiredFields: ['company_name', 'domain', 'full_name', 'title', 'email', 'email_status'],
    deliverable: 'verified work e-mails',
  },
  {
    goal: 'contact_enrichment',
    cues: [
      { pattern: /\benrich(ment|ed|ing)?\b/, weight: 3 },
      { pattern: /\blinked ?in\b/, weight: 2 },
      { pattern: /\b(titles?|profiles?|roles?)\b/, weight: 1 },
      { pattern: /\b(complete|fill in|update)\b.*\bcontacts?\b/, weight: 2 },
    ],
    inputCues: [{ when: 'contacts_without_email', weight: 2 }],
    capabilities: ['linkedin_enrich', 'email_lookup', 'email_verify'],
    needs: 'contacts',
    requiredFields: ['full_name', 'title', 'company_name', 'linkedin_url', 'email', 'email_status'],
    deliverable: 'enriched contacts',
  },
  {
    goal: 'lead_generation',
    cues: [
      { pattern: /\bleads?\b/, weight: 3 },
      { pattern: /\bprospect(s|ing)?\b/, weight: 3 },
      { pattern: /\b(outreach|pipeline|decision[- ]makers?|buyers?)\b/, weight: 2 },
      { pattern: /\b(qualif(y|ied|ication)|icp)\b/, weight: 2 },
    ],
    inputCues: [{ when: 'no_inputs_with_niche', weight: 2 }],
    capabilities: ['qualification', 'company_size', 'contact_discovery', 'email_lookup', 'email_verify'],
    needs: 'companies',
    requiredFields: [
      'company_name',
      'domain',
      'icp_score',
      'employee_count',
      'full_name',
      'title',
      'email',
      'email_status',
    ],
    deliverable: 'qualified leads with verified e-mails',
  },
  {
    goal: 'company_research',
    cues: [
      { pattern: /\bresearch\b/, weight: 3 },
      {
        pattern: /\b(company|companies|firmographics?|headcount|employees?)\b.*\b(size|info|profile|data)\b/,
        weight: 2,
      },
      { pattern: /\b(how big|size of|company size)\b/, weight: 3 },
      { pattern: /\b(analy[sz]e|assess|score)\b/, weight: 1 },
    ],
    inputCues: [],
    capabilities: ['qualification', 'company_size'],
    needs: 'companies',
    requiredFields: ['company_name', 'domain', 'icp_score', 'icp_qualified', 'employee_count', 'company_size_status'],
    deliverable: 'company profiles',
  },
];

export function goalDefinition(goal: GoalType): GoalDefinition {
  const found = GOALS.find((g) => g.goal === goal);
  if (!found) throw new Error(`No definition for goal ${goal}`);
  return found;
}

/** The fallback tier (their `external` in CAPABILITIES): the capabilities that may call outside providers. */
export const EXTERNAL_CAPABILITIES: ReadonlySet<Capability> = new Set(
  CAPABILITY_NAMES.filter((c) => CAPABILITIES[c].external),
);

/**
 * Whether a capability of the fallback tier would spend on providers here: only if a provider the
 * deployment lists (ENRICHMENT_PROVIDERS) offers its lookup. Its credits are then the plan's external spend.
 */
export function spendsOnProviders(capability: Capability): boolean {
  if (!EXTERNAL_CAPABILITIES.has(capability)) return false;
  const offered: ReadonlySet<string> = listedLookups();
  return offered.has(capability);
}
