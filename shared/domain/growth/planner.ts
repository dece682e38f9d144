/**
 * Resolve, as a pure function: goal text, constraints and inputs in; the goal, the plan and what is
 * still missing out. The caller supplies the plan id, the time and the curated-data coverage.
 */
import { classifyGoal } from './classify';
import { executionPath } from './coverage';
import { ValidationError } from '#shared/domain/errors';
import { CAPABILITIES, PRESETS, PRESET_NAMES } from '#shared/domain/jobs/capabilities';
import { planJob } from '#shared/domain/jobs/planner';
import { goalDefinition, type Capability, type GoalDefinition, type GoalType, type InputNeed } from './goals';
import type { NormalizedAssets } from './normalize';
import { normalizeGoalPlan, type Constraints, type CoverageMode, type GoalPlan, type IcpConfig } from './plan';

export const DEFAULT_PREVIEW_ROWS = 5;

export interface PlanningInput {
  /** Set when the caller classified already (its inputs may have changed since); classified here otherwise. */
  goal?: GoalType;
  planId: string;
  issuedAt: string;
  goalText: string;
  constraints: Constraints;
  icpConfig: IcpConfig | null;
  /** Title keywords from the goal text (roleFocus.ts); none: every role. */
  roleFocus?: string[];
  assets: NormalizedAssets;
  coverageMode: CoverageMode;
}

export interface Resolution {
  goal_type: GoalType;
  coverage_mode: CoverageMode;
  recommended_path: GoalPlan['recommended_path'];
  quotable: boolean;
  missing_requirements: string[];
  suggested_next_action: string;
  goal_plan: GoalPlan;
  normalized_input_assets: NormalizedAssets;
  fallback_capabilities: GoalPlan['fallback_capabilities'];
}

/** What each kind of input need checks, and the requirement it reports when unmet. */
const NEEDS: Record<InputNeed, { met: (a: NormalizedAssets) => boolean; missing: string; ask: string }> = {
  companies: {
    met: (a) => a.companies.length > 0,
    missing: 'input_assets.companies',
    ask: 'Paste the companies to work on (a CSV with company names and domains, or a list of domains) in input_text or input_assets.companies',
  },
  contacts: {
    met: (a) => a.contacts.length > 0,
    missing: 'input_assets.contacts',
    ask: 'Add the contacts to enrich (names with their company or domain, e-mail addresses or LinkedIn URLs) in input_text or input_assets.contacts',
  },
  contacts_with_email: {
    met: (a) => a.contacts.some((c) => c.email),
    missing: 'input_assets.contacts[].email',
    ask: 'Paste the e-mail addresses to verify, one per line, in input_text',
  },
  companies_or_contacts: {
    met: (a) => a.companies.length > 0 || a.contacts.some((c) => c.domain || c.company_name),
    missing: 'input_assets.companies',
    ask: 'Paste the companies whose people you want to reach (a list of domains or a CSV) in input_text',
  },
};

export const inputNeedMet = (need: InputNeed, assets: NormalizedAssets) => NEEDS[need].met(assets);
export const inputNeedRequirement = (need: InputNeed) => NEEDS[need].missing;

/**
 * The job's stages for this goal and these inputs, as the jobs planner will run them (so the quote
 * prices exactly what runs). Company stages are left out when only contacts were given; inputs the
 * goal cannot use yet keep the goal's own list, and the plan is not quotable anyway.
 */
function pipelineFor(
  definition: GoalDefinition,
  assets: NormalizedAssets,
  icpGate: 'skip' | 'apply',
  hasIcpCriteria: boolean,
): Capability[] {
  const usable =
    assets.companies.length > 0
      ? definition.capabilities
      : definition.capabilities.filter((c) => CAPABILITIES[c].scope !== 'company');
  try {
    return planJob(
      { capabilities: usable.length > 0 ? usable : definition.capabilities },
      {
        companies: assets.companies.length,
        contacts: assets.contacts.length,
        contactsWithoutEmail: assets.contacts.filter((c) => !c.email).length,
        contactsWithLinkedin: assets.contacts.filter((c) => c.linkedin_url).length,
        icpGate,
        hasIcpCriteria,
      },
    ).capabilities;
  } catch (err) {
    if (err instanceof ValidationError) return [...definition.capabilities, 'deliverable_finalize'];
    throw err;
  }
}

/** The enrichment preset that runs exactly these stages, or `custom` (the job then says the same). */
export function presetFor(capabilities: Capability[]): string {
  const stages: Capability[] = capabilities.filter((c) => c !== 'deliverable_finalize');
  const same = (preset: Capability[]) => preset.length === stages.length && preset.every((c) => stages.includes(c));
  return PRESET_NAMES.find((name) => same(PRESETS[name])) ?? 'custom';
}

export function resolveGoal(input: PlanningInput): Resolution {
  const goal =
    input.goal ?? classifyGoal({ goalText: input.goalText, niche: input.constraints.niche, assets: input.assets });
  const definition = goalDefinition(goal);
  const icpGate = input.icpConfig && definition.capabilities.includes('qualification') ? 'apply' : 'skip';
  const hasIcpCriteria = Object.keys(input.icpConfig ?? {}).length > 0 || input.constraints.niche !== undefined;
  const capabilities = pipelineFor(definition, input.assets, icpGate, hasIcpCriteria);
  const path = executionPath(input.coverageMode, capabilities);
  const need = NEEDS[definition.needs];
  const missing = need.met(input.assets) ? [] : [need.missing];
  const plan = normalizeGoalPlan({
    plan_id: input.planId,
    goal_type: goal,
    pipeline_id: `growth.${goal}.v1`,
    preset: presetFor(capabilities),
    capabilities,
    output: { required_fields: definition.requiredFields, preview_rows: DEFAULT_PREVIEW_ROWS },
    input_assets: input.assets,
    constraints: input.constraints,
    icp_config: input.icpConfig,
    execution_options: {
      icp_gate: icpGate,
      ...(input.constraints.niche ? { niche: input.constraints.niche } : {}),
      ...(input.roleFocus?.length ? { role_focus: input.roleFocus } : {}),
    },
    coverage_mode: input.coverageMode,
    recommended_path: path.recommended_path,
    fallback_capabilities: path.fallback_capabilities,
    issued_at: input.issuedAt,
  });
  return {
    goal_type: goal,
    coverage_mode: input.coverageMode,
    recommended_path: path.recommended_path,
    quotable: missing.length === 0,
    missing_requirements: missing,
    suggested_next_action:
      missing.length > 0
        ? `${need.ask}, then resolve again.`
        : `Send goal_plan unchanged to POST /growth/quote to price ${definition.deliverable}.`,
    goal_plan: plan,
    normalized_input_assets: input.assets,
    fallback_capabilities: path.fallback_capabilities,
  };
}
