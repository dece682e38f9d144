/**
 * The goal plan: what resolve proposes, quote prices and run executes. It is handed to the client
 * and back, so it is validated strictly when it returns and signed (signature.ts) so that a plan
 * the caller edited, or one issued to someone else, is never priced.
 */
import * as z from '#shared/zod';
import { withMeta } from '#shared/zod';
import { companyFields, contactFields, icpConfigSchema } from '#shared/domain/jobs/assets';
import { MAX_COMPANIES, MAX_CONTACTS } from '#shared/domain/jobs/capabilities';
import { GOAL_TYPES, PIPELINE_ORDER, type Capability } from './goals';

export const COVERAGE_MODES = ['sufficient', 'partial', 'needs_enrichment'] as const;
export type CoverageMode = (typeof COVERAGE_MODES)[number];
export const RECOMMENDED_PATHS = ['enrichment_only', 'enrichment_plus_fallback'] as const;

export const normalizedCompanySchema = z.strictObject(companyFields('refused'));
export const normalizedContactSchema = z.strictObject(contactFields('refused'));

/** What one request may send; the plan keeps what one pipeline run takes (the rest is reported over_limit). */
export const MAX_ASSETS = 5000;
export const normalizedAssetsSchema = z.strictObject({
  companies: z.array(normalizedCompanySchema).check(z.maxLength(MAX_COMPANIES)),
  contacts: z.array(normalizedContactSchema).check(z.maxLength(MAX_CONTACTS)),
});

export const constraintsSchema = z.strictObject({
  niche: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
  count: z.optional(z.int().check(z.gte(1), z.lte(1000))),
  location: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
});

export const goalPlanSchema = withMeta(
  z.strictObject({
    plan_id: z.uuid(),
    goal_type: z.enum(GOAL_TYPES),
    pipeline_id: z.string().check(z.minLength(1), z.maxLength(100)),
    preset: z.string().check(z.minLength(1), z.maxLength(100)),
    capabilities: z.array(z.enum(PIPELINE_ORDER)).check(z.minLength(1), z.maxLength(PIPELINE_ORDER.length)),
    output: z.strictObject({
      required_fields: z
        .array(z.string().check(z.minLength(1), z.maxLength(100)))
        .check(z.minLength(1), z.maxLength(50)),
      preview_rows: z.int().check(z.gte(0), z.lte(50)),
    }),
    input_assets: normalizedAssetsSchema,
    constraints: constraintsSchema,
    icp_config: z.nullable(icpConfigSchema),
    execution_options: z.strictObject({
      icp_gate: z.enum(['skip', 'apply']),
      niche: z.optional(z.string().check(z.maxLength(200))),
      /** Title keywords contact discovery keeps ("the founders" -> founder, ceo); all titles when absent. */
      role_focus: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(100))).check(z.maxLength(20))),
    }),
    coverage_mode: z.enum(COVERAGE_MODES),
    recommended_path: z.enum(RECOMMENDED_PATHS),
    fallback_capabilities: z.array(z.enum(PIPELINE_ORDER)),
    issued_at: z.string().check(z.minLength(1), z.maxLength(40)),
  }),
  { id: 'GoalPlan' },
);

export type GoalPlan = z.output<typeof goalPlanSchema>;
export type Constraints = z.output<typeof constraintsSchema>;
export type { IcpConfig } from '#shared/domain/jobs/assets';

const byPipelineOrder = (caps: readonly Capability[]): Capability[] =>
  [...new Set(caps)].sort((a, b) => PIPELINE_ORDER.indexOf(a) - PIPELINE_ORDER.indexOf(b));

/**
 * The one canonical form of a plan: capabilities in pipeline order without repeats, output fields
 * without repeats. Two plans that differ only in such ordering are the same plan.
 */
export function normalizeGoalPlan(plan: GoalPlan): GoalPlan {
  return {
    ...plan,
    capabilities: byPipelineOrder(plan.capabilities),
    fallback_capabilities: byPipelineOrder(plan.fallback_capabilities),
    output: { ...plan.output, required_fields: [...new Set(plan.output.required_fields)] },
  };
}
