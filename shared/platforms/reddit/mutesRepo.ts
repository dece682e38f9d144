/**
 * Reddit has no mute, so the service keeps its own: while an author is muted in a subreddit, each of
 * their later posts and comments is removed by the poller. `from` is when the offending item was
 * written (later items are the ones removed), `until` when the mute ends, counted from when it was
 * applied. Expired mutes leave by ttl.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table, writeIfCondition } from '#shared/store/client';
import { redditMuteKey, redditMutesPartition } from '#shared/store/keys';
import { queryAll } from '#shared/store/query';
import { defineEntity } from '#shared/store/entity';

export interface RedditMute {
  username: string;
  from: string;
  until: string;
}

const mutes = defineEntity<RedditMute>()({
  name: 'redditMute',
  key: (m: { communityId: string; username: string }) => redditMuteKey(m.communityId, m.username),
  keyOnly: ['communityId'],
});

/** Mutes leave by ttl a day after they end (an undone one a minute after). */
const expiresAt = (iso: string, graceSeconds: number) => ({ ttl: Math.ceil(Date.parse(iso) / 1000) + graceSeconds });

export async function putRedditMute(communityId: string, mute: RedditMute): Promise<void> {
  await ddb().send(
    new PutCommand({
      TableName: table(),
      Item: mutes.item({ communityId, ...mute }, expiresAt(mute.until, 24 * 60 * 60)),
    }),
  );
}

/**
 * The mute a poll has just decided, in force before its delivery runs (which may wait out a rate limit
 * and then puts it again, from then). Put only over no mute or one from an earlier item: a mute the
 * delivery applied, or an undo (from when it was undone), is never shortened or lifted by it.
 */
export async function holdRedditMute(communityId: string, mute: RedditMute): Promise<void> {
  await writeIfCondition(() =>
    ddb().send(
      new PutCommand({
        TableName: table(),
        Item: mutes.item({ communityId, ...mute }, expiresAt(mute.until, 24 * 60 * 60)),
        ConditionExpression: 'attribute_not_exists(pk) OR #from < :from',
        ExpressionAttributeNames: { '#from': 'from' },
        ExpressionAttributeValues: { ':from': mute.from },
      }),
    ),
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
    items.map((i) => {
      const { username, from, until } = mutes.fromItem(i);
      return [username.toLowerCase(), { username, from, until }];
    }),
  );
}

/** Undo of a mute: the author posts freely again. */
export async function endRedditMute(communityId: string, username: string, atIso: string): Promise<void> {
  await ddb().send(
    new PutCommand({
      TableName: table(),
      Item: mutes.item({ communityId, username, from: atIso, until: atIso }, expiresAt(atIso, 60)),
    }),
  );
}
