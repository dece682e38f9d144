/**
 * How much of a plan's input the curated data already knows, and the execution path that follows.
 * The lookup itself is I/O (resolve.ts passes it in); the rules here are pure.
 */
import { spendsOnProviders, type Capability } from './goals';
import type { NormalizedAssets } from './normalize';
import type { CoverageMode } from './plan';

/** The distinct company domains a plan touches: its companies' and its contacts' employers. */
export function coverageDomains(assets: NormalizedAssets): string[] {
  const domains = [...assets.companies.map((c) => c.domain), ...assets.contacts.map((c) => c.domain)];
  return [...new Set(domains.filter((d): d is string => d !== undefined))];
}

export function coverageModeOf(known: number, total: number): CoverageMode {
  if (total > 0 && known === total) return 'sufficient';
  return known > 0 ? 'partial' : 'needs_enrichment';
}

/**
 * When the curated data covers every input, the pipeline enriches from it alone; otherwise the
 * capabilities that call the listed outside providers are the fallback for what it does not know. A
 * plan without such capabilities (or a deployment listing no provider for them) never needs the fallback.
 */
export function executionPath(mode: CoverageMode, capabilities: Capability[]) {
  const external = capabilities.filter(spendsOnProviders);
  if (mode === 'sufficient' || external.length === 0)
    return { recommended_path: 'enrichment_only' as const, fallback_capabilities: [] as Capability[] };
  return { recommended_path: 'enrichment_plus_fallback' as const, fallback_capabilities: external };
}
