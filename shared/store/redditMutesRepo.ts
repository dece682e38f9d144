/**
 * Reddit has no mute, so the service keeps its own: while an author is muted in a subreddit, each of
 * their later posts and comments is removed by the poller. `from` is when the offending item was
 * written (later items are the ones removed), `until` when the mute ends, counted from when it was
 * applied. Expired mutes leave by ttl.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from './client';
import { redditMuteKey, redditMutesPartition } from './keys';
import { queryAll } from './query';

export interface RedditMute {
  username: string;
  from: string;
  until: string;
}

export async function putRedditMute(communityId: string, mute: RedditMute): Promise<void> {
  await ddb().send(
    new PutCommand({
      TableName: table(),
      Item: {
        ...redditMuteKey(communityId, mute.username),
        entity: 'redditMute',
        ...mute,
        ttl: Math.ceil(Date.parse(mute.until) / 1000) + 24 * 60 * 60,
      },
    }),
  );
}

/** Every mute of the community still in force at `atIso`, by lower-cased username. */
export async function activeRedditMutes(communityId: string, atIso: string): Promise<Map<string, RedditMute>> {
  const { pk, prefix } = redditMutesPartition(communityId);
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    FilterExpression: '#until > :at',
    ExpressionAttributeNames: { '#until': 'until' },
    ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix, ':at': atIso },
    ConsistentRead: true,
  });
  return new Map(
    items.map((i) => [
      String(i.username).toLowerCase(),
      { username: i.username as string, from: i.from as string, until: i.until as string },
    ]),
  );
}

/** Undo of a mute: the author posts freely again. */
export async function endRedditMute(communityId: string, username: string, atIso: string): Promise<void> {
  await ddb().send(
    new PutCommand({
      TableName: table(),
      Item: {
        ...redditMuteKey(communityId, username),
        entity: 'redditMute',
        username,
        from: atIso,
        until: atIso,
        ttl: Math.ceil(Date.parse(atIso) / 1000) + 60,
      },
    }),
  );
}
