import * as z from 'zod';
import { defineEndpoint } from '#shared/http/endpoint';
import { CAPABILITY_NAMES, MAX_COMPANIES, MAX_CONTACTS, PRESET_NAMES } from '#shared/domain/jobs/capabilities';
import { VERIFY_REASONS } from '#shared/domain/jobs/providers/types';
import { pageOf, pageQuery, timestamp } from './common';

const text = (max: number) => z.string().trim().min(1).max(max);

export const companyInput = z
  .strictObject({ company_name: text(300), domain: text(300).optional(), website: text(2000).optional() })
  .refine((c) => c.domain !== undefined || c.website !== undefined, { message: 'A company needs a website or a domain' })
  // The refinement, said in JSON Schema so generated clients enforce it too.
  .meta({ id: 'JobCompanyInput', anyOf: [{ required: ['domain'] }, { required: ['website'] }] });

export const contactInput = z
  .strictObject({
    full_name: text(300).optional(),
    first_name: text(150).optional(),
    last_name: text(150).optional(),
    email: text(254).optional(),
    company_name: text(300).optional(),
    domain: text(300).optional(),
    linkedin_url: text(2000).optional(),
    title: text(300).optional(),
  })
  .refine((c) => Object.keys(c).length > 0, { message: 'A contact needs at least one field' })
  .meta({ id: 'JobContactInput', minProperties: 1 });

export const icpConfig = z
  .strictObject({
    industries: z.array(text(100)).max(50).optional(),
    locations: z.array(text(100)).max(50).optional(),
    keywords: z.array(text(100)).max(50).optional(),
    min_employees: z.number().int().min(0).optional(),
    max_employees: z.number().int().min(0).optional(),
    min_score: z.number().int().min(0).max(100).optional(),
  })
  .meta({ id: 'IcpConfig' });

export const createJobBody = z
  .strictObject({
    preset: z.enum(PRESET_NAMES).optional(),
    requested_capabilities: z.array(z.enum(CAPABILITY_NAMES)).min(1).max(CAPABILITY_NAMES.length).optional(),
    input_assets: z.strictObject({
      companies: z.array(companyInput).max(MAX_COMPANIES).optional(),
      contacts: z.array(contactInput).max(MAX_CONTACTS).optional(),
    }),
    icp_config: icpConfig.optional(),
    execution_options: z
      .strictObject({
        niche: text(200).optional(),
        icp_gate: z.enum(['skip', 'apply']).optional(),
        /** Roles contact discovery looks for (e.g. ["marketing", "partnerships"]); default: most senior first. */
        role_focus: z.array(text(100)).max(20).optional(),
      })
      .optional(),
    chat_id: z.uuid().optional(),
  })
  .refine((b) => (b.preset === undefined) !== (b.requested_capabilities === undefined), {
    message: 'Send either preset or requested_capabilities, not both and not neither',
    path: ['preset'],
  })
  .meta({ oneOf: [{ required: ['preset'] }, { required: ['requested_capabilities'] }] });

const emailStatus = z.enum(['deliverable', 'risky', 'undeliverable', 'unknown']);
const jobStatus = z.enum(['pending', 'running', 'completed', 'failed', 'cancelled']);

export const jobRecord = z
  .object({
    job_id: z.uuid(),
    status: jobStatus,
    progress_percent: z.number().int().min(0).max(100),
    progress_message: z.string(),
    preset: z.string().meta({ description: 'The preset name, or `custom` for an explicit capability list' }),
    requested_capabilities: z.array(z.enum(CAPABILITY_NAMES)).meta({ description: 'As resolved by the planner, in pipeline order' }),
    warnings: z.array(z.string()),
    error_message: z.string().nullable(),
    result_id: z.uuid().nullable(),
    chat_id: z.uuid().nullable(),
    origin: z.string().meta({ description: '`api`, or the service area that started the job (e.g. `growth_run:<run_id>`)' }),
    credits_reserved: z.number().int(),
    credits_charged: z.number().int(),
    stats: z.object({
      companies_in: z.number().int(),
      contacts_in: z.number().int(),
      batches: z.number().int(),
      companies_qualified: z.number().int(),
      companies_dropped: z.number().int(),
      units: z.record(z.string(), z.number().int()),
      credits_consumed: z.number().int(),
      credits_by_capability: z.record(z.string(), z.number().int()),
      email_statuses: z.object({ deliverable: z.number().int(), risky: z.number().int(), undeliverable: z.number().int(), unknown: z.number().int() }),
      rows_delivered: z.number().int().nullable(),
      duplicates_removed: z.number().int().nullable(),
    }),
    created_at: timestamp,
    updated_at: timestamp,
    started_at: timestamp.nullable(),
    completed_at: timestamp.nullable(),
  })
  .meta({ id: 'EnrichmentJob' });

