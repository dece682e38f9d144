/** GET|PUT .../communities/{id}/rules: the owner reads and changes the community's rules. */
import { now } from '#shared/adapters/ports';
import { getCommunityRules, putCommunityRules } from '#shared/store/communityRulesRepo';
import { getPlatformRecord } from '#shared/store/platformRepo';
import { requireCommunity } from './communities';
import { mergeRules, type CommunityRules } from './communityRules';
import { requestAutomodSync } from './discordAutomod';

export async function readRules(userId: string, communityId: string): Promise<CommunityRules> {
  await requireCommunity(userId, communityId);
  return getCommunityRules(communityId);
}

/** Merged over the current document; a Discord guild already bound gets its AutoMod rules rewritten. */
export async function changeRules(userId: string, communityId: string, change: Parameters<typeof mergeRules>[1]): Promise<CommunityRules> {
  const community = await requireCommunity(userId, communityId);
  const next = mergeRules(await getCommunityRules(communityId, true), change);
  await putCommunityRules(communityId, next, now().toISOString());
  if (community.type === 'discord' && (await getPlatformRecord(communityId)).discordGuildId) {
    await requestAutomodSync(userId, communityId);
  }
  return next;
}
