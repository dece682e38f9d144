/**
 * Activation on Reddit is a private message to the operator's bot: `/activate <token> r/<subreddit>`,
 * sent by a moderator of that subreddit after inviting the bot as a moderator. Once a minute (and on
 * POST /sync of a Reddit community) the bot reads its unread messages, checks the sender against the
 * subreddit's moderator list, accepts the invitation, binds the subreddit and answers the message;
 * every message read is marked read, so it is handled once.
 */
import { now } from '#shared/adapters/ports';
import { logger } from '#shared/observability/logger';
import { getCommunity } from '#shared/store/communitiesRepo';
import { boundCommunity } from '#shared/store/bindingsRepo';
import { claimActivationReply, markActivationReplySent, releaseActivationReply } from './activationRepliesRepo';
import { claimRedditRefusalReply, releaseRedditRefusalReply } from './refusalRepliesRepo';
import { UNPAID_ACTIVATION } from '#shared/platforms/unpaidActivation';
import { isTransient, type CallOutcome } from '#shared/platforms/result';
import type { RedditBot } from './client';
import { subredditKey, type RedditListing } from './listing';
import { POLL_RESERVE } from './readListing';
import type { ModerationCore, PollCause } from '#shared/platforms/contract';

/** `/activate <token> r/<name>`; subreddit names are 3-21 letters, digits and underscores (a few old ones 2). */
const ACTIVATE = /^\/activate\s+(\S+)\s+\/?r\/([A-Za-z0-9_]{2,21})\/?$/i;
/** A message meant as one (`/activate <token>` alone, as on Telegram and Crisp): answered with the form to send. */
const ACTIVATE_ATTEMPT = /^\/activate\b/i;

/**
 * At most one refusal (of any kind) per sender in this many seconds: each reply spends the budget the
 * whole deployment polls and acts from, and anyone on Reddit can message the bot.
 */
export const REFUSAL_REPLY_INTERVAL_SECONDS = 600;

/**
 * A message written in Reddit's rich-text editor arrives as the markdown it made, which escapes
 * punctuation (`r/acme\_sub`, a token's `\-`): a backslash before ASCII punctuation stands for that
 * character, as markdown reads it. Tokens and subreddit names hold no backslash of their own.
 */
