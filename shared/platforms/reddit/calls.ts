/**
 * What each moderation outcome becomes on Reddit, as data. Reddit has no mute: ours is a removal plus
 * a record (`MUTE`, applied when the delivery runs, so it lasts from then) that makes the poller remove
 * the author's later items until it ends. Warnings are a reply from the bot, distinguished as a
 * moderator's (`WARN`: the comment, then the distinguish of the comment Reddit created). Nothing here
 * performs a call; send.ts turns each planned call into a request.
 */
import { cutText } from '#shared/graphemes';
import type { PenaltyAction } from '#shared/domain/moderation/actions';
import type { PlannedCall } from '#shared/store/platformCallsRepo';

/** How long our mute lasts (as on Telegram). */
export const REDDIT_MUTE_SECONDS = 60 * 60;
/** Reddit caps a ban reason at 100 characters and a modmail subject at 100. */
const REASON_CHARS = 100;

/** Where a decision applies on Reddit: the item (post or comment), its subreddit and author. */
export interface RedditTarget {
  communityId: string;
  subreddit: string;
  /** The item's fullname (t3_..., t1_...): also the engine's event id. */
  fullname: string;
  author: string;
  /** When the item was written (ISO): a mute removes the author's items from here on. */
  writtenAt: string;
  /** The engine's rule and reason (the spam flag of a removal, a ban's reason). */
  rule: string;
  reason: string;
}

/**
 * Removals Reddit's spam filter should learn from: every detector signal says spam except those about
 * how a message is written (capital letters, emoji), whose removals are plain.
 */
const NOT_SPAM_SIGNALS = new Set(['shouting', 'emoji_flood']);
const isSpam = (rule: string) => !NOT_SPAM_SIGNALS.has(rule);

export type RedditCallMethod = 'POST' | 'REMOVE' | 'UNBAN' | 'WARN' | 'MUTE' | 'UNMUTE';

const post = (route: string, body: Record<string, string>): PlannedCall => ({
  platform: 'reddit',
  method: 'POST',
  route,
  body,
});

/** REMOVE: a removal that looks at the item again first when its delivery has waited (send.ts). */
export const redditRemove = (t: Pick<RedditTarget, 'fullname'>, spam: boolean): PlannedCall => ({
  platform: 'reddit',
  method: 'REMOVE',
  route: '/api/remove',
  body: { id: t.fullname, spam: String(spam) },
});
const approve = (fullname: string) => post('/api/approve', { id: fullname });
/** Timed: the runner gives it its end at send time, and skips it once the hour after the item has passed. */
const mute = (t: RedditTarget, seconds: number): PlannedCall => ({
  platform: 'reddit',
  method: 'MUTE',
  body: { community_id: t.communityId, username: t.author, from: t.writtenAt, seconds },
  timed: { seconds, from: t.writtenAt },
});

export const REDDIT_DECISION_CALLS: Record<
  PenaltyAction,
  (t: RedditTarget, text: { warning: string }) => PlannedCall[]
> = {
  delete: (t) => [redditRemove(t, isSpam(t.rule))],
  warn: (t, text) => [
    {
      platform: 'reddit',
      method: 'WARN',
      route: '/api/comment',
      body: { thing_id: t.fullname, text: text.warning },
      once: true,
    },
  ],
  mute: (t) => [redditRemove(t, isSpam(t.rule)), mute(t, REDDIT_MUTE_SECONDS)],
  // Permanent (no duration); the ban reason is what moderators see in the ban list, the note says it is ours.
  ban: (t) => [
    post(`/r/${t.subreddit}/api/friend`, {
      type: 'banned',
      name: t.author,
      ban_reason: cutText(t.reason, REASON_CHARS),
      note: ourBanNote(t.fullname),
    }),
    redditRemove(t, true),
  ],
};

/**
 * The note our ban carries: Reddit shows it in the subreddit's ban list, and an undo lifts a ban only
 * while the list still shows it (a moderator who banned the account again since placed a ban of their own).
 */
export const ourBanNote = (fullname: string) => `Banned by the moderation service for ${fullname}`.slice(0, 300);

/** A later item of a muted author: removed, nothing else. */
export const redditMutedItemCalls = (t: Pick<RedditTarget, 'fullname'>): PlannedCall[] => [redditRemove(t, false)];

/** Undo: a ban is lifted, a mute ended, and the removed item approved again. A warning stays. */
export const REDDIT_UNDO_CALLS: Record<
  'delete' | 'mute' | 'ban',
  (subreddit: string, communityId: string, username: string, fullname: string) => PlannedCall[]
> = {
  delete: (_s, _c, _u, fullname) => [approve(fullname)],
  mute: (_s, communityId, username, fullname) => [
    { platform: 'reddit', method: 'UNMUTE', body: { community_id: communityId, username } },
    approve(fullname),
  ],
  // UNBAN: the unfriend, sent only while the ban is still ours (send.ts).
  ban: (subreddit, _c, username, fullname) => [
    {
      platform: 'reddit',
      method: 'UNBAN',
      route: `/r/${subreddit}/api/unfriend`,
      body: { type: 'banned', name: username, subreddit, note: ourBanNote(fullname) },
    },
    approve(fullname),
  ],
};

/** An alert to the subreddit's moderators: a new modmail conversation among them. */
export const redditAlertCall = (subreddit: string, alert: string): PlannedCall => ({
  ...post('/api/mod/conversations', {
    srName: subreddit,
    subject: cutText(alert, REASON_CHARS),
    body: alert,
    isAuthorHidden: 'false',
  }),
  once: true,
});

/** Answers to the bot's private messages (activation), as a reply to the message. */
export const redditReply = (parentFullname: string, text: string): PlannedCall =>
  post('/api/comment', { thing_id: parentFullname, text });