export const deliverableRow = z
  .object({
    company_name: z.string().nullable(),
    domain: z.string().nullable(),
    website: z.string().nullable(),
    icp_score: z.number().int().nullable(),
    icp_qualified: z.boolean().nullable(),
    icp_reasons: z.array(z.string()),
    employee_count: z.number().int().nullable(),
    company_size_status: z.enum(['resolved', 'unresolved']).nullable(),
    full_name: z.string().nullable(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    title: z.string().nullable(),
    email: z.string().nullable(),
    email_source: z.enum(['input', 'curated', 'pattern']).nullable(),
    email_confidence: z.number().nullable(),
    email_status: emailStatus.nullable(),
    email_reasons: z.array(z.enum(VERIFY_REASONS)),
    linkedin_url: z.string().nullable(),
    x_url: z.string().nullable(),
    github_url: z.string().nullable(),
    location: z.string().nullable(),
    contact_source: z.enum(['input', 'contact_discovery']).nullable(),
  })
  .meta({ id: 'DeliverableRow' });

export const jobEvent = z
  .object({ job_id: z.uuid(), status: jobStatus, progress_percent: z.number().int(), progress_message: z.string(), updated_at: timestamp })
  .meta({ id: 'JobEvent', description: 'The data of each `progress` and `complete` SSE event' });

const jobParams = z.strictObject({ job_id: z.uuid() });
const tag = 'Enrichment jobs';

export const jobsEndpoints = {
  createJob: defineEndpoint({
    operationId: 'createJob', readsCuratedData: true, method: 'POST', path: '/api/v1/bd/jobs', summary: 'Start an enrichment job (credits for the estimate are reserved; only consumed units are charged)', tag,
    auth: 'api_key', paid: true, idempotent: true, successStatus: 202, body: createJobBody, response: jobRecord, errors: [402, 404],
  }),
  listJobs: defineEndpoint({
    operationId: 'listJobs', method: 'GET', path: '/api/v1/bd/jobs', summary: 'List your enrichment jobs, newest first', tag, auth: 'api_key',
    query: z.strictObject({ ...pageQuery, sort_by: z.enum(['created_at']).default('created_at'), status: jobStatus.optional(), origin: text(200).optional() }),
    response: pageOf(jobRecord),
  }),
  getJob: defineEndpoint({
    operationId: 'getJob', method: 'GET', path: '/api/v1/bd/jobs/{job_id}', summary: 'An enrichment job; poll until completed, failed or cancelled', tag, auth: 'api_key',
    params: jobParams, response: jobRecord,
  }),
  cancelJob: defineEndpoint({
    operationId: 'cancelJob', method: 'POST', path: '/api/v1/bd/jobs/{job_id}/cancel', summary: 'Cancel a job that has not finished; it is charged only for what it consumed', tag,
    auth: 'api_key', idempotent: true, successStatus: 202, params: jobParams, response: jobRecord, errors: [422],
  }),
  exportJob: defineEndpoint({
    operationId: 'exportJob', method: 'GET', path: '/api/v1/bd/jobs/{job_id}/export', summary: 'The rows of a completed job, as CSV (with a header row) or JSON', tag, auth: 'api_key',
    params: jobParams, query: z.strictObject({ format: z.enum(['csv', 'json']).default('json') }),
    response: z.object({ rows: z.array(deliverableRow) }), errors: [422],
    alternateMedia: { 'text/csv': { description: 'format=csv: a header row with the DeliverableRow field names, then one line per row' } },
  }),
  jobEvents: defineEndpoint({
    operationId: 'streamJobEvents', method: 'GET', path: '/api/v1/bd/jobs/{job_id}/events',
    summary: 'Server-Sent Events: `progress` on each change (the current state first), then `complete` once the job ends; `: keep-alive` every 15 s', tag,
    description: 'Server-Sent Events. The current state comes first as `progress`; each change is another `progress`; the end is one `complete` (never also `progress`), and a job already over gets only `complete`. Every event has an `id:`; a `: keep-alive` comment comes every 15 s. An Accept header that excludes text/event-stream is refused with 406.',
    auth: 'api_key', params: jobParams, streaming: true, events: { progress: jobEvent, complete: jobEvent }, errors: [406],
  }),
};
