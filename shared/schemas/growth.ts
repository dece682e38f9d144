import * as z from 'zod';
import { defineEndpoint } from '#shared/http/endpoint';
import { QUOTE_ERROR_CODES } from '#shared/domain/growth/errors';
import { COVERAGE_MODES, RECOMMENDED_PATHS, constraintsSchema, goalPlanSchema, icpConfigSchema, normalizedAssetsSchema, MAX_ASSETS } from '#shared/domain/growth/plan';
import { GOAL_TYPES, PIPELINE_ORDER } from '#shared/domain/growth/goals';
import { timestamp } from './common';

const optionalText = (max: number) => z.string().trim().max(max).optional();

const inputCompany = z.strictObject({ company_name: optionalText(300), domain: optionalText(253), website: optionalText(500) });
const inputContact = z.strictObject({
  full_name: optionalText(300),
  first_name: optionalText(150),
  last_name: optionalText(150),
  email: optionalText(320),
  company_name: optionalText(300),
  domain: optionalText(253),
  linkedin_url: optionalText(500),
  title: optionalText(300),
});

export const growthResolveRequest = z
  .strictObject({
    goal_text: z.string().trim().min(3).max(2000),
    constraints: constraintsSchema.optional(),
    input_assets: z.strictObject({ companies: z.array(inputCompany).max(MAX_ASSETS).optional(), contacts: z.array(inputContact).max(MAX_ASSETS).optional() }).optional(),
    input_text: z.string().max(50_000).optional(),
    icp_config: icpConfigSchema.optional(),
  })
  .meta({ id: 'GrowthResolveRequest' });

const breakdownLine = z.object({ capability: z.enum(PIPELINE_ORDER), units: z.number().int(), unit_credits: z.number().int(), credits: z.number().int(), external: z.boolean() });

export const growthResolveResponse = z
  .object({
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
      skipped_lines: z.array(z.object({ line: z.number().int(), reason: z.string() })),
      rejected: z.array(z.object({ kind: z.enum(['company', 'contact']), input: z.string(), reason: z.string() })),
      duplicates_removed: z.object({ companies: z.number().int(), contacts: z.number().int() }),
      sourced_companies: z.object({ sector: z.string(), companies: z.number().int() }).nullable(),
    }),
  })
  .meta({ id: 'GrowthResolveResponse' });

export const growthQuoteResponse = z
  .object({
    ok: z.boolean(),
    quotable: z.boolean(),
    quote_token: z.string().nullable(),
    expires_at: timestamp.nullable(),
    credits_total: z.number().int().nullable(),
    breakdown: z.array(breakdownLine),
    estimated_delivered: z
      .object({ companies: z.number().int(), contacts: z.number().int(), emails_found: z.number().int(), verified_emails: z.number().int(), enriched_contacts: z.number().int(), rows: z.number().int() })
      .nullable(),
    output_preview: z
      .object({ rows: z.number().int(), preview_rows: z.number().int(), required_fields: z.array(z.string()), verified_emails: z.number().int(), enriched_contacts: z.number().int(), sample: z.array(z.unknown()) })
      .nullable(),
    goal_plan: goalPlanSchema.nullable(),
    missing_inputs: z.array(z.string()),
    error_code: z.enum(QUOTE_ERROR_CODES).nullable(),
    detail: z.string().nullable(),
    next_step: z.string(),
  })
  .meta({ id: 'GrowthQuoteResponse' });

export const RUN_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;

