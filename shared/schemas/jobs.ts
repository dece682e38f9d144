import * as z from '#shared/zod';
import { withMeta } from '#shared/zod';
import { defineEndpoint } from '#shared/schemas/endpoint';
import {
  CAPABILITIES,
  CAPABILITY_NAMES,
  deliverableRowShape,
  MAX_COMPANIES,
  MAX_CONTACTS,
  PRESET_NAMES,
} from '#shared/domain/jobs/capabilities';
import { assetText, companyFields, contactFields, icpConfigSchema } from '#shared/domain/jobs/assets';
import { pageOf, pageQuery, timestamp } from './common';
import { JOBS_TAG, jobEventsEndpoint, jobParams, jobStatus } from './jobEvents';

const text = (max: number) => z.string().check(z.trim(), z.minLength(1), z.maxLength(max));

export const companyInput = withMeta(
  z.strictObject({ ...companyFields('refused'), company_name: assetText('company_name', 'refused') }).check(
    z.refine((c) => c.domain !== undefined || c.website !== undefined, {
      message: 'A company needs a website or a domain',
    }),
  ),
  { id: 'JobCompanyInput', anyOf: [{ required: ['domain'] }, { required: ['website'] }] },
);

export const contactInput = withMeta(
  z
    .strictObject(contactFields('refused'))
    .check(z.refine((c) => Object.keys(c).length > 0, { message: 'A contact needs at least one field' })),
  { id: 'JobContactInput', minProperties: 1 },
);

/** The capabilities that work on companies: a job that runs one (chosen, or added by the planner) needs a company. */
const COMPANY_CAPABILITIES = CAPABILITY_NAMES.filter((name) => CAPABILITIES[name].scope === 'company');

/** What a job is asked to do: the body of a quote, and of a create without its quote_token. */
const jobRequestShape = {
  preset: z.optional(z.enum(PRESET_NAMES)),
  requested_capabilities: z.optional(
    z.array(z.enum(CAPABILITY_NAMES)).check(z.minLength(1), z.maxLength(CAPABILITY_NAMES.length)),
  ),
  input_assets: withMeta(
    z
      .strictObject({
        companies: z.optional(z.array(companyInput).check(z.maxLength(MAX_COMPANIES))),
        contacts: z.optional(z.array(contactInput).check(z.maxLength(MAX_CONTACTS))),
      })
      .check(
        z.refine((a) => (a.companies?.length ?? 0) + (a.contacts?.length ?? 0) > 0, {
          message: 'input_assets needs at least one company or contact',
        }),
      ),
    {
      description:
        `At least one company or contact. A job that runs a capability working on companies (${COMPANY_CAPABILITIES.join(', ')}; ` +
        'chosen, or added by the planner for the inputs) needs at least one company (400 otherwise).',
      anyOf: [
        { required: ['companies'], properties: { companies: { minItems: 1 } } },
        { required: ['contacts'], properties: { contacts: { minItems: 1 } } },
      ],
    },
  ),
  icp_config: z.optional(icpConfigSchema),
  execution_options: z.optional(
    z.strictObject({
      niche: z.optional(text(200)),
      icp_gate: z.optional(z.enum(['skip', 'apply'])),
      /** Roles contact discovery looks for (e.g. ["marketing", "partnerships"]); default: most senior first. */
      role_focus: z.optional(z.array(text(100)).check(z.maxLength(20))),
    }),
  ),
  chat_id: z.optional(z.uuid()),
};

/** Exactly one of preset and requested_capabilities (the refinement says it at run time, oneOf in the document). */
const oneChoice = <S extends z.ZodMiniType<{ preset?: unknown; requested_capabilities?: unknown }>>(schema: S) =>
  withMeta(
    schema.check(
      z.refine((b) => (b.preset === undefined) !== (b.requested_capabilities === undefined), {
        message: 'Send either preset or requested_capabilities, not both and not neither',
        path: ['preset'],
      }),
    ),
    { oneOf: [{ required: ['preset'] }, { required: ['requested_capabilities'] }] },
  );

export const quoteJobBody = withMeta(oneChoice(z.strictObject(jobRequestShape)), { id: 'JobQuoteRequest' });

export const createJobBody = oneChoice(
  z.strictObject({
    ...jobRequestShape,
    quote_token: z.optional(
      withMeta(z.string().check(z.minLength(1), z.maxLength(200)), {
        description:
          'From POST /bd/jobs/quote for this same body: the job then reserves at most the quoted credits at creation (its work reserves more as it goes), and the token is used up',
      }),
    ),
  }),
);

export const jobQuote = withMeta(
  z.object({
    quote_token: withMeta(z.string(), {
      description: 'Single use, bound to this body and caller; pass it to POST /bd/jobs with the same body',
    }),
    credits: withMeta(z.int(), {
      description:
        'The expected cost (what the curated data and rules deliver for these inputs): what POST /bd/jobs reserves. Work that finds more reserves more from the balance as it goes; when the balance cannot cover the next unit, that capability stops with a warning and the job completes with what it delivered. Only delivered units are charged',
    }),
    expiry: timestamp,
    breakdown: z.array(
      z.object({ capability: z.enum(CAPABILITY_NAMES), units: z.int(), unit_credits: z.int(), credits: z.int() }),
    ),
  }),
  { id: 'JobQuote' },
);

