import { now } from '#shared/adapters/ports';
import { NotFoundError, UnprocessableError } from '#shared/domain/errors';
import { randomToken, uuidv7 } from '#shared/ids';
import {
  deleteCommunityItems,
  getCommunity,
  LIVE_TOKEN,
  listCommunities,
  putNewCommunity,
  updateAutoRenew,
  updateCommunitySettings,
  type CommunityChanges,
  type CommunityRecord,
  type CommunitySettings,
} from '#shared/store/communitiesRepo';
import { chargeCredits } from '#shared/domain/credits/credits';
import { getPlatformRecord } from '#shared/store/platformRepo';
import { putActivationPointer, writeActivationPointer } from '#shared/store/activationPointersRepo';
import { COMMUNITY_PRICING, COMMUNITY_TYPES, type CommunityType } from './communityTypes';
import {
  communityView,
  newActivationToken,
  requireCommunity,
  withActivationToken,
  type CommunityView,
} from './communityReads';
import { periodEndAfter, renewalChargeId } from './renewalRules';
import { releasePlaces } from './binding';
import { issueActivationToken } from './activationToken';
import { PLATFORMS } from '#shared/platforms/registry';
import { PLATFORM_CORE } from './platformCore';

/**
 * The view as the API answers it: an X community's record carries a fresh authorize_url (a new
 * single-use state each time), built on the service's own public base URL. Without a base URL
 * (webhook events) no link is minted.
 */
async function answered(c: CommunityRecord, apiBaseUrl: string | undefined): Promise<CommunityView> {
  const view = communityView(c);
  // A type no platform module knows (data from before the current types) has no link either.
  const link = PLATFORMS[c.type]?.connectLink;
  if (!apiBaseUrl || !link || c.billingState === 'expired') return view;
  return { ...view, authorize_url: await link(c, apiBaseUrl) };
}

export interface CommunityInput {
  name?: string;
  project_name?: string;
  type?: CommunityType;
  whitelisted_external_role_ids?: string[];
  whitelisted_usernames?: string[];
  should_send_welcome_messages?: boolean;
  welcome_message?: string;
  alert_channel_message_template?: string;
}

/** Every type waits, with a fresh token, until it is bound on its platform. */
const activationFor = (): Pick<CommunityRecord, 'activationToken' | 'activatedAt' | 'activationTokenUse'> => ({
  activationToken: newActivationToken(),
  activationTokenUse: LIVE_TOKEN,
  activatedAt: null,
});

/** The API's snake_case fields mapped onto the record's; only what was sent. */
function settingsFrom(input: CommunityInput): Partial<CommunitySettings> {
  const mapped: Partial<CommunitySettings> = {
    name: input.name,
    projectName: input.project_name,
    type: input.type,
    whitelistedRoleIds: input.whitelisted_external_role_ids,
    whitelistedUsernames: input.whitelisted_usernames,
    shouldSendWelcomeMessages: input.should_send_welcome_messages,
    welcomeMessage: input.welcome_message,
    alertTemplate: input.alert_channel_message_template,
  };
  return Object.fromEntries(Object.entries(mapped).filter(([, v]) => v !== undefined));
}

/** Creates the community and charges its first period in ONE transaction: both happen or neither. */
export async function provisionCommunity(
  userId: string,
  input: CommunityInput & { name: string; project_name: string; type: CommunityType },
  apiBaseUrl?: string,
): Promise<CommunityView> {
  const at = now();
  const createdAt = at.toISOString();
  const id = uuidv7(at.getTime());
  const community: CommunityRecord = {
    id,
    userId,
    moderationId: `mod_${randomToken(24)}`,
    ...activationFor(),
    name: input.name,
    projectName: input.project_name,
    type: input.type,
    whitelistedRoleIds: input.whitelisted_external_role_ids ?? [],
    whitelistedUsernames: input.whitelisted_usernames ?? [],
    shouldSendWelcomeMessages: input.should_send_welcome_messages ?? false,
    welcomeMessage: input.welcome_message ?? null,
    alertTemplate: input.alert_channel_message_template ?? null,
    creditsCharged: COMMUNITY_PRICING.provisionCredits,
    monthlyCreditCost: COMMUNITY_PRICING.monthlyCredits,
    billingState: 'active',
    autoRenew: true,
    nextBillingAt: periodEndAfter(createdAt),
    periodIndex: 1,
    suspendedAt: null,
    resumedAt: null,
    lastSyncedAt: null,
    createdAt,
    updatedAt: createdAt,
  };
  await chargeCredits({
    userId,
    toolName: COMMUNITY_PRICING.toolName,
    refId: id,
    amount: COMMUNITY_PRICING.provisionCredits,
    chargeId: renewalChargeId(id, 1),
    // The pointer lets `/activate <token>` in a chat find the community the token belongs to.
    with: {
      ...putNewCommunity(community),
      activationPointer: community.activationToken
        ? putActivationPointer(community.activationToken, { userId, communityId: id })
        : undefined,
    },
  });
  return answered(community, apiBaseUrl);
}

