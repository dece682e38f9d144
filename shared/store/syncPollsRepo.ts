/**
 * When POST /sync last polled a community's platform. Reddit's budget is one per deployment and X
 * bills per read, so an on-demand poll is claimed here first: one claim per community per interval,
 * taken with a conditional write so that concurrent syncs cannot both poll.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from './client';
import { defineEntity } from './entity';
import { claimOncePerInterval } from './intervalClaim';
import { syncPollKey } from './keys';

const claims = defineEntity<{ communityId: string; polledAt: string }>()({
  name: 'syncPoll',
  key: (c: { communityId: string }) => syncPollKey(c.communityId),
});

/**
 * Claims a poll of the community at `at` unless one was claimed within `intervalSeconds` before it.
 * Returns the earlier claim's time when refused. The claim expires with its interval (TTL).
 */
export async function claimSyncPoll(
  communityId: string,
  at: Date,
  intervalSeconds: number,
): Promise<{ claimed: true } | { claimed: false; polledAt: string }> {
  const claimed = await claimOncePerInterval(
    (ttl) => claims.item({ communityId, polledAt: at.toISOString() }, { ttl }),
    'polledAt',
    at,
    intervalSeconds,
  );
  if (claimed) return { claimed: true };
  // Refused only while a claim inside the interval holds; its time says when the next may be made.
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: syncPollKey(communityId), ConsistentRead: true }),
  );
  return { claimed: false, polledAt: claims.maybe(Item)?.polledAt ?? at.toISOString() };
}
