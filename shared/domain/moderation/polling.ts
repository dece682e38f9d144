/**
 * Polling for platforms that push nothing (every registered platform whose ingest is `poll`: Reddit,
 * X). Binding a community on such a platform lists it under the platform (pollingRepo.ts). Every
 * minute the schedule reads each list (one Query per platform) and queues it in shards (pollFanOut.ts), plus one
 * message for the operator account's own poll (Reddit's inbox); workers run the shards in parallel,
 * so a thousand communities are a few dozen short invocations, not one long one. A shard polls only
 * the communities still connected and paid at that moment (suspended, expired or deleted ones are
 * skipped; a deleted or expired one leaves the list), either all at once (`batch`, Reddit's combined listings) or
 * one by one (`poll`). `POST /sync` polls one community the same way, in the request.
 * Polls never throw: a failed one is logged and the next minute's reads what it missed.
 */
import { getCommunity, type CommunityRecord } from '#shared/store/communitiesRepo';
import { getPlatformRecord } from '#shared/store/platformRepo';
import { getPolledCommunity, removePolledCommunity } from '#shared/store/pollingRepo';
import { logger } from '#shared/observability/logger';
import { COMMUNITY_TYPES, communityStatus, type CommunityType } from './communityTypes';
import type { PlatformMessage } from './platformMessages';
import { pollEntry } from './pollFanOut';
import type { Ingest, PollCause, PollTarget } from '#shared/platforms/contract';
import { PLATFORMS } from '#shared/platforms/registry';
import { PLATFORM_CORE } from './platformCore';

type Polled = Extract<Ingest, { kind: 'poll' }>;
type PollMessage = Extract<PlatformMessage, { kind: 'moderation.poll' }>;

/** Read when called: the registry and the platform modules import this module. */
const pollersNow = (): [CommunityType, Polled][] =>
  COMMUNITY_TYPES.flatMap((type) => {
    const ingest = PLATFORMS[type].ingest as Ingest;
    return ingest.kind === 'poll' ? [[type, ingest] as [CommunityType, Polled]] : [];
  });

const pollerOf = (platform: string): Polled | undefined => pollersNow().find(([type]) => type === platform)?.[1];

/** The worker's part: one shard message (or POST /sync's poll of one community). */
export async function runPoll(message: PollMessage, cause: PollCause = 'schedule'): Promise<void> {
  const poller = pollerOf(message.platform);
  if (!poller) return;
  try {
    if (message.operator) await poller.operator?.(cause, PLATFORM_CORE);
    const targets = await pollable(message.platform, message.communities);
    if (!targets.length) return;
    if (poller.batch) await poller.batch(targets, cause, PLATFORM_CORE);
    else for (const t of targets) await poller.poll(t.community, cause, PLATFORM_CORE);
  } catch (err) {
    logger.error('poll failed', {
      platform: message.platform,
      communities: message.communities.length,
      error: (err as Error).message,
    });
  }
}

/** Connected (bound, billing active) communities of the shard; deleted ones leave the list. */
async function pollable(platform: string, entries: PollMessage['communities']): Promise<PollTarget[]> {
  const found = await Promise.all(
    entries.map(async (e) => ({ e, community: await getCommunity(e.user_id, e.community_id, true) })),
  );
  const targets: PollTarget[] = [];
  for (const { e, community } of found) {
    if (!community) {
      await removePolledCommunity(platform, e.community_id);
      continue;
    }
    if (community.type !== platform) continue;
    if (community.billingState === 'expired') await letGoOfExpired(community);
    else if (communityStatus(community) === 'connected') targets.push({ community, externalId: e.external_id });
  }
  return targets;
}

/**
 * An expired community is never polled again (expiry is final). The renewal that expired it already told
 * its platform, which lets go of what it kept for it (an X account's grant); that is done again here, in
 * case it failed there, before the community leaves the list. A failure keeps it listed, for the next poll.
 */
async function letGoOfExpired(community: CommunityRecord): Promise<void> {
  try {
    await PLATFORMS[community.type].onMonitoringChanged?.(
      community,
      await getPlatformRecord(community.id),
      PLATFORM_CORE,
    );
    await removePolledCommunity(community.type, community.id);
  } catch (err) {
    const context = { platform: community.type, communityId: community.id, error: err as Error };
    logger.error('expired community not let go of', context);
  }
}

/**
 * POST /sync of a polled community: its poll now, in the request, and the operator's while it is
 * pending (a customer who has just sent Reddit's activation message sees it take effect).
 */
export async function pollCommunityNow(community: CommunityRecord): Promise<void> {
  const poller = pollerOf(community.type);
  if (!poller) return;
  if (communityStatus(community) === 'pending_activation' && poller.operator)
    await runPoll({ kind: 'moderation.poll', platform: community.type, communities: [], operator: true }, 'sync');
  // Read after the operator's poll: it may just have bound the community.
  const polled = await getPolledCommunity(community.type, community.id);
  if (polled)
    await runPoll({ kind: 'moderation.poll', platform: community.type, communities: [pollEntry(polled)] }, 'sync');
}
