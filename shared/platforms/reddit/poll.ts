/**
 * One poll of a batch of Reddit communities: new posts and new comments of all their subreddits in
 * two batched listings (paged as far as needed), each item through the engine as its community's
 * event (acted on once however often it is read), each decision planned as Reddit calls. Items of an
 * author under our mute are removed. Cursors move only after a complete read.
 */
import { getOrInsertComputed } from '#shared/maps';
import { now } from '#shared/adapters/ports';
import type { CommunityRecord } from '#shared/store/communitiesRepo';
import { advanceRedditCursor, readRedditCursors, type RedditCursor } from './cursorRepo';
import { activeRedditMutes, holdRedditMute, type RedditMute } from './mutesRepo';
import { logger } from '#shared/observability/logger';
import { recordMetric } from '#shared/observability/metrics';
import type { Decision } from '#shared/domain/moderation/engine';
import type { ModerationCore, PollCause } from '#shared/platforms/contract';
import type { RedditBot } from './client';
import {
  REDDIT_DECISION_CALLS,
  REDDIT_MUTE_SECONDS,
  redditAlertCall,
  redditMutedItemCalls,
  type RedditTarget,
} from './calls';
import { subredditKey, toChatEvent, type ListingKind, type RedditThing, type SubredditState } from './listing';
import { POLL_RESERVE, readListing } from './readListing';

/** A community to poll and its subreddit. */
export interface PolledSubreddit {
  community: CommunityRecord;
  subreddit: string;
}

export interface RedditPollReport {
  communities: number;
  requests: number;
  items: number;
  actions: number;
  complete: boolean;
  error?: string;
}

const KINDS: ListingKind[] = ['t3', 't1'];
const alertDeliveryId = (eventId: string) => `alert:${eventId}`;
const warningText = (decision: Decision) => `⚠️ ${decision.reason}. Please keep to this subreddit's rules.`;

/** `cause` sets how much of the deployment's request budget the poll leaves to others (readListing.ts). */
export async function pollSubreddits(
  bot: RedditBot,
  batch: PolledSubreddit[],
  core: ModerationCore,
  cause: PollCause = 'schedule',
): Promise<RedditPollReport> {
  const report: RedditPollReport = { communities: batch.length, requests: 0, items: 0, actions: 0, complete: true };
  if (!batch.length) return report;
  const cursors = await readRedditCursors(batch.map((b) => b.community.id));
  const bySub = new Map(batch.map((b) => [subredditKey(b.subreddit), b]));
  const names = batch.map((b) => b.subreddit);
  const items: RedditThing[] = [];
  const completed: { kind: ListingKind; newest: number }[] = [];
  for (const kind of KINDS) {
    const subs = new Map<string, SubredditState>(
      batch.map((b) => [subredditKey(b.subreddit), stateOf(core, b.community, cursors.get(b.community.id), kind)]),
    );
    const read = await readListing(bot.api, subs, kind, names, POLL_RESERVE[cause]);
    report.requests += read.pages + (read.failure ? 1 : 0);
    items.push(...read.items);
    if (read.complete && read.newest !== undefined) completed.push({ kind, newest: read.newest });
    if (!read.complete) {
      report.complete = false;
      report.error = read.failure?.error;
      // Polls never throw (polling.ts): this line is all that tells the operator the subreddits went
      // unread (revoked credentials, a spent budget, Reddit's trouble).
      const { status, error } = read.failure ?? {};
      logger.warn('reddit poll: listing read failed', { communities: batch.length, listing: kind, status, error });
      break;
    }
  }
  report.items = items.length;
  const byCommunity = new Map<string, { target: PolledSubreddit; things: RedditThing[] }>();
  for (const thing of items) {
    const target = bySub.get(subredditKey(thing.data.subreddit));
    if (!target) continue;
    getOrInsertComputed(byCommunity, target.community.id, () => ({ target, things: [] })).things.push(thing);
  }
  for (const { target, things } of byCommunity.values())
    report.actions += await moderateItems(core, bot, target, things);
  // Only now: everything read has been through the engine, so nothing up to the cursor is unread.
  for (const { kind, newest } of completed)
    await Promise.all(batch.map((b) => advanceRedditCursor(b.community.id, kind, newest, now().getTime())));
  recordMetric('PlatformPollRequests', report.requests, { platform: 'reddit' });
  recordMetric('PlatformPolledItems', report.items, { platform: 'reddit' });
  return report;
}

