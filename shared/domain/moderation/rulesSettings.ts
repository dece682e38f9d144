/** GET|PUT .../communities/{id}/rules: the owner reads and changes the community's rules. */
import { now } from '#shared/adapters/ports';
import { getCommunityRules, putCommunityRules } from '#shared/store/communityRulesRepo';
import { getPlatformRecord } from '#shared/store/platformRepo';
import { requireCommunity } from './communityReads';
import { mergeRules, type CommunityRules } from './communityRules';
import { PLATFORMS } from './platforms/registry';

export async function readRules(userId: string, communityId: string): Promise<CommunityRules> {
  await requireCommunity(userId, communityId);
  return getCommunityRules(communityId);
}

/** Merged over the current document; a platform keeping its own copy of the rules (Discord's AutoMod) is told. */
export async function changeRules(
  userId: string,
  communityId: string,
  change: Parameters<typeof mergeRules>[1],
): Promise<CommunityRules> {
  const community = await requireCommunity(userId, communityId);
  const next = mergeRules(await getCommunityRules(communityId, true), change);
  await putCommunityRules(communityId, next, now().toISOString());
  await PLATFORMS[community.type].onRulesChanged?.(community, await getPlatformRecord(communityId));
  return next;
}