export async function readCommunity(userId: string, communityId: string, apiBaseUrl?: string): Promise<CommunityView> {
  return answered(await requireCommunity(userId, communityId), apiBaseUrl);
}

/** The list shape ({items, total}); the usual paging parameters still apply. */
export async function listCommunityViews(
  userId: string,
  page: { limit: number; offset: number; sort_order: 'asc' | 'desc' },
  apiBaseUrl?: string,
): Promise<{ items: CommunityView[]; total: number }> {
  const all = await Promise.all((await listCommunities(userId)).map(withActivationToken));
  if (page.sort_order === 'asc') all.reverse();
  return {
    items: await Promise.all(all.slice(page.offset, page.offset + page.limit).map((c) => answered(c, apiBaseUrl))),
    total: all.length,
  };
}

/**
 * What to run once the community has left its place on its platform (deleted, or its type changed), with
 * the place read now, before it is let go: a platform that acts by itself on what the service wrote there
 * (Discord's AutoMod rules) has it removed. Undefined for a platform that keeps nothing acting, and for a
 * type no platform module knows (data from before the current types).
 */
async function leavingPlace(community: CommunityRecord): Promise<(() => Promise<void>) | undefined> {
  const tell = PLATFORMS[community.type]?.onMonitoringChanged;
  if (!tell) return undefined;
  const record = await getPlatformRecord(community.id);
  return () => tell(community, record, PLATFORM_CORE, true);
}

/** A changed type re-evaluates activation; sending the same type again changes nothing about it. */
export async function changeCommunity(
  userId: string,
  communityId: string,
  input: CommunityInput,
  apiBaseUrl?: string,
): Promise<CommunityView> {
  const before = await requireCommunity(userId, communityId, true);
  const at = now().toISOString();
  const typeChanges = input.type !== undefined && input.type !== before.type;
  // Read before the places are let go: where the old platform may still hold what the service wrote.
  const leave = typeChanges ? await leavingPlace(before) : undefined;
  const changes: CommunityChanges = settingsFrom(input);
  if (typeChanges) Object.assign(changes, activationFor());
  if (changes.activationToken) await writeActivationPointer(changes.activationToken, { userId, communityId });
  const after = await updateCommunitySettings(userId, communityId, changes, at);
  if (!after) throw new NotFoundError('Community');
  // A new type is bound again on its own platform: the places on the old one are let go (free for another
  // community, never acted on for this one again), and an X account's grant (which can hide replies and
  // mute on that account) is revoked as on deletion.
  if (after.type !== before.type) {
    // Unless it is of the old type again by the time that is let go (changed back and connected anew).
    await PLATFORMS[before.type]?.forget?.(
      communityId,
      async () => (await getCommunity(userId, communityId, true))?.type !== before.type,
    );
    await releasePlaces(communityId, before.type);
    await leave?.();
  }
  return answered(after, apiBaseUrl);
}

/** POST .../activation-token: the community with its fresh token, as the API answers it. */
export async function issueFreshActivationToken(
  userId: string,
  communityId: string,
  apiBaseUrl?: string,
): Promise<CommunityView> {
  return answered(await issueActivationToken(userId, communityId), apiBaseUrl);
}

export async function changeAutoRenew(
  userId: string,
  communityId: string,
  autoRenew: boolean,
  apiBaseUrl?: string,
): Promise<CommunityView> {
  await requireCommunity(userId, communityId);
  const after = await updateAutoRenew(userId, communityId, autoRenew, now().toISOString());
  if (after) return answered(after, apiBaseUrl);
  await requireCommunity(userId, communityId, true);
  throw new UnprocessableError('invalid_state', 'This community has expired and cannot renew; provision a new one.');
}

export async function removeCommunity(userId: string, communityId: string): Promise<void> {
  const community = await requireCommunity(userId, communityId, true);
  const leave = await leavingPlace(community);
  if (!(await deleteCommunityItems(community))) throw new NotFoundError('Community');
  await leave?.();
  // What a platform keeps for it (an X account's OAuth grant and tokens) goes with the community, whatever its
  // type is now: one that was X once may still hold a grant (a no-op read when it holds none).
  for (const type of COMMUNITY_TYPES) await PLATFORMS[type].forget?.(community.id);
}
