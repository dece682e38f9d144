/**
 * One listing (new posts or new comments) of a batch of subreddits, paged with `after` until it meets
 * what was read before (listing.ts). `complete` is false when a page failed (a rate limit, Reddit's
 * trouble): what was read is still moderated (the engine acts once per item), but the cursors stay,
 * so the next poll reads the rest.
 */
import type { RedditApi, RedditCallOptions } from './api';
import type { CallOutcome } from '#shared/platforms/result';
import type { PollCause } from '#shared/platforms/contract';
import {
  floorOf,
  idNumber,
  LISTING_PATH,
  MAX_PAGES,
  PAGE_LIMIT,
  readPage,
  type ListingKind,
  type RedditListing,
  type RedditThing,
  type SubredditState,
} from './listing';

export interface ListingRead {
  items: RedditThing[];
  /** The newest id of the listing (cursors move to it when the read is complete). */
  newest?: number;
  complete: boolean;
  pages: number;
  failure?: Extract<CallOutcome, { ok: false }>;
}

/**
 * What of the deployment's shared budget a poll leaves to others, by what started it: every poll leaves
 * room for the actions it causes; a caller's POST /sync runs only while half the window is left, so that
 * one account syncing many communities in a loop cannot spend what the schedule needs to poll everyone
 * else's (it is refused with the wait instead, and the schedule still polls every minute). Half of the
 * window as Reddit sizes it: a fixed count would be half of a 100-request window but a twelfth of the
 * 600 requests Reddit reports for its 10-minute window.
 */
export const POLL_RESERVE: Record<PollCause, Required<Omit<RedditCallOptions, 'fair'>>> = {
  schedule: { reserve: 10, keepShare: 0 },
  sync: { reserve: 10, keepShare: 0.5 },
};

export async function readListing(
  api: RedditApi,
  subs: Map<string, SubredditState>,
  kind: ListingKind,
  names: string[],
  reserve = POLL_RESERVE.schedule,
): Promise<ListingRead> {
  const read: ListingRead = { items: [], complete: false, pages: 0 };
  let after: string | null = null;
  while (read.pages < MAX_PAGES) {
    const outcome = await api.get(
      LISTING_PATH[kind](names),
      { limit: String(PAGE_LIMIT), ...(after ? { after } : {}) },
      reserve,
    );
    if (!outcome.ok) return { ...read, failure: outcome };
    read.pages += 1;
    const listing = outcome.result as Partial<RedditListing> | null;
    const children = Array.isArray(listing?.data?.children) ? listing.data.children : [];
    const page = readPage(children, subs, kind);
    read.items.push(...page.fresh);
    if (page.newest !== undefined && (read.newest === undefined || page.newest > read.newest))
      read.newest = page.newest;
    after = typeof listing?.data?.after === 'string' ? listing.data.after : null;
    // Reddit cuts a page before it leaves out what it will not show (deleted, filtered), so a page can
    // come back short or empty with more behind it: only `after` says whether there is a next page. The
    // cursor it names is itself a place in the listing: at or below what every subreddit has read, stop.
    if (page.reachedRead || !after || idNumber(after) <= (floorOf(subs) ?? -1)) break;
  }
  // Past MAX_PAGES Reddit would not answer anyway: the read counts as complete.
  read.complete = true;
  return read;
}
