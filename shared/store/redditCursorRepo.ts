/**
 * Where reading a subreddit's listings got to: the newest post (t3) and comment (t1) already read, as
 * the numeric value of their base-36 ids (Reddit ids grow with time). The cursor only moves forward,
 * so two overlapping polls never move it back over items one of them has not read.
 */
import { BatchGetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, table } from './client';
import { redditCursorKey, type Key } from './keys';

export type RedditListingKind = 't3' | 't1';
export type RedditCursor = Partial<Record<RedditListingKind, number>>;

/** The cursors of several communities (absent: never read). */
export async function readRedditCursors(communityIds: string[]): Promise<Map<string, RedditCursor>> {
  const found = new Map<string, RedditCursor>();
  const unique = [...new Set(communityIds)];
  for (let i = 0; i < unique.length; i += 100) {
    let keys: Key[] | undefined = unique.slice(i, i + 100).map(redditCursorKey);
    while (keys?.length) {
      const out = await ddb().send(
        new BatchGetCommand({ RequestItems: { [table()]: { Keys: keys, ConsistentRead: true } } }),
      );
      for (const item of out.Responses?.[table()] ?? []) {
        found.set(item.communityId as string, {
          ...(typeof item.t3 === 'number' ? { t3: item.t3 } : {}),
          ...(typeof item.t1 === 'number' ? { t1: item.t1 } : {}),
        });
      }
      keys = out.UnprocessedKeys?.[table()]?.Keys as Key[] | undefined;
    }
  }
  return found;
}

export async function advanceRedditCursor(communityId: string, kind: RedditListingKind, newest: number): Promise<void> {
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: redditCursorKey(communityId),
        UpdateExpression: 'SET #entity = :entity, #community = :community, #kind = :v',
        ConditionExpression: 'attribute_not_exists(#kind) OR #kind < :v',
        ExpressionAttributeNames: { '#entity': 'entity', '#community': 'communityId', '#kind': kind },
        ExpressionAttributeValues: { ':entity': 'redditCursor', ':community': communityId, ':v': newest },
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}
