/**
 * Reading Reddit's listings, the pure part: which listing to ask for, which items of a page are new,
 * when to stop paging, and what an item is to the engine. https://www.reddit.com/dev/api#listings
 *
 * Cursor: each subreddit remembers `cursor`, an id (base 36, growing with time) at or below which all
 * of its items have been read. One poll reads a batch of subreddits in one listing, newest first, and
 * pages with `after` until it meets an item at or below the lowest cursor of the batch, so a minute
 * with more than a page of new items is read in full; afterwards every subreddit of the batch has
 * been read down to there, so each cursor moves to the newest id of the listing (a quiet subreddit's
 * cursor moves with its busy neighbours and never drags the next poll back). Before any subreddit of
 * the batch has a cursor (only empty listings read so far), paging stops at the first item written
 * before the earliest activation of the batch instead.
 */
import type { ChatEvent } from '#shared/domain/moderation/engine';

/** The fields of a post (t3) or comment (t1) the service reads. */
export interface RedditThingData {
  name: string;
  id: string;
  author: string;
  subreddit: string;
  created_utc: number;
  title?: string;
  selftext?: string;
  body?: string;
  url?: string;
  is_self?: boolean;
  /** An image or video uploaded to Reddit (i.redd.it, v.redd.it): the post's url is the upload. */
  is_reddit_media_domain?: boolean;
  /** Images uploaded to Reddit as a gallery: the url is the gallery's page on reddit.com. */
  is_gallery?: boolean;
  permalink?: string;
  link_id?: string;
  /** The moderator who approved it: never touched again. */
  approved_by?: string | null;
  /** Set on a moderator's own distinguished item. */
  distinguished?: string | null;
  /** Set when a moderator (or Reddit) already removed it. */
  banned_by?: string | null;
}

export interface RedditThing {
  kind: string;
  data: RedditThingData;
}

export interface RedditListing {
  kind: 'Listing';
  data: { after: string | null; before?: string | null; children: RedditThing[] };
}

export type ListingKind = 't3' | 't1';
/** Reddit's largest page; a listing goes no deeper than about 1,000 items, so paging stops there too. */
export const PAGE_LIMIT = 100;
export const MAX_PAGES = 10;

export const LISTING_PATH: Record<ListingKind, (subreddits: string[]) => string> = {
  t3: (subs) => `/r/${subs.join('+')}/new`,
  t1: (subs) => `/r/${subs.join('+')}/comments`,
};

/** `t3_abc123` → the number abc123 stands for in base 36 (ids of seven or so digits fit a double exactly). */
export function idNumber(fullname: string): number {
  const id = fullname.includes('_') ? fullname.slice(fullname.indexOf('_') + 1) : fullname;
  return /^[0-9a-z]{1,10}$/.test(id) ? parseInt(id, 36) : Number.NaN;
}

export const subredditKey = (name: string) => name.replace(/^\/?r\//i, '').toLowerCase();

/** What the poller knows of one subreddit of the batch. */
export interface SubredditState {
  /** Everything at or below it was read; undefined before the first complete read. */
  cursor?: number;
  /** Unix seconds: items written before moderation began (activation, or a payment after a suspension) are left alone. */
  since: number;
}

export interface PageReading {
  /** Items of the batch's subreddits not read before, in the page's order. */
  fresh: RedditThing[];
  /** The page reached items every subreddit of the batch has read: no need for the next page. */
  reachedRead: boolean;
  /** The newest id on the page. */
  newest?: number;
}

/** The lowest cursor of the batch; undefined when no subreddit has one. */
export function floorOf(subs: Map<string, SubredditState>): number | undefined {
  let floor: number | undefined;
  for (const s of subs.values())
    if (s.cursor !== undefined && (floor === undefined || s.cursor < floor)) floor = s.cursor;
  return floor;
}

/** Unix seconds of the earliest activation of the batch. */
const earliestSince = (subs: Map<string, SubredditState>) => Math.min(...[...subs.values()].map((s) => s.since));

export function readPage(children: RedditThing[], subs: Map<string, SubredditState>, kind: ListingKind): PageReading {
  const floor = floorOf(subs);
  const since = floor === undefined ? earliestSince(subs) : undefined;
  const reading: PageReading = { fresh: [], reachedRead: false };
  for (const child of children) {
    if (child.kind !== kind || typeof child.data?.name !== 'string') continue;
    const id = idNumber(child.data.name);
    if (!Number.isFinite(id)) continue;
    if (reading.newest === undefined || id > reading.newest) reading.newest = id;
    if (floor !== undefined && id <= floor) reading.reachedRead = true;
    if (since !== undefined && typeof child.data.created_utc === 'number' && child.data.created_utc < since)
      reading.reachedRead = true;
    const sub = subs.get(subredditKey(child.data.subreddit ?? ''));
    if (!sub) continue;
    if (sub.cursor !== undefined && id <= sub.cursor) continue;
    if (typeof child.data.created_utc === 'number' && child.data.created_utc < sub.since) continue;
    reading.fresh.push(child);
  }
  return reading;
}

/**
 * A link post's url is a link its author shared; an image, video or gallery uploaded to Reddit has a
 * url too, but that is the post itself (checked as a link, every new member's photo would break the
 * link rule).
 */
const sharedLink = (d: RedditThingData) =>
  d.is_self === false && !d.is_reddit_media_domain && !d.is_gallery ? d.url : undefined;

/**
 * An item as the engine sees it, or undefined for items the service must leave alone: approved by a
 * human moderator, distinguished (a moderator speaking), already removed, by a deleted account, or
 * the operator's own bot (its warnings).
 */
export function toChatEvent(thing: RedditThing, botUsername: string | undefined): ChatEvent | undefined {
  const d = thing.data;
  if (d.approved_by || d.distinguished || d.banned_by) return undefined;
  if (!d.author || d.author === '[deleted]') return undefined;
  if (botUsername && d.author.toLowerCase() === botUsername.toLowerCase()) return undefined;
  const text = thing.kind === 't3' ? [d.title, d.selftext, sharedLink(d)].filter((p) => p).join('\n') : (d.body ?? '');
  return {
    event_id: d.name,
    type: 'message',
    user: { id: d.author, username: d.author },
    text,
    sent_at: new Date((typeof d.created_utc === 'number' ? d.created_utc : 0) * 1000).toISOString(),
  };
}