export const growthRun = z
  .object({
    run_id: z.uuid(),
    status: z.enum(RUN_STATUSES),
    goal_type: z.enum(GOAL_TYPES),
    pipeline_id: z.string(),
    job_id: z.uuid().nullable(),
    chat_id: z.uuid().nullable(),
    stage_status: z.record(z.string(), z.enum(['pending', 'running', 'completed', 'failed', 'cancelled', 'skipped'])),
    progress: z.object({ percent: z.number().int().min(0).max(100), message: z.string() }),
    result_handles: z.array(z.object({ result_id: z.uuid(), tool_name: z.string(), records_count: z.number().int() })),
    artifact_handles: z.array(z.object({ asset_id: z.string(), label: z.string(), kind: z.string() })),
    export_handles: z.array(z.object({ format: z.enum(['csv', 'json']), url: z.string(), rows: z.number().int() })),
    preview: z.object({
      rows: z.array(z.record(z.string(), z.unknown())),
      delivered_counts: z.record(z.string(), z.number().int()),
      pricing: z.object({ quoted_credits: z.number().int(), charged_credits: z.number().int().nullable(), rebate_credits: z.number().int().nullable() }),
    }),
    data_source_mix: z.record(z.string(), z.number().int()),
    gap_report: z.object({
      unresolved_count: z.number().int(),
      reasons: z.record(z.string(), z.number().int()),
      unresolved: z.array(z.object({ row: z.number().int(), label: z.string(), reason: z.string() })),
    }),
    error_message: z.string().nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'GrowthRun' });

const runParams = z.strictObject({ run_id: z.uuid() });
const tag = 'Growth';

export const growthEndpoints = {
  resolveGrowthGoal: defineEndpoint({
    operationId: 'resolveGrowthGoal', readsCuratedData: true, method: 'POST', path: '/api/v1/growth/resolve', summary: 'Turn a goal in plain words and pasted inputs into a plan', tag, auth: 'api_key',
    body: growthResolveRequest, response: growthResolveResponse,
  }),
  quoteGrowthPlan: defineEndpoint({
    operationId: 'quoteGrowthPlan', readsCuratedData: true, method: 'POST', path: '/api/v1/growth/quote',
    summary: 'Price a resolved plan; a plan that cannot be priced answers 200 with ok false and an error_code', tag, auth: 'api_key',
    body: z.strictObject({
      goal_plan: z.record(z.string(), z.unknown()).meta({ description: 'The goal_plan from POST /growth/resolve, unchanged' }),
      max_external_spend_credits: z.number().int().min(0).optional(),
      chat_id: z.uuid().optional(),
    }),
    response: growthQuoteResponse, errors: [404],
  }),
  startGrowthRun: defineEndpoint({
    operationId: 'startGrowthRun', readsCuratedData: true, method: 'POST', path: '/api/v1/growth/run',
    summary: 'Run a quoted plan: consumes the quote token and reserves the quoted credits', tag, auth: 'api_key', paid: true, idempotent: true, successStatus: 202, errors: [402, 404, 410, 422],
    body: z.strictObject({ quote_token: z.string().min(1).max(100), goal_plan: z.record(z.string(), z.unknown()).meta({ description: 'The normalised goal_plan returned by quote' }) }),
    response: z.object({ run_id: z.uuid(), status: z.literal('pending') }).meta({ id: 'GrowthRunStarted' }),
  }),
  getGrowthRun: defineEndpoint({
    operationId: 'getGrowthRun', method: 'GET', path: '/api/v1/growth/runs/{run_id}', summary: 'A run: stages, progress, preview, pricing, gaps and handles', tag, auth: 'api_key', paid: true,
    params: runParams, response: growthRun,
  }),
  exportGrowthRun: defineEndpoint({
    operationId: 'exportGrowthRun', method: 'GET', path: '/api/v1/growth/runs/{run_id}/export', summary: "A completed run's rows as CSV (text/csv) or JSON ({rows})", tag, auth: 'api_key', paid: true,
    params: runParams, query: z.strictObject({ format: z.enum(['csv', 'json']).default('json') }), errors: [422],
    alternateMedia: { 'text/csv': { description: 'format=csv: a header row, then one line per row' } },
    response: z.object({ rows: z.array(z.record(z.string(), z.unknown())) }),
  }),
  cancelGrowthRun: defineEndpoint({
    operationId: 'cancelGrowthRun', method: 'POST', path: '/api/v1/growth/runs/{run_id}/cancel', summary: 'Cancel a run that has not finished (422 invalid_state when it has)', tag, auth: 'api_key',
    successStatus: 202, params: runParams, response: growthRun, errors: [422],
  }),
};
