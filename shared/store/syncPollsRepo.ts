/**
 * When POST /sync last polled a community's platform. Reddit's budget is one per deployment and X
 * bills per read, so an on-demand poll is claimed here first: one claim per community per interval,
 * taken with a conditional write so that concurrent syncs cannot both poll.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, table } from './client';
import { defineEntity } from './entity';
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
  const since = new Date(at.getTime() - intervalSeconds * 1000).toISOString();
  try {
    await ddb().send(
      new PutCommand({
        TableName: table(),
        Item: claims.item(
          { communityId, polledAt: at.toISOString() },
          { ttl: Math.ceil(at.getTime() / 1000) + intervalSeconds },
        ),
        ConditionExpression: 'attribute_not_exists(pk) OR polledAt <= :since',
        ExpressionAttributeValues: { ':since': since },
      }),
    );
    return { claimed: true };
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    // Refused only while a claim inside the interval holds; its time says when the next may be made.
    const { Item } = await ddb().send(
      new GetCommand({ TableName: table(), Key: syncPollKey(communityId), ConsistentRead: true }),
    );
    return { claimed: false, polledAt: claims.maybe(Item)?.polledAt ?? at.toISOString() };
  }
}
