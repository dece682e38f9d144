/**
 * The minute schedule's part of polling (polling.ts has the worker's): each polled platform's list of
 * bound communities (one Query per platform) queued in shards, plus one message for the operator
 * account's own poll. Nothing is polled here.
 */
import { listPolledCommunities, type PolledCommunity } from '#shared/store/pollingRepo';
import { sendPlatformMessages, type PlatformMessage } from './platformMessages';
import { polledPlatforms } from '#shared/platforms/pollSchedules';

type PollMessage = Extract<PlatformMessage, { kind: 'moderation.poll' }>;

export interface FanOutReport {
  platforms: Record<string, { communities: number; shards: number }>;
}

export const pollEntry = (p: PolledCommunity) => ({
  user_id: p.userId,
  community_id: p.communityId,
  external_id: p.externalId,
});

export async function fanOutPolls(): Promise<FanOutReport> {
  const report: FanOutReport = { platforms: {} };
  for (const [platform, schedule] of polledPlatforms()) {
    const polled = await listPolledCommunities(platform);
    const messages: PollMessage[] = [];
    if (schedule.operatorPoll) messages.push({ kind: 'moderation.poll', platform, communities: [], operator: true });
    for (let i = 0; i < polled.length; i += schedule.shardSize)
      messages.push({
        kind: 'moderation.poll',
        platform,
        communities: polled.slice(i, i + schedule.shardSize).map(pollEntry),
      });
    await sendPlatformMessages(messages);
    report.platforms[platform] = { communities: polled.length, shards: messages.length };
  }
  return report;
}
