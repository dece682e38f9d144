/**
 * Where reading a subreddit's listings got to: the newest post (t3) and comment (t1) already read, as
 * the numeric value of their base-36 ids (Reddit ids grow with time), and when each last moved. The
 * cursor only moves forward, so two overlapping polls never move it back over items one of them has
 * not read.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { getMany } from '#shared/store/batch';
import { ddb, table, writeIfCondition } from '#shared/store/client';
import { defineEntity } from '#shared/store/entity';
import { redditCursorKey } from '#shared/store/keys';

export type RedditListingKind = 't3' | 't1';
/** Per listing: the id read down to, and when it last moved (epoch ms; absent on cursors from before it was kept). */
export type RedditCursor = Partial<Record<RedditListingKind, { id: number; movedAt?: number }>>;

/** Stored flat: `t3`/`t1` the ids, `t3At`/`t1At` when each moved. */
type StoredCursor = Partial<Record<RedditListingKind | `${RedditListingKind}At`, number>>;
const cursors = defineEntity<StoredCursor & { communityId: string }>()({
  name: 'redditCursor',
  key: (c: { communityId: string }) => redditCursorKey(c.communityId),
});

/** The cursors of several communities (absent: never read). */
export async function readRedditCursors(communityIds: string[]): Promise<Map<string, RedditCursor>> {
  const items = await getMany([...new Set(communityIds)].map(redditCursorKey), { consistent: true });
  const found = new Map<string, RedditCursor>();
  const listing = (id: unknown, movedAt: unknown) =>
    typeof id === 'number' ? { id, ...(typeof movedAt === 'number' ? { movedAt } : {}) } : undefined;
  for (const item of items) {
    const { communityId, t3, t1, t3At, t1At } = cursors.fromItem(item);
    const [posts, comments] = [listing(t3, t3At), listing(t1, t1At)];
    found.set(communityId, { ...(posts ? { t3: posts } : {}), ...(comments ? { t1: comments } : {}) });
  }
  return found;
}

export async function advanceRedditCursor(
  communityId: string,
  kind: RedditListingKind,
  newest: number,
  atMs: number,
): Promise<void> {
  // A cursor already past `newest` stays where it is.
  await writeIfCondition(() =>
    ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: redditCursorKey(communityId),
        ...cursors.update({
          // An upsert: the first advance creates the cursor.
          set: {
            entity: cursors.name,
            communityId,
            ...(kind === 't3' ? { t3: newest, t3At: atMs } : { t1: newest, t1At: atMs }),
          },
          condition: {
            expression: 'attribute_not_exists(#kind) OR #kind < :newest',
            names: { '#kind': kind },
            values: { ':newest': newest },
          },
        }),
      }),
    ),
  );
}