/**
 * A community paid again after a suspension reads nothing written before then (nothing was monitored),
 * and a cursor that has not moved since stands for reads from before the suspension: the batch's paging
 * is not taken back to it.
 */
function stateOf(
  core: ModerationCore,
  community: CommunityRecord,
  cursor: RedditCursor | undefined,
  kind: ListingKind,
): SubredditState {
  const resumed = core.resumedMs(community);
  const since = Math.floor(Math.max(Date.parse(community.activatedAt ?? community.createdAt), resumed ?? 0) / 1000);
  const read = cursor?.[kind];
  const current = read && (resumed === undefined || (read.movedAt ?? 0) >= resumed) ? read.id : undefined;
  return { ...(current !== undefined ? { cursor: current } : {}), since };
}

const isMuted = (mute: RedditMute | undefined, writtenAt: string) =>
  mute !== undefined && writtenAt >= mute.from && writtenAt < mute.until;

/** Oldest first, so the engine sees each author's items in the order they were written. */
async function moderateItems(
  core: ModerationCore,
  bot: RedditBot,
  polled: PolledSubreddit,
  things: RedditThing[],
): Promise<number> {
  const { community, subreddit } = polled;
  const events = things
    .sort((a, b) => a.data.created_utc - b.data.created_utc || a.data.name.localeCompare(b.data.name))
    .map((t) => toChatEvent(t, bot.username))
    .filter((e) => e !== undefined);
  if (!events.length) return 0;
  const [rules, mutes] = await Promise.all([
    core.rulesOf(community.id),
    activeRedditMutes(community.id, now().toISOString()),
  ]);
  const muteFrom = (username: string, from: string): RedditMute => ({
    username,
    from,
    until: new Date(Date.parse(from) + REDDIT_MUTE_SECONDS * 1000).toISOString(),
  });
  // The engine sees our mutes (an offence under one is a mute again) and tells of those it decides.
  const { decisions } = await core.moderateEvents(community, events, {
    mutes: {
      isMuted: (userId, sentAt) => isMuted(mutes.get(userId.toLowerCase()), sentAt),
      muted: (userId, sentAt) => mutes.set(userId.toLowerCase(), muteFrom(userId, sentAt)),
    },
  });
  const byId = new Map(events.map((e) => [e.event_id, e]));
  let actions = 0;
  for (const decision of decisions) {
    const event = byId.get(decision.event_id);
    if (!event) continue;
    const target: RedditTarget = {
      communityId: community.id,
      subreddit,
      fullname: event.event_id,
      author: event.user.id,
      writtenAt: event.sent_at,
      rule: decision.rule,
      reason: decision.reason,
    };
    const author = event.user.id.toLowerCase();
    const muted = isMuted(mutes.get(author), event.sent_at);
    // The mute this decision plans is applied when its delivery runs, which may wait out a rate limit:
    // it is in force from now, for the author's later items of this poll (decisions come oldest first)
    // and of the polls until then, or they would stay up, never to be read again.
    if (decision.action === 'mute') {
      const mute = muteFrom(event.user.id, event.sent_at);
      mutes.set(author, mute);
      if (!core.observes(rules)) await holdRedditMute(community.id, mute);
    }
    // A muted author's item is removed whatever the engine thought of it; a harsher decision stands.
    const calls =
      decision.action === 'allow' || (muted && decision.action === 'warn')
        ? muted
          ? redditMutedItemCalls(target)
          : []
        : REDDIT_DECISION_CALLS[decision.action](target, { warning: warningText(decision) });
    if (!calls.length) continue;
    actions += 1;
    const enforcingMute = decision.action === 'allow' || (muted && decision.action === 'warn');
    await core.scheduleDecision(rules, {
      communityId: community.id,
      userId: community.userId,
      deliveryId: core.decisionDeliveryId(decision.event_id),
      purpose: enforcingMute ? 'muted' : decision.action,
      eventId: decision.event_id,
      // An undo approves the item by its id alone: it checks the item is still in the bound subreddit.
      place: subreddit,
      calls,
    });
    if (decision.alert && decision.action !== 'allow') {
      await core.scheduleDecision(rules, {
        communityId: community.id,
        userId: community.userId,
        deliveryId: alertDeliveryId(decision.event_id),
        purpose: 'alert',
        eventId: decision.event_id,
        // Modmail of a subreddit the community has left since (another may hold it) is not sent.
        place: subreddit,
        calls: [redditAlertCall(subreddit, decision.alert)],
      });
    }
  }
  return actions;
}