const unescapeMarkdown = (text: string) => text.replace(/\\([!-/:-@[-`{-~])/g, '$1');

/**
 * `owed`: another read is sending this message's confirmation; `later`: this read already checked one of
 * the sender's messages on Reddit. Either way the message stays unread for a later read.
 */
export type ActivationResult = 'activated' | 'refused' | 'ignored' | 'retry' | 'owed' | 'later';

export interface InboxReport {
  read: number;
  activated: number;
  refused: number;
  /** Why the inbox could not be read (a rate limit, Reddit's trouble), if it could not. */
  error?: string;
}

const REPLIES = {
  badForm:
    'To turn moderation on, send `/activate <token> r/<subreddit>`: the activation token of your community, then the subreddit to moderate.',
  badToken:
    'That activation token is not valid. Copy it from the community in the moderation API and send `/activate <token> r/<subreddit>` again.',
  notModerator: (sub: string) => `Only a moderator of r/${sub} can turn moderation on there.`,
  takenByOther: (sub: string) =>
    `r/${sub} is already moderated by another community of this service. Its owner must delete that community first.`,
  noInvite: (sub: string, bot: string) =>
    `Invite u/${bot} as a moderator of r/${sub} (permissions: Manage Posts & Comments, Manage Users, Manage Mod Mail), then send this message again.`,
  activated: (sub: string) => `Moderation is on for r/${sub}. New posts and comments are checked every minute.`,
  suspended: (sub: string) => UNPAID_ACTIVATION.suspended(`r/${sub}`),
  expired: UNPAID_ACTIVATION.expired,
};

interface PrivateMessage {
  name: string;
  author: string;
  body: string;
}

/**
 * `cause`: a read asked for by POST /sync of a community awaiting activation keeps the share of the
 * deployment's budget a sync's poll keeps (readListing.ts), or syncing many such communities in a loop
 * would spend what the schedule needs; the minute's read then finds the message.
 */
export async function readRedditInbox(
  bot: RedditBot,
  core: ModerationCore,
  cause: PollCause = 'schedule',
): Promise<InboxReport> {
  const report: InboxReport = { read: 0, activated: 0, refused: 0 };
  const unread = await bot.api.get('/message/unread', { limit: '100' }, cause === 'sync' ? POLL_RESERVE.sync : {});
  if (!unread.ok) {
    // As a failed listing read (poll.ts): activations wait unread, and nothing else says so.
    logger.warn('reddit poll: inbox read failed', { status: unread.status, error: unread.error });
    return { ...report, error: unread.error };
  }
  const children = (unread.result as Partial<RedditListing> | null)?.data?.children ?? [];
  // Replies to the bot's comments and mentions carry nothing to act on: marked read with the messages, or
  // they would fill the unread listing, a page of which is all one read looks at.
  const others = children
    .filter((c) => c.kind !== 't4' && typeof c.data?.name === 'string')
    .map((c) => String(c.data.name));
  const messages: PrivateMessage[] = children
    .filter((c) => c.kind === 't4' && typeof c.data?.name === 'string')
    .map((c) => ({
      name: c.data.name,
      author: String(c.data.author ?? ''),
      body: String((c.data as { body?: unknown }).body ?? ''),
    }));
  const done: string[] = [...others];
  // Senders whose message this read has checked on Reddit (the subreddit's moderators, ...): a sender's
  // others wait for the next read, so one account sending the bot a pile of messages costs a request or
  // two a minute, not two a message.
  const checked = new Set<string>();
  for (const message of messages) {
    const result = await activateFrom(core, bot, message, checked);
    // A message met with a rate limit stays unread and is read again next time.
    if (result === 'retry') break;
    if (result === 'owed' || result === 'later') continue;
    done.push(message.name);
    if (result === 'activated') report.activated += 1;
    if (result === 'refused') report.refused += 1;
  }
  if (done.length) {
    // Outside the inbox's fair share: a read stopped by that share still marks what it handled, or the
    // next read would spend the share on the same messages again.
    const marked = await bot.api.post('/api/read_message', { id: done.join(',') }, { fair: false });
    if (!marked.ok) report.error = marked.error;
  }
  report.read = done.length - others.length;
  return report;
}

async function activateFrom(
  core: ModerationCore,
  bot: RedditBot,
  message: PrivateMessage,
  checked: Set<string>,
): Promise<ActivationResult> {
  const reply = async (text: string, result: ActivationResult): Promise<ActivationResult> => {
    const sent = await bot.api.post('/api/comment', { thing_id: message.name, text });
    return !sent.ok && isTransient(sent) ? 'retry' : result;
  };
  // A typo or a missing invitation is told at once; an account sending such messages over and over is
  // not answered each time, whatever the refusal.
  const refuseOnce = async (text: string): Promise<ActivationResult> => {
    const at = now();
    if (!(await claimRedditRefusalReply(message.author, at, REFUSAL_REPLY_INTERVAL_SECONDS))) return 'refused';
    const refused = await reply(text, 'refused');
    // Unsent, the message stays unread: its next read answers it.
    if (refused === 'retry') await releaseRedditRefusalReply(message.author, at);
    return refused;
  };
  const body = unescapeMarkdown(message.body).trim();
  const command = ACTIVATE.exec(body);
  if (!command) return ACTIVATE_ATTEMPT.test(body) ? refuseOnce(REPLIES.badForm) : 'ignored';
  const [, token, subreddit] = command;
  const community = await core.communityOfToken(token, 'reddit');
  const use = { role: 'moderated', place: subredditKey(subreddit) } as const;
  // A token spent on another subreddit reads like an unknown one.
  if (!community || !core.tokenMayDo(community, use)) return refuseOnce(REPLIES.badToken);
  // Before the bot accepts an invitation to moderate a subreddit it would never serve.
  if (community.billingState === 'expired') return refuseOnce(REPLIES.expired);

  const sender = message.author.toLowerCase();
  if (checked.has(sender)) return 'later';
  checked.add(sender);
  const moderators = await bot.api.get(`/r/${subreddit}/about/moderators`);
  if (!moderators.ok) return isTransient(moderators) ? 'retry' : refuseOnce(REPLIES.notModerator(subreddit));
  const names = moderatorNames(moderators);
  if (!names.has(sender)) return refuseOnce(REPLIES.notModerator(subreddit));

  // Checked before the invitation is accepted (binding checks again, and frees a place a deleted or expired community held).
  const holder = await boundCommunity('reddit', subredditKey(subreddit));
  const holderLives =
    holder && holder.communityId !== community.id ? await getCommunity(holder.userId, holder.communityId) : undefined;
  if (holderLives && holderLives.billingState !== 'expired') return refuseOnce(REPLIES.takenByOther(subreddit));

  const accepted = await bot.api.post(`/r/${subreddit}/api/accept_moderator_invite`, {});
  // Already a moderator (activating again, or invited and accepted by hand) is as good as an accepted invitation.
  if (!accepted.ok) {
    if (isTransient(accepted)) return 'retry';
    // The list read above may predate an acceptance made meanwhile (the minute's inbox read and a POST /sync
    // handling the same message), so "no invite" is believed only once a fresh list lacks the bot too.
    if (!names.has(bot.username.toLowerCase()) && !(await botModerates(bot, subreddit)))
      return refuseOnce(REPLIES.noInvite(subreddit, bot.username));
  }
  // Subreddit names are case-insensitive: one spelling binds.
  const bound = await core.bindWithToken(community, token, use);
  if (bound !== 'bound') return refuseOnce(bound === 'taken' ? REPLIES.takenByOther(subreddit) : REPLIES.badToken);
  await core.markCommunityActivated(community, token);
  // Both reads of a message read at once get this far: the one that claims the reply sends it. The
  // message is marked read only once the reply went out, so a read that stops before sending it owes
  // nothing lost: its claim lapses and a later read of the unread message sends it.
  const claim = await claimActivationReply(community.id, message.name, now().getTime());
  if (claim === 'sent') return 'activated';
  if (claim === 'held') return 'owed';
  const confirmed = await reply(
    community.billingState === 'suspended' ? REPLIES.suspended(subreddit) : REPLIES.activated(subreddit),
    'activated',
  );
  if (confirmed === 'retry') await releaseActivationReply(community.id, message.name);
  else await markActivationReplySent(community.id, message.name);
  return confirmed;
}

async function botModerates(bot: RedditBot, subreddit: string): Promise<boolean> {
  const fresh = await bot.api.get(`/r/${subreddit}/about/moderators`);
  return fresh.ok && moderatorNames(fresh).has(bot.username.toLowerCase());
}

/** `{kind: "UserList", data: {children: [{name}]}}`, lower-cased. */
function moderatorNames(outcome: Extract<CallOutcome, { ok: true }>): Set<string> {
  const children = (outcome.result as { data?: { children?: { name?: unknown }[] } } | null)?.data?.children;
  return new Set(
    (Array.isArray(children) ? children : [])
      .map((c) => c?.name)
      .filter((n): n is string => typeof n === 'string')
      .map((n) => n.toLowerCase()),
  );
}
