import * as z from '#shared/zod';
import { withMeta } from '#shared/zod';
import { defineEndpoint } from '#shared/schemas/endpoint';
import { QUOTE_ERROR_CODES } from '#shared/domain/growth/errors';
import {
  COVERAGE_MODES,
  RECOMMENDED_PATHS,
  constraintsSchema,
  goalPlanSchema,
  normalizedAssetsSchema,
  MAX_ASSETS,
} from '#shared/domain/growth/plan';
import { companyFields, contactFields, icpConfigSchema } from '#shared/domain/jobs/assets';
import { GOAL_TYPES, PIPELINE_ORDER } from '#shared/domain/growth/goals';
import { timestamp } from './common';

// Pasted or exported rows: a blank cell is kept here and dropped by normalisation, not refused.
const inputCompany = z.strictObject(companyFields('kept'));
const inputContact = z.strictObject(contactFields('kept'));

export const growthResolveRequest = withMeta(
  z.strictObject({
    goal_text: z.string().check(z.trim(), z.minLength(3), z.maxLength(2000)),
    constraints: z.optional(constraintsSchema),
    input_assets: z.optional(
      z.strictObject({
        companies: z.optional(z.array(inputCompany).check(z.maxLength(MAX_ASSETS))),
        contacts: z.optional(z.array(inputContact).check(z.maxLength(MAX_ASSETS))),
      }),
    ),
    input_text: z.optional(z.string().check(z.maxLength(50_000))),
    icp_config: z.optional(icpConfigSchema),
  }),
  { id: 'GrowthResolveRequest' },
);

const breakdownLine = z.object({
  capability: z.enum(PIPELINE_ORDER),
  units: z.int(),
  unit_credits: z.int(),
  credits: z.int(),
  external: z.boolean(),
});

export const growthResolveResponse = withMeta(
  z.object({
    goal_type: z.enum(GOAL_TYPES),
    coverage_mode: z.enum(COVERAGE_MODES),
    recommended_path: z.enum(RECOMMENDED_PATHS),
    quotable: z.boolean(),
    missing_requirements: z.array(z.string()),
    suggested_next_action: z.string(),
    goal_plan: goalPlanSchema,
    normalized_input_assets: normalizedAssetsSchema,
    fallback_capabilities: z.array(z.enum(PIPELINE_ORDER)),
    input_report: z.object({
      input_text_format: z.enum(['csv', 'list', 'empty']),
      detected_columns: z.record(z.string(), z.string()),
      skipped_lines: z.array(z.object({ line: z.int(), reason: z.string() })),
      rejected: z.array(z.object({ kind: z.enum(['company', 'contact']), input: z.string(), reason: z.string() })),
      duplicates_removed: z.object({ companies: z.int(), contacts: z.int() }),
      sourced_companies: z.nullable(z.object({ sector: z.string(), companies: z.int() })),
    }),
  }),
  { id: 'GrowthResolveResponse' },
);

export const growthQuoteResponse = withMeta(
  z.object({
    ok: z.boolean(),
    quotable: z.boolean(),
    quote_token: z.nullable(z.string()),
    expires_at: z.nullable(timestamp),
    credits_total: z.nullable(z.int()),
    breakdown: z.array(breakdownLine),
    estimated_delivered: z.nullable(
      z.object({
        companies: z.int(),
        contacts: z.int(),
        emails_found: z.int(),
        verified_emails: z.int(),
        enriched_contacts: z.int(),
        rows: z.int(),
      }),
    ),
    output_preview: z.nullable(
      z.object({
        rows: z.int(),
        preview_rows: z.int(),
        required_fields: z.array(z.string()),
        verified_emails: z.int(),
        enriched_contacts: z.int(),
        sample: z.array(z.unknown()),
      }),
    ),
    goal_plan: z.nullable(goalPlanSchema),
    missing_inputs: z.array(z.string()),
    error_code: z.nullable(z.enum(QUOTE_ERROR_CODES)),
    detail: z.nullable(z.string()),
    next_step: z.string(),
  }),
  { id: 'GrowthQuoteResponse' },
);

export const RUN_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;

