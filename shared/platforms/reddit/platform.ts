/**
 * Reddit: the operator's bot account moderates the subreddits that invited it. Reddit pushes nothing,
 * so the bot's inbox (activations) and the bound subreddits' new posts and comments are polled every
 * minute (polling.ts), fifty subreddits to a pair of listings, inside one request budget shared by the
 * whole deployment; decisions become removals, distinguished warning replies, our own mutes, bans and
 * modmail alerts (reddit/calls.ts); undo approves the item again and lifts a ban or our mute.
 */
import { REDDIT_POLL_SCHEDULE } from './schedule';
import { UnprocessableError } from '#shared/domain/errors';
import { getPlatformRecord } from '#shared/store/platformRepo';
import { REDDIT_DECISION_CALLS, REDDIT_UNDO_CALLS, redditAlertCall, type RedditTarget } from './calls';
import { redditBot, redditBotFrom } from './client';
import { REDDIT_CREDENTIALS, type RedditCredentials } from './credentials';
import { readRedditInbox } from './inbox';
import { pollSubreddits } from './poll';
import { sendRedditCall } from './send';
import {
  definePlatform,
  type ModerationCore,
  type PollCause,
  type PollTarget,
  type UndoTarget,
} from '#shared/platforms/contract';

async function pollBatch(targets: PollTarget[], cause: PollCause, core: ModerationCore) {
  const bot = await redditBot();
  return bot
    ? pollSubreddits(
        bot,
        targets.map((t) => ({ community: t.community, subreddit: t.externalId })),
        core,
        cause,
      )
    : undefined;
}

/** The inbox's calls (reading it, checking moderators, replies) take the inbox's fair share of the budget. */
export const INBOX_CONSUMER = 'inbox';

async function pollInbox(cause: PollCause, core: ModerationCore) {
  const bot = await redditBot(INBOX_CONSUMER);
  return bot ? readRedditInbox(bot, core, cause) : undefined;
}

/**
 * The bot moderates every customer's subreddit and Reddit's approve takes an item's id alone: only an
 * item this community's own decision acted on (read from its subreddit by the poll) is approved again,
 * in the subreddit it was removed in (undo.ts refuses once another community moderates that one). An
 * entry from the events endpoint names whatever id its sender chose.
 */
const undoIn = (action: keyof typeof REDDIT_UNDO_CALLS) => (t: UndoTarget) => {
  if (!t.place) return undefined;
  if (!t.decision)
    throw new UnprocessableError(
      'invalid_state',
      'Only what the service did on Reddit itself can be undone there: this entry came in through the events endpoint.',
    );
  return REDDIT_UNDO_CALLS[action](t.place, t.communityId, t.userId, t.eventId);
};

export const reddit = definePlatform<RedditTarget, RedditCredentials>({
  type: 'reddit',
  credentials: REDDIT_CREDENTIALS,
  send: async (call, { credentials, communityId, endsAt, waited }) => {
    // A community's deliveries take from its own fair share of the deployment's budget.
    const bot = redditBotFrom(credentials, communityId);
    return bot ? sendRedditCall(bot.api, call, { endsAt, waited }) : 'not_configured';
  },
  ingest: {
    kind: 'poll',
    schedule: REDDIT_POLL_SCHEDULE,
    poll: async (community, cause, core) => {
      const { boundId } = await getPlatformRecord(community.id);
      return boundId ? pollBatch([{ community, externalId: boundId }], cause, core) : undefined;
    },
    batch: pollBatch,
    operator: pollInbox,
  },
  sync: 'poll',
  decisions: REDDIT_DECISION_CALLS,
  welcome: null,
  alert: (record, _target, text) => (record.boundId ? [redditAlertCall(record.boundId, text)] : []),
  // A warning reply stays (removing the bot's own reply would hide that the author was warned).
  undo: { delete: undoIn('delete'), warn: null, mute: undoIn('mute'), ban: undoIn('ban') },
  // Deliveries record their subreddit: a removal names only the item.
  actedIn: (decision) => decision.place,
  onRulesChanged: null,
  onMonitoringChanged: null,
  recordFields: { bound: 'boundId', alert: null },
  connectLink: null,
  forget: null,
  unsupported: [
    'Welcome messages: Reddit tells no one when someone joins a subreddit.',
    'Reddit has no mute: a mute removes the item and every later item of that author for an hour (the service removes them as it reads them, within a minute).',
    'Posts and comments are read once a minute (Reddit pushes nothing); items a human moderator approved are never touched.',
    'Edited posts and comments are not checked again.',
  ],
  work: null,
});
