/**
 * Where reading a subreddit's listings got to: the newest post (t3) and comment (t1) already read, as
 * the numeric value of their base-36 ids (Reddit ids grow with time). The cursor only moves forward,
 * so two overlapping polls never move it back over items one of them has not read.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { getMany } from './batch';
import { ddb, isConditionFailure, table } from './client';
import { defineEntity } from './entity';
import { redditCursorKey } from './keys';

export type RedditListingKind = 't3' | 't1';
export type RedditCursor = Partial<Record<RedditListingKind, number>>;

const cursors = defineEntity<RedditCursor & { communityId: string }>()({
  name: 'redditCursor',
  key: (c: { communityId: string }) => redditCursorKey(c.communityId),
});

/** The cursors of several communities (absent: never read). */
export async function readRedditCursors(communityIds: string[]): Promise<Map<string, RedditCursor>> {
  const items = await getMany([...new Set(communityIds)].map(redditCursorKey), { consistent: true });
  const found = new Map<string, RedditCursor>();
  for (const item of items) {
    const { communityId, t3, t1 } = cursors.fromItem(item);
    found.set(communityId, {
      ...(typeof t3 === 'number' ? { t3 } : {}),
      ...(typeof t1 === 'number' ? { t1 } : {}),
    });
  }
  return found;
}

export async function advanceRedditCursor(communityId: string, kind: RedditListingKind, newest: number): Promise<void> {
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: redditCursorKey(communityId),
        ...cursors.update({
          // An upsert: the first advance creates the cursor.
          set: { entity: cursors.name, communityId, ...(kind === 't3' ? { t3: newest } : { t1: newest }) },
          condition: {
            expression: 'attribute_not_exists(#kind) OR #kind < :newest',
            names: { '#kind': kind },
            values: { ':newest': newest },
          },
        }),
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}
