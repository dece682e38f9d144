/**
 * The goal plan: what resolve proposes, quote prices and run executes. It is handed to the client
 * and back, so it is validated strictly when it returns and signed (signature.ts) so that a plan
 * the caller edited, or one issued to someone else, is never priced.
 */
import * as z from 'zod';
import { MAX_COMPANIES, MAX_CONTACTS } from '#shared/domain/jobs/capabilities';
import { GOAL_TYPES, PIPELINE_ORDER, type Capability } from './goals';

export const COVERAGE_MODES = ['sufficient', 'partial', 'needs_enrichment'] as const;
export type CoverageMode = (typeof COVERAGE_MODES)[number];
export const RECOMMENDED_PATHS = ['enrichment_only', 'enrichment_plus_fallback'] as const;

const text = (max: number) => z.string().min(1).max(max);

export const normalizedCompanySchema = z.strictObject({ company_name: text(300).optional(), domain: text(253).optional(), website: text(500).optional() });
export const normalizedContactSchema = z.strictObject({
  full_name: text(300).optional(),
  first_name: text(150).optional(),
  last_name: text(150).optional(),
  email: text(320).optional(),
  company_name: text(300).optional(),
  domain: text(253).optional(),
  linkedin_url: text(500).optional(),
  title: text(300).optional(),
});

/** What one request may send; the plan keeps what one pipeline run takes (the rest is reported over_limit). */
export const MAX_ASSETS = 5000;
export const normalizedAssetsSchema = z.strictObject({
  companies: z.array(normalizedCompanySchema).max(MAX_COMPANIES),
  contacts: z.array(normalizedContactSchema).max(MAX_CONTACTS),
});

export const constraintsSchema = z.strictObject({
  niche: z.string().trim().min(1).max(200).optional(),
  count: z.number().int().min(1).max(1000).optional(),
  location: z.string().trim().min(1).max(200).optional(),
});

export const icpConfigSchema = z.strictObject({
  industries: z.array(z.string().trim().min(1).max(100)).max(50).optional(),
  locations: z.array(z.string().trim().min(1).max(100)).max(50).optional(),
  keywords: z.array(z.string().trim().min(1).max(100)).max(50).optional(),
  min_employees: z.number().int().min(0).optional(),
  max_employees: z.number().int().min(0).optional(),
  min_score: z.number().min(0).max(100).optional(),
});

export const goalPlanSchema = z
  .strictObject({
    plan_id: z.uuid(),
    goal_type: z.enum(GOAL_TYPES),
    pipeline_id: z.string().min(1).max(100),
    preset: z.string().min(1).max(100),
    capabilities: z.array(z.enum(PIPELINE_ORDER)).min(1).max(PIPELINE_ORDER.length),
    output: z.strictObject({ required_fields: z.array(z.string().min(1).max(100)).min(1).max(50), preview_rows: z.number().int().min(0).max(50) }),
    input_assets: normalizedAssetsSchema,
    constraints: constraintsSchema,
    icp_config: icpConfigSchema.nullable(),
    execution_options: z.strictObject({
      icp_gate: z.enum(['skip', 'apply']),
      niche: z.string().max(200).optional(),
      /** Title keywords contact discovery keeps ("the founders" -> founder, ceo); all titles when absent. */
      role_focus: z.array(z.string().min(1).max(100)).max(20).optional(),
    }),
    coverage_mode: z.enum(COVERAGE_MODES),
    recommended_path: z.enum(RECOMMENDED_PATHS),
    fallback_capabilities: z.array(z.enum(PIPELINE_ORDER)),
    issued_at: z.string().min(1).max(40),
  })
  .meta({ id: 'GoalPlan' });

export type GoalPlan = z.infer<typeof goalPlanSchema>;
export type Constraints = z.infer<typeof constraintsSchema>;
export type IcpConfig = z.infer<typeof icpConfigSchema>;

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
