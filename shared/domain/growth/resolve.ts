/**
 * POST /growth/resolve: parse and normalise the inputs, measure them against the curated data,
 * plan, and record the plan's fingerprint so that quote can tell an issued plan from an edited one.
 */
import { now } from '../../adapters/ports';
import { uuidv7 } from '../../ids';
import { putPlanIssue } from '../../store/growthRepo';
import { coverageDomains, coverageModeOf } from './coverage';
import { parseInputText } from './inputText';
import { normalizeAssets, settleCompanyDomains, type InputCompany, type InputContact, type Rejection } from './normalize';
import { resolveGoal, type Constraints, type IcpConfig, type Resolution } from './planner';
import { planFingerprint } from './signature';
import { curatedDomainsByName, isCuratedCompanyDomain } from './curatedLookup';

/** An issued plan can be quoted for a day; after that, resolve again (the curated data may have moved). */
export const PLAN_LIFETIME_SECONDS = 24 * 3600;
/** Coverage is measured on at most this many distinct domains (in input order) to bound resolve's reads. */
export const COVERAGE_SAMPLE = 500;
const LOOKUP_CONCURRENCY = 25;

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
  };
}

async function countKnown(domains: string[]): Promise<number> {
  let known = 0;
  for (let i = 0; i < domains.length; i += LOOKUP_CONCURRENCY) {
    const hits = await Promise.all(domains.slice(i, i + LOOKUP_CONCURRENCY).map(isCuratedCompanyDomain));
    known += hits.filter(Boolean).length;
  }
  return known;
}

export async function resolveGrowthGoal(userId: string, request: ResolveRequest): Promise<ResolveResponse> {
  const parsed = parseInputText(request.input_text);
  const draft = normalizeAssets(
    [...(request.input_assets?.companies ?? []), ...parsed.companies],
    [...(request.input_assets?.contacts ?? []), ...parsed.contacts],
  );
  const unnamed = draft.assets.companies.filter((c) => !c.domain).map((c) => c.company_name!);
  const normalized = settleCompanyDomains(draft, await curatedDomainsByName(unnamed.slice(0, COVERAGE_SAMPLE)));
  const sample = coverageDomains(normalized.assets).slice(0, COVERAGE_SAMPLE);
  const coverageMode = coverageModeOf(await countKnown(sample), sample.length);
  const at = now();
  const resolution = resolveGoal({
    planId: uuidv7(at.getTime()),
    issuedAt: at.toISOString(),
    goalText: request.goal_text,
    constraints: request.constraints ?? {},
    icpConfig: request.icp_config ?? null,
    assets: normalized.assets,
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
    },
  };
}
