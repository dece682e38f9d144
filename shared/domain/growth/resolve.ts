/**
 * POST /growth/resolve: parse and normalise the inputs, measure them against the curated data,
 * plan, and record the plan's fingerprint so that quote can tell an issued plan from an edited one.
 */
import { now } from '#shared/adapters/ports';
import { SECTORS, termsIn } from '#shared/domain/curated/taxonomy';
import { uuidv7 } from '#shared/ids';
import { putPlanIssue } from '#shared/store/growthRepo';
import { MAX_COMPANIES, MAX_CONTACTS } from '#shared/domain/jobs/capabilities';
import { classifyGoal } from './classify';
import { coverageDomains, coverageModeOf } from './coverage';
import {
  countCuratedCompanyDomains,
  curatedCompaniesInSector,
  curatedCompanyLookup,
  curatedDomainsByName,
} from './curatedLookup';
import { goalDefinition, type GoalType } from './goals';
import { parseInputText } from './inputText';
import {
  capAssets,
  companyNameOf,
  normalizeAssets,
  settleCompanyDomains,
  type InputCompany,
  type InputContact,
  type NormalizedAssets,
  type Rejection,
} from './normalize';
import type { Constraints, IcpConfig } from './plan';
import { resolveGoal, type Resolution } from './planner';
import { roleFocusIn } from './roleFocus';
import { planFingerprint } from './signature';

/** An issued plan can be quoted for a day; after that, resolve again (the curated data may have moved). */
export const PLAN_LIFETIME_SECONDS = 24 * 3600;
/** Coverage is measured on at most this many distinct domains (in input order) to bound resolve's work. */
export const COVERAGE_SAMPLE = 500;
/** Companies taken from the curated data for a goal that names a sector instead of pasting companies. */
export const SOURCED_COMPANIES_DEFAULT = 20;
export const SOURCED_COMPANIES_MAX = 100;

export interface ResolveRequest {
  goal_text: string;
  constraints?: Constraints;
  input_assets?: { companies?: InputCompany[]; contacts?: InputContact[] };
  input_text?: string;
  icp_config?: IcpConfig;
}

export interface ResolveResponse extends Resolution {
  input_report: {
    input_text_format: 'csv' | 'list' | 'empty';
    detected_columns: Record<string, string>;
    skipped_lines: { line: number; reason: string }[];
    rejected: Rejection[];
    duplicates_removed: { companies: number; contacts: number };
    /** Set when the companies came from the curated data for the sector the goal names. */
    sourced_companies: { sector: string; companies: number } | null;
  };
}

/** The sector the goal names ("leads in decentralized finance" → defi), from the niche first. */
const sectorNamed = (request: ResolveRequest) =>
  termsIn(SECTORS, `${request.constraints?.niche ?? ''} ${request.goal_text}`, { shortInCapitals: true })[0];

/**
 * A goal that works on companies but was given none, and that names a sector ("50 leads in DeFi"),
 * takes its companies from the curated data: as many as constraints.count asks (one lead a company
 * at least), up to SOURCED_COMPANIES_MAX.
 */
async function sourceCompanies(
  goal: GoalType,
  sector: ReturnType<typeof sectorNamed>,
  count: number | undefined,
  assets: NormalizedAssets,
) {
  if (!sector || goalDefinition(goal).needs !== 'companies' || assets.companies.length > 0) return undefined;
  const companies = await curatedCompaniesInSector(
    sector.id,
    Math.min(count ?? SOURCED_COMPANIES_DEFAULT, SOURCED_COMPANIES_MAX),
  );
  return companies.length > 0 ? { sector: sector.id, companies } : undefined;
}

export async function resolveGrowthGoal(userId: string, request: ResolveRequest): Promise<ResolveResponse> {
  const parsed = parseInputText(request.input_text);
  const draft = normalizeAssets(
    [...(request.input_assets?.companies ?? []), ...parsed.companies],
    [...(request.input_assets?.contacts ?? []), ...parsed.contacts],
  );
  const unnamed = draft.assets.companies.filter((c) => !c.domain).map(companyNameOf);
  // One lookup reader for the names and the coverage: each lookup partition is read at most once.
  const lookup = curatedCompanyLookup();
  const settled = settleCompanyDomains(draft, await curatedDomainsByName(unnamed.slice(0, COVERAGE_SAMPLE), lookup));
  const normalized = capAssets(settled, { companies: MAX_COMPANIES, contacts: MAX_CONTACTS });
  const goal = classifyGoal({
    goalText: request.goal_text,
    niche: request.constraints?.niche,
    assets: normalized.assets,
  });
  const sector = sectorNamed(request);
  const sourced = await sourceCompanies(goal, sector, request.constraints?.count, normalized.assets);
  const assets = sourced ? { ...normalized.assets, companies: sourced.companies } : normalized.assets;
  const sample = coverageDomains(assets).slice(0, COVERAGE_SAMPLE);
  const coverageMode = coverageModeOf(await countCuratedCompanyDomains(sample, lookup), sample.length);
  const at = now();
  const resolution = resolveGoal({
    goal,
    planId: uuidv7(at.getTime()),
    issuedAt: at.toISOString(),
    goalText: request.goal_text,
    // A sector named in the goal text is the niche qualification scores against, unless one was given.
    constraints: { ...request.constraints, ...(!request.constraints?.niche && sector ? { niche: sector.label } : {}) },
    icpConfig: request.icp_config ?? null,
    roleFocus: roleFocusIn(request.goal_text),
    assets,
    coverageMode,
  });
  await putPlanIssue({
    userId,
    planId: resolution.goal_plan.plan_id,
    fingerprint: planFingerprint(userId, resolution.goal_plan),
    issuedAt: at.toISOString(),
    ttl: Math.floor(at.getTime() / 1000) + PLAN_LIFETIME_SECONDS,
  });
  return {
    ...resolution,
    input_report: {
      input_text_format: parsed.format,
      detected_columns: parsed.columns,
      skipped_lines: parsed.skipped,
      rejected: normalized.rejected,
      duplicates_removed: normalized.duplicatesRemoved,
      sourced_companies: sourced ? { sector: sourced.sector, companies: sourced.companies.length } : null,
    },
  };
}
