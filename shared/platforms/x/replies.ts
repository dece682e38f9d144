/**
 * Reading replies to a community's X account, the pure part: which search to send, how its pages move
 * the cursor, and how each reply becomes a chat event for the engine (the post id is the event id).
 * X's recent search answers newest first, `since_id` exclusive, `next_token` towards older posts.
 * The first search of a community reads the newest page only; later ones page down to `since_id`,
 * and a search with more pages than one poll reads is carried on by the next poll from its
 * `next_token` before `since_id` moves, so no reply in between is skipped.
 */
import type { XAnswer, XPost, XRequest } from './api';
import type { XPollCursor } from './xRepo';
import type { ChatEvent } from '#shared/domain/moderation/engine';

export const SEARCH_PAGE_SIZE = 100;
/**
 * Recent search covers the last seven days (https://docs.x.com/x-api/posts/search/introduction) and
 * answers a `since_id` older than that with 400 Invalid Request ("'since_id' must be a tweet id
 * created after ...", https://github.com/rooteco/tweetscape/issues/421). A quiet account's cursor
 * gets that old: past SINCE_ID_MAX_AGE_MS it is moved up to SINCE_ID_MOVED_AGE_MS ago, where it
 * stays sendable for the fifty minutes between them (a search paging from it can go on meanwhile).
 */
export const SINCE_ID_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000 - 10 * 60 * 1000;
export const SINCE_ID_MOVED_AGE_MS = 7 * 24 * 60 * 60 * 1000 - 60 * 60 * 1000;
/** Pages one poll reads at most (each is a billed read of up to 100 posts). */
export const MAX_PAGES_PER_POLL = 5;

/** X user names: 1 to 15 letters, digits or underscores (anything else could change the query). */
const USERNAME = /^[A-Za-z0-9_]{1,15}$/;
export const isXUsername = (name: string): boolean => USERNAME.test(name);

export function searchRequest(username: string, cursor: XPollCursor): XRequest {
  if (!isXUsername(username)) throw new Error('Not an X user name');
  const query: Record<string, string> = {
    query: `to:${username} is:reply -from:${username}`,
    max_results: String(SEARCH_PAGE_SIZE),
    expansions: 'author_id',
    'tweet.fields': 'author_id,created_at,conversation_id',
  };
  if (cursor.sinceId) query.since_id = cursor.sinceId;
  if (cursor.paging) query.next_token = cursor.paging.nextToken;
  return { method: 'GET', route: '/2/tweets/search/recent', query };
}

/**
 * The cursor of a community paid again at `resumedMs` after a suspension: replies written before then,
 * while nothing was monitored, are not read (a cursor from before the suspension starts there). A cursor
 * without since_id is the account's first search (an account connected since, or never answered), which
 * reads the newest page only: a since_id at a payment days before would page through every reply the
 * account had before it was connected here. Of that page, `writtenSince` leaves out the unpaid days'.
 */
export function resumedCursor(cursor: XPollCursor, resumedMs: number | undefined): XPollCursor {
  if (resumedMs === undefined || !cursor.sinceId) return cursor;
  if (/^\d{1,19}$/.test(cursor.sinceId) && snowflakeMs(cursor.sinceId) >= resumedMs) return cursor;
  return { sinceId: snowflakeAt(resumedMs) };
}

/** A reply written since a suspended community was paid again at `resumedMs` (any reply when never suspended). */
export const writtenSince = (postId: string, resumedMs: number | undefined): boolean =>
  resumedMs === undefined || compareIds(postId, snowflakeAt(resumedMs)) >= 0;

/**
 * The cursor as recent search accepts it: a `since_id` written longer than SINCE_ID_MAX_AGE_MS ago
 * becomes the id of SINCE_ID_MOVED_AGE_MS ago (X compares ids, and an id made from a time is how
 * clients turn a time into a since_id). Replies newer than the old id are newer than the new one too,
 * but for the hour at the window's edge (which a poll every minute has read already). A search that
 * was paging from the old since_id starts again from the newest page (its next_token belongs to a
 * query X would now refuse).
 */
export function searchableCursor(cursor: XPollCursor, nowMs: number): XPollCursor {
  if (!cursor.sinceId || !/^\d{1,19}$/.test(cursor.sinceId)) return cursor;
  if (snowflakeMs(cursor.sinceId) >= nowMs - SINCE_ID_MAX_AGE_MS) return cursor;
  return { sinceId: snowflakeAt(nowMs - SINCE_ID_MOVED_AGE_MS) };
}

/**
 * Where the cursor stands after one page. `more`: read another page in this poll. With no since_id
 * yet (the first search) one page is all: older replies were there before moderation began.
 */
export function afterPage(
  cursor: XPollCursor,
  page: XAnswer<XPost[]>,
  pagesRead: number,
): { cursor: XPollCursor; more: boolean } {
  const newestId = cursor.paging?.newestId ?? page.meta?.newest_id ?? cursor.sinceId;
  const nextToken = page.meta?.next_token;
  if (nextToken && cursor.sinceId && newestId) {
    const paging = { nextToken, newestId };
    return { cursor: { sinceId: cursor.sinceId, paging }, more: pagesRead < MAX_PAGES_PER_POLL };
  }
  return { cursor: newestId ? { sinceId: newestId } : {}, more: false };
}

/** The page's replies as chat events, oldest first (the order they were written in). */
export function repliesToEvents(page: XAnswer<XPost[]>): ChatEvent[] {
  const users = new Map((page.includes?.users ?? []).map((u) => [u.id, u.username]));
  return (page.data ?? [])
    .flatMap((post) => (post.id && post.author_id ? [{ ...post, author_id: post.author_id }] : []))
    .map((post): ChatEvent => {
      const username = users.get(post.author_id);
      return {
        event_id: post.id,
        type: 'message',
        user: { id: post.author_id, ...(username ? { username } : {}) },
        text: post.text ?? '',
        sent_at: post.created_at ?? snowflakeTime(post.id),
      };
    })
    .sort((a, b) => compareIds(a.event_id, b.event_id));
}

/** X's snowflakes carry their millisecond (since X's epoch, 2010-11-04) above bit 22. */
const X_EPOCH_MS = 1288834974657n;
/** The millisecond a snowflake was made (an id of digits). */
const snowflakeMs = (id: string): number => Number((BigInt(id) >> 22n) + X_EPOCH_MS);
/** The lowest id X could give a post written at `ms`. */
export const snowflakeAt = (ms: number): string => String((BigInt(Math.floor(ms)) - X_EPOCH_MS) << 22n);
const snowflakeTime = (id: string): string =>
  /^\d{1,20}$/.test(id) ? new Date(snowflakeMs(id)).toISOString() : new Date(0).toISOString();

/** Post ids are snowflakes: a longer one is newer, equal lengths compare as text. */
export const compareIds = (a: string, b: string): number =>
  a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
