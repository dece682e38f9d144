/**
 * Polling for platforms that push nothing (Reddit, X). Every minute the schedule lists each polled
 * platform's bound communities (one Query per platform) and queues them in shards of the platform's
 * batch size, plus one message for the operator account's own poll (Reddit's inbox); workers run the
 * shards in parallel, so a thousand communities are forty-odd short invocations, not one long one.
 * A shard polls only the communities that are still connected and paid at that moment; one deleted
 * since it was bound leaves the list. `POST /sync` polls one community the same way, at once.
 * Polls never throw: a failed one is logged and the next minute's supersedes it.
 */
import { getCommunity, type CommunityRecord } from '#shared/store/communitiesRepo';
import { getPolledCommunity, listPolledCommunities, removePolledCommunity, type PolledCommunity } from '#shared/store/pollingRepo';
import { logger } from '#shared/observability/logger';
import { communityStatus, type CommunityType } from './communityTypes';
import { sendPlatformMessages, type PlatformMessage } from './platformMessages';
import { POLLERS } from './pollers';

/** A community a shard polls, with where it lives on the platform. */
export interface PollTarget {
  community: CommunityRecord;
  externalId: string;
}

/** What a polled platform provides (pollers.ts lists them by community type). */
export interface Poller {
  /** Communities per shard message: as many as one poll serves within the worker's time. */
  batchSize: number;
  /** Once per minute for the whole deployment (Reddit: the bot's inbox, where activations arrive). */
  pollOperator?: () => Promise<unknown>;
  /** One shard, every community connected and paid. */
  pollCommunities: (targets: PollTarget[]) => Promise<unknown>;
}

type PollMessage = Extract<PlatformMessage, { kind: 'moderation.poll' }>;

const pollerOf = (platform: string): Poller | undefined => (Object.hasOwn(POLLERS, platform) ? POLLERS[platform as CommunityType] : undefined);

export interface FanOutReport {
  platforms: Record<string, { communities: number; shards: number }>;
}

/** The minute schedule's part: queue every shard (nothing is polled here). */
export async function fanOutPolls(): Promise<FanOutReport> {
  const report: FanOutReport = { platforms: {} };
  for (const [platform, poller] of Object.entries(POLLERS) as [CommunityType, Poller][]) {
    const polled = await listPolledCommunities(platform);
    const messages: PollMessage[] = [];
    if (poller.pollOperator) messages.push({ kind: 'moderation.poll', platform, communities: [], operator: true });
    for (let i = 0; i < polled.length; i += poller.batchSize) {
      messages.push({ kind: 'moderation.poll', platform, communities: polled.slice(i, i + poller.batchSize).map(asEntry) });
    }
    await sendPlatformMessages(messages);
    report.platforms[platform] = { communities: polled.length, shards: messages.length };
  }
  return report;
}

const asEntry = (p: PolledCommunity) => ({ user_id: p.userId, community_id: p.communityId, external_id: p.externalId });

/** The worker's part: one shard message. */
export async function runPoll(message: PollMessage): Promise<void> {
  const poller = pollerOf(message.platform);
  if (!poller) return;
  try {
    if (message.operator) await poller.pollOperator?.();
    const targets = await pollable(message.platform, message.communities);
    if (targets.length) await poller.pollCommunities(targets);
  } catch (err) {
    logger.error('poll failed', { platform: message.platform, communities: message.communities.length, error: (err as Error).message });
  }
}

/** Connected (bound, billing active) communities of the shard; deleted ones leave the list. */
async function pollable(platform: string, entries: PollMessage['communities']): Promise<PollTarget[]> {
  const found = await Promise.all(entries.map(async (e) => ({ e, community: await getCommunity(e.user_id, e.community_id) })));
  const targets: PollTarget[] = [];
  for (const { e, community } of found) {
    if (!community) {
      await removePolledCommunity(platform, e.community_id);
      continue;
    }
    if (community.type === platform && communityStatus(community) === 'connected') targets.push({ community, externalId: e.external_id });
  }
  return targets;
}

/**
 * POST /sync of a polled community: its poll now, in the request (and the operator's, so a customer
 * who has just sent the activation message sees it take effect). False when the type is not polled.
 */
export async function pollCommunityNow(community: CommunityRecord): Promise<boolean> {
  const poller = pollerOf(community.type);
  if (!poller) return false;
  const polled = await getPolledCommunity(community.type, community.id);
  await runPoll({
    kind: 'moderation.poll',
    platform: community.type,
    communities: polled ? [asEntry(polled)] : [],
    ...(communityStatus(community) === 'pending_activation' && poller.pollOperator ? { operator: true } : {}),
  });
  return true;
}
