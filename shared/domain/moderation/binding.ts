/**
 * Binding a place on a platform (a chat, guild, subreddit, account or website) to a community, for
 * every platform alike: a place belongs to one community at a time. A second community trying to bind
 * it is refused (the caller replies so on the platform); nothing is taken over silently. A place held
 * by a deleted or expired community is free again (that community is billed for nothing either way).
 */
import { getCommunity, type CommunityRecord } from '#shared/store/communitiesRepo';
import { bindExternal, unbindExternal, type Binding } from '#shared/store/bindingsRepo';
import { getPlatformRecord, movePlatformPlace, updatePlatformRecord } from '#shared/store/platformRepo';
import { addPolledCommunity, removePolledCommunity } from '#shared/store/pollingRepo';
import type { CommunityType } from './communityTypes';
import { PLATFORMS } from '#shared/platforms/registry';

export type BindOutcome = 'bound' | 'taken';

/** Bindings of one community racing each other; each lost move re-reads the place that won. */
const MAX_PLACE_MOVES = 5;

/** Makes `externalId` the community's moderated place; a place it was bound to before is freed. */
export async function bindModeratedPlace(community: CommunityRecord, externalId: string): Promise<BindOutcome> {
  const field = PLATFORMS[community.type].recordFields.bound;
  if ((await claim(community, externalId, 'moderated')) === 'taken') return 'taken';
  // The record names one place, and whoever replaces a place frees it: of two bindings at once (the
  // token sent in two places), the one replaced second frees the first, so no claim outlives its naming.
  for (let attempt = 0; attempt < MAX_PLACE_MOVES; attempt++) {
    const previous = (await getPlatformRecord(community.id))[field];
    if (previous === externalId) break;
    if (!(await movePlatformPlace(community.id, field, previous, externalId))) continue;
    if (previous) await unbindExternal(community.type, previous, community.id);
    break;
  }
  // A polled platform's schedule reads the communities bound on it from this list, which follows the
  // record: of bindings at once, the one replaced may write its entry last, and it then writes the
  // winner's (whose own entry, written after its move, is the last when this read comes before it).
  if (PLATFORMS[community.type].ingest.kind === 'poll') {
    const entry = { userId: community.userId, communityId: community.id };
    await addPolledCommunity(community.type, { ...entry, externalId });
    const named = (await getPlatformRecord(community.id))[field];
    if (named && named !== externalId) await addPolledCommunity(community.type, { ...entry, externalId: named });
  }
  return 'bound';
}

/**
 * Lets go of a place just bound for a community that went away while it was bound (deleted, retyped or
 * expired during the X callback): that community's own clean-up ran before the binding existed.
 */
export async function releaseModeratedPlace(community: CommunityRecord, externalId: string): Promise<void> {
  await unbindExternal(community.type, externalId, community.id);
  await forget(community, externalId);
}

/** Makes `externalId` the community's alert place (its moderated place may be it too, and stays moderated). */
export async function bindAlertPlace(community: CommunityRecord, externalId: string): Promise<BindOutcome> {
  const fields = PLATFORMS[community.type].recordFields;
  if (!fields.alert) return 'taken';
  const record = await getPlatformRecord(community.id);
  if (record[fields.bound] !== externalId && (await claim(community, externalId, 'alerts')) === 'taken') return 'taken';
  const previous = record[fields.alert];
  if (previous && previous !== externalId && previous !== record[fields.bound])
    await unbindExternal(community.type, previous, community.id);
  await updatePlatformRecord(community.id, { [fields.alert]: externalId });
  return 'bound';
}

async function claim(community: CommunityRecord, externalId: string, role: Binding['role']): Promise<BindOutcome> {
  const binding: Binding = { userId: community.userId, communityId: community.id, role };
  for (let attempt = 0; attempt < 3; attempt++) {
    const first = await bindExternal(community.type, externalId, binding);
    if (first.bound) return 'bound';
    // Freed between the put and the read: try again.
    if (!first.holder) continue;
    const holder = await getCommunity(first.holder.userId, first.holder.communityId, true);
    if (holder && holder.billingState !== 'expired') return 'taken';
    if (!(await bindExternal(community.type, externalId, binding, first.holder)).bound) continue;
    if (holder) await forget(holder, externalId);
    return 'bound';
  }
  return 'taken';
}

/** The displaced (expired) community no longer names the place, so nothing of it acts there again. */
async function forget(holder: CommunityRecord, externalId: string): Promise<void> {
  const fields = PLATFORMS[holder.type].recordFields;
  const record = await getPlatformRecord(holder.id);
  const changes: Record<string, null> = {};
  for (const field of [fields.bound, fields.alert]) if (field && record[field] === externalId) changes[field] = null;
  if (Object.keys(changes).length) await updatePlatformRecord(holder.id, changes);
  if (changes[fields.bound] === null && PLATFORMS[holder.type].ingest.kind === 'poll')
    await removePolledCommunity(holder.type, holder.id);
}

/**
 * The community no longer moderates on `platform` (its type changed): its places there are free for
 * another community, and a polled platform stops listing it.
 */
export async function releasePlaces(communityId: string, platform: CommunityType): Promise<void> {
  const fields = PLATFORMS[platform].recordFields;
  const record = await getPlatformRecord(communityId);
  const changes: Record<string, null> = {};
  for (const field of [fields.bound, fields.alert]) {
    const externalId = field ? record[field] : undefined;
    if (!field || !externalId) continue;
    await unbindExternal(platform, externalId, communityId);
    changes[field] = null;
  }
  if (Object.keys(changes).length) await updatePlatformRecord(communityId, changes);
  if (PLATFORMS[platform].ingest.kind === 'poll') await removePolledCommunity(platform, communityId);
}
