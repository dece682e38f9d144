/** GET|PUT .../communities/{id}/rules: the owner reads and changes the community's rules. */
import { now } from '#shared/adapters/ports';
import { putCommunityRules } from '#shared/store/communityRulesRepo';
import { getCommunityRules } from './communityRulesReads';
import { getPlatformRecord } from '#shared/store/platformRepo';
import { ValidationError } from '#shared/domain/errors';
import { requireCommunity } from './communityReads';
import { mergeRules, type CommunityRules } from './communityRules';
import { PLATFORMS } from '#shared/platforms/registry';
import { PLATFORM_CORE } from './platformCore';

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
  const platform = PLATFORMS[community.type];
  // A captcha challenges a member when they join: a platform that tells no one about joins (Reddit, X;
  // its `welcome` is null for the same reason) has no one to challenge, and an accepted setting would
  // promise what never happens. Turning it off (a GET answer sent back as it is) stays allowed.
  if (change.captcha?.enabled && platform.welcome === null)
    throw new ValidationError(`A captcha cannot run on ${community.type}: it tells no one when someone joins.`, [
      { path: 'captcha.enabled', message: `Not available on ${community.type}` },
    ]);
  const next = mergeRules(await getCommunityRules(communityId, true), change);
  await putCommunityRules(communityId, next, now().toISOString());
  await platform.onRulesChanged?.(community, await getPlatformRecord(communityId), PLATFORM_CORE);
  return next;
}
