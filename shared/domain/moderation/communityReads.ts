/**
 * Reading one community as its owner sees it, without the platforms' adapters: the moderation
 * operations and the webhook events both read communities through here, so a function that only
 * shows one (the webhook sender) does not carry the code that acts on the platforms.
 */
import { config } from '#shared/config/config';
import { now } from '#shared/adapters/ports';
import { NotFoundError } from '#shared/domain/errors';
import { randomToken } from '#shared/ids';
import { getCommunity, giveActivationTokenItem, type CommunityRecord } from '#shared/store/communitiesRepo';
import { putActivationPointer } from '#shared/store/activationPointersRepo';
import { writeIfCondition } from '#shared/store/client';
import { writeTogether } from '#shared/store/transactions';
import { communityStatus } from './communityTypes';
import { installLinkFor } from '#shared/platforms/installLinks';

export const newActivationToken = () => randomToken(32);

/**
 * The community as its owner reads it. `activation_token` only there: whoever holds the token can bind
 * the community to a place of theirs, so a webhook event (which travels to another system) says null.
 */
export const communityView = (c: CommunityRecord, audience: 'owner' | 'event' = 'owner') => ({
  id: c.id,
  moderation_id: c.moderationId,
  activation_token: audience === 'owner' ? c.activationToken : null,
  name: c.name,
  project_name: c.projectName,
  community_type: c.type,
  credits_charged: c.creditsCharged,
  status: communityStatus(c),
  monthly_credit_cost: c.monthlyCreditCost,
  next_billing_at: c.nextBillingAt,
  auto_renew: c.autoRenew,
  whitelisted_external_role_ids: c.whitelistedRoleIds,
  whitelisted_usernames: c.whitelistedUsernames,
  should_send_welcome_messages: c.shouldSendWelcomeMessages,
  welcome_message: c.welcomeMessage,
  alert_channel_message_template: c.alertTemplate,
  install_url: installLinkFor(c.type, config().platforms),
  authorize_url: null as string | null,
  created_at: c.createdAt,
  updated_at: c.updatedAt,
});
export type CommunityView = ReturnType<typeof communityView>;

/** The caller's community, or 404 (also for another user's: existence is never revealed). */
export async function requireCommunity(
  userId: string,
  communityId: string,
  consistent = false,
): Promise<CommunityRecord> {
  const community = await getCommunity(userId, communityId, consistent);
  if (!community) throw new NotFoundError('Community');
  return withActivationToken(community);
}

/**
 * A community connected at once before every type had to be bound (reddit, x, crisp; no token) was
 * never bound: on its first read it gets a token and waits for its binding like any other, with
 * nothing charged again. Done as it is read, so no sweep has to find such communities.
 */
export async function withActivationToken(community: CommunityRecord): Promise<CommunityRecord> {
  if (community.activationToken !== null) return community;
  const token = newActivationToken();
  await writeIfCondition(() =>
    writeTogether({
      community: giveActivationTokenItem(community, token, now().toISOString()),
      activationPointer: putActivationPointer(token, { userId: community.userId, communityId: community.id }),
    }),
  );
  // Whoever gave it a token first (this read or a concurrent one), the stored one counts.
  return (await getCommunity(community.userId, community.id, true)) ?? community;
}

/** The community as a webhook event shows it: no authorize link is minted outside an API answer. */
export async function readCommunityView(userId: string, communityId: string): Promise<CommunityView> {
  return communityView(await requireCommunity(userId, communityId), 'event');
}