export const growthRun = withMeta(
  z.object({
    run_id: z.uuid(),
    status: z.enum(RUN_STATUSES),
    goal_type: z.enum(GOAL_TYPES),
    pipeline_id: z.string(),
    job_id: z.nullable(z.uuid()),
    chat_id: z.nullable(z.uuid()),
    stage_status: z.record(z.string(), z.enum(['pending', 'running', 'completed', 'failed', 'cancelled', 'skipped'])),
    progress: z.object({ percent: z.int().check(z.gte(0), z.lte(100)), message: z.string() }),
    result_handles: z.array(z.object({ result_id: z.uuid(), tool_name: z.string(), records_count: z.int() })),
    artifact_handles: z.array(z.object({ asset_id: z.string(), label: z.string(), kind: z.string() })),
    export_handles: z.array(z.object({ format: z.enum(['csv', 'json']), url: z.string(), rows: z.int() })),
    preview: z.object({
      rows: z.array(z.record(z.string(), z.unknown())),
      delivered_counts: z.record(z.string(), z.int()),
      pricing: z.object({
        quoted_credits: z.int(),
        charged_credits: z.nullable(z.int()),
        rebate_credits: z.nullable(z.int()),
      }),
    }),
    data_source_mix: z.record(z.string(), z.int()),
    gap_report: z.object({
      unresolved_count: z.int(),
      reasons: z.record(z.string(), z.int()),
      unresolved: z.array(z.object({ row: z.int(), label: z.string(), reason: z.string() })),
    }),
    error_message: z.nullable(z.string()),
    created_at: timestamp,
    updated_at: timestamp,
  }),
  { id: 'GrowthRun' },
);

const runParams = z.strictObject({ run_id: z.uuid() });
const tag = 'Growth';

export const growthEndpoints = {
  resolveGrowthGoal: defineEndpoint({
    operationId: 'resolveGrowthGoal',
    readsCuratedData: true,
    method: 'POST',
    path: '/api/v1/growth/resolve',
    summary: 'Turn a goal in plain words and pasted inputs into a plan',
    tag,
    auth: 'api_key',
    body: growthResolveRequest,
    response: growthResolveResponse,
  }),
  quoteGrowthPlan: defineEndpoint({
    operationId: 'quoteGrowthPlan',
    readsCuratedData: true,
    method: 'POST',
    path: '/api/v1/growth/quote',
    summary: 'Price a resolved plan; a plan that cannot be priced answers 200 with ok false and an error_code',
    tag,
    auth: 'api_key',
    body: z.strictObject({
      goal_plan: withMeta(z.record(z.string(), z.unknown()), {
        description: 'The goal_plan from POST /growth/resolve, unchanged',
      }),
      max_external_spend_credits: z.optional(z.int().check(z.gte(0))),
      chat_id: z.optional(z.uuid()),
    }),
    response: growthQuoteResponse,
    errors: [404],
  }),
  startGrowthRun: defineEndpoint({
    operationId: 'startGrowthRun',
    readsCuratedData: true,
    method: 'POST',
    path: '/api/v1/growth/run',
    summary: 'Run a quoted plan: consumes the quote token and reserves the quoted credits',
    tag,
    auth: 'api_key',
    paid: true,
    idempotent: true,
    successStatus: 202,
    errors: [402, 404, 410, 422],
    body: z.strictObject({
      quote_token: z.string().check(z.minLength(1), z.maxLength(100)),
      goal_plan: withMeta(z.record(z.string(), z.unknown()), {
        description: 'The normalised goal_plan returned by quote',
      }),
    }),
    response: withMeta(z.object({ run_id: z.uuid(), status: z.literal('pending') }), { id: 'GrowthRunStarted' }),
  }),
  getGrowthRun: defineEndpoint({
    operationId: 'getGrowthRun',
    method: 'GET',
    path: '/api/v1/growth/runs/{run_id}',
    summary: 'A run: stages, progress, preview, pricing, gaps and handles',
    tag,
    auth: 'api_key',
    paid: true,
    params: runParams,
    response: growthRun,
  }),
  exportGrowthRun: defineEndpoint({
    operationId: 'exportGrowthRun',
    method: 'GET',
    path: '/api/v1/growth/runs/{run_id}/export',
    summary: "A completed run's rows as CSV (text/csv) or JSON ({rows})",
    tag,
    auth: 'api_key',
    paid: true,
    params: runParams,
    query: z.strictObject({ format: z._default(z.enum(['csv', 'json']), 'json') }),
    errors: [422],
    alternateMedia: { 'text/csv': { description: 'format=csv: a header row, then one line per row' } },
    response: z.object({ rows: z.array(z.record(z.string(), z.unknown())) }),
  }),
  cancelGrowthRun: defineEndpoint({
    operationId: 'cancelGrowthRun',
    method: 'POST',
    path: '/api/v1/growth/runs/{run_id}/cancel',
    summary: 'Cancel a run that has not finished (422 invalid_state when it has)',
    tag,
    auth: 'api_key',
    successStatus: 202,
    params: runParams,
    response: growthRun,
    errors: [422],
  }),
};