export const jobRecord = withMeta(
  z.object({
    job_id: z.uuid(),
    status: jobStatus,
    progress_percent: z.int().check(z.gte(0), z.lte(100)),
    progress_message: z.string(),
    preset: withMeta(z.string(), { description: 'The preset name, or `custom` for an explicit capability list' }),
    requested_capabilities: withMeta(z.array(z.enum(CAPABILITY_NAMES)), {
      description: 'As resolved by the planner, in pipeline order',
    }),
    warnings: z.array(z.string()),
    error_message: z.nullable(z.string()),
    result_id: z.nullable(z.uuid()),
    chat_id: z.nullable(z.uuid()),
    origin: withMeta(z.string(), {
      description: '`api`, or the service area that started the job (e.g. `growth_run:<run_id>`)',
    }),
    credits_reserved: withMeta(z.int(), {
      description:
        'What the job holds from the balance: its expected cost at creation, plus what its work reserved as it went; what it does not use is released when it ends',
    }),
    credits_charged: z.int(),
    stats: z.object({
      companies_in: z.int(),
      contacts_in: z.int(),
      batches: z.int(),
      companies_qualified: z.int(),
      companies_dropped: z.int(),
      units: z.record(z.string(), z.int()),
      credits_consumed: z.int(),
      credits_by_capability: z.record(z.string(), z.int()),
      email_statuses: z.object({ deliverable: z.int(), risky: z.int(), undeliverable: z.int(), unknown: z.int() }),
      rows_delivered: z.nullable(z.int()),
      duplicates_removed: z.nullable(z.int()),
      rows_by_source: withMeta(z.record(z.string(), z.int()), {
        description:
          'Delivered rows by the sources of their values (a row with values from two sources counts under each); empty until the job completes',
      }),
    }),
    created_at: timestamp,
    updated_at: timestamp,
    started_at: z.nullable(timestamp),
    completed_at: z.nullable(timestamp),
  }),
  { id: 'EnrichmentJob' },
);

/** Its columns and what each holds are declared once, with the capabilities that fill them. */
export const deliverableRow = withMeta(z.object(deliverableRowShape()), { id: 'DeliverableRow' });

export const jobEvent = withMeta(
  z.object({
    job_id: z.uuid(),
    status: jobStatus,
    progress_percent: z.int(),
    progress_message: z.string(),
    updated_at: timestamp,
  }),
  { id: 'JobEvent', description: 'The data of each `progress` and `complete` SSE event' },
);

const tag = JOBS_TAG;

export const jobsEndpoints = {
  createJob: defineEndpoint({
    operationId: 'createJob',
    readsCuratedData: true,
    method: 'POST',
    path: '/api/v1/bd/jobs',
    summary:
      'Start an enrichment job (its expected cost is reserved, more as its work needs it; only delivered units are charged)',
    tag,
    auth: 'api_key',
    paid: true,
    idempotent: true,
    successStatus: 202,
    body: createJobBody,
    response: jobRecord,
    errors: [402, 404, 410, 422],
  }),
  quoteJob: defineEndpoint({
    operationId: 'quoteJob',
    // The expected cost is what the curated data delivers for the inputs.
    readsCuratedData: true,
    method: 'POST',
    path: '/api/v1/bd/jobs/quote',
    tag,
    auth: 'api_key',
    summary:
      'Price an enrichment job before starting it: its expected cost, by capability, and a single-use token for POST /bd/jobs',
    description:
      'Takes the body POST /bd/jobs takes and prices it with the same planner. The token lives 15 minutes, is used once, and binds the caller and exactly this body; a create that sends it reserves at most `credits` at creation. `credits` is the expected cost, not a cap: work that finds more (outside providers) reserves more from the balance as it goes, and a capability the balance cannot pay for stops with a warning. Nothing is charged for a quote.',
    body: quoteJobBody,
    response: jobQuote,
    errors: [404],
  }),
  listJobs: defineEndpoint({
    operationId: 'listJobs',
    method: 'GET',
    path: '/api/v1/bd/jobs',
    summary: 'List your enrichment jobs, newest first',
    tag,
    auth: 'api_key',
    query: z.strictObject({
      ...pageQuery,
      sort_by: z._default(z.enum(['created_at']), 'created_at'),
      status: z.optional(jobStatus),
      origin: z.optional(text(200)),
    }),
    response: pageOf(jobRecord),
  }),
  getJob: defineEndpoint({
    operationId: 'getJob',
    method: 'GET',
    path: '/api/v1/bd/jobs/{job_id}',
    summary: 'An enrichment job; poll until completed, failed or cancelled',
    tag,
    auth: 'api_key',
    params: jobParams,
    response: jobRecord,
  }),
  cancelJob: defineEndpoint({
    operationId: 'cancelJob',
    method: 'POST',
    path: '/api/v1/bd/jobs/{job_id}/cancel',
    summary: 'Cancel a job that has not finished; it is charged only for what it consumed',
    tag,
    auth: 'api_key',
    idempotent: true,
    successStatus: 202,
    params: jobParams,
    response: jobRecord,
    errors: [422],
  }),
  exportJob: defineEndpoint({
    operationId: 'exportJob',
    method: 'GET',
    path: '/api/v1/bd/jobs/{job_id}/export',
    summary: 'The rows of a completed job, as CSV (with a header row) or JSON',
    tag,
    auth: 'api_key',
    params: jobParams,
    query: z.strictObject({ format: z._default(z.enum(['csv', 'json']), 'json') }),
    response: z.object({ rows: z.array(deliverableRow) }),
    errors: [422],
    alternateMedia: {
      'text/csv': {
        description: 'format=csv: a header row with the DeliverableRow field names, then one line per row',
      },
    },
  }),
  jobEvents: { ...jobEventsEndpoint, events: { progress: jobEvent, complete: jobEvent } },
};
