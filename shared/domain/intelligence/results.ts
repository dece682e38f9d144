/** GET /intelligence/results/{id}: the stored result, with the expansions it can take and their estimates. */
import { getUnlockMemory } from '#shared/store/intelligenceRepo';
import { EXPANSIONS, INCREASE_LIMIT_BLOCK, PACKAGES, type ExpansionType, type PackageDef } from './packages';
import { increaseLimitCredits, networkDepthCredits } from './pricing';
import { priceUnlock } from './expansions';
import { loadIntelResult } from './storedResults';
import { UnprocessableError } from '#shared/domain/errors';

/** Expansions that make sense on a result of this type (a contact unlock has no ranking to extend). */
const FOLLOW_UPS: Record<string, readonly ExpansionType[]> = {
  execute: ['contact_unlock', 'increase_limit', 'network_depth'],
  increase_limit: ['contact_unlock', 'increase_limit', 'network_depth'],
  network_depth: ['contact_unlock'],
  contact_unlock: ['contact_unlock'],
};

/** Refuses an expansion the parent result does not offer (the same rule its available_expansions shows). */
export function assertExpansionOffered(pkg: PackageDef, parentExpansionType: string | null, type: ExpansionType): void {
  const offered = pkg.expansions.filter((e) => FOLLOW_UPS[parentExpansionType ?? 'execute'].includes(e));
  if (!offered.includes(type)) {
    throw new UnprocessableError(
      'invalid_state',
      `This result does not offer ${type}; it offers ${offered.join(', ') || 'no expansion'}.`,
    );
  }
}

export async function availableExpansions(
  userId: string,
  pkg: PackageDef,
  expansionType: string | null,
  recordIds: string[],
) {
  const allowed = pkg.expansions.filter((e) => FOLLOW_UPS[expansionType ?? 'execute'].includes(e));
  const memory = allowed.includes('contact_unlock')
    ? await getUnlockMemory(userId, pkg.entityKind, recordIds)
    : { tiers: {} };
  const estimates: Record<ExpansionType, number> = {
    // At the email tier, for every record not yet unlocked at email or above.
    contact_unlock: priceUnlock(recordIds, 'email', memory.tiers).credits,
    increase_limit: increaseLimitCredits(pkg, INCREASE_LIMIT_BLOCK),
    network_depth: networkDepthCredits(recordIds.length),
  };
  return allowed.map((type) => ({
    type,
    label: EXPANSIONS[type].label,
    description: EXPANSIONS[type].description,
    estimated_credits: estimates[type],
  }));
}

export async function readIntelligenceResult(userId: string, resultId: string) {
  const { intel, data } = await loadIntelResult(userId, resultId);
  const pkg = PACKAGES[intel.packageId as keyof typeof PACKAGES];
  return {
    result_id: data.result_id,
    package_id: data.package_id,
    summary: data.summary,
    records_count: data.records_count,
    records: data.records,
    available_expansions: await availableExpansions(
      userId,
      pkg,
      intel.expansionType,
      data.records.map((r) => r.record_id),
    ),
    created_at: data.created_at,
    parent_result_id: intel.parentResultId,
    expansion_type: intel.expansionType,
  };
}
