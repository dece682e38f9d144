/**
 * Reddit as a polled platform: the bot's inbox once a minute (activations), and each shard of bound
 * subreddits as one batched poll. Without operator credentials nothing is read.
 */
import type { Poller } from '#shared/domain/moderation/polling';
import { logger } from '#shared/observability/logger';
import { redditBot } from './client';
import { readRedditInbox } from './inbox';
import { pollSubreddits } from './poll';

/**
 * Subreddits per shard, all read by one pair of listings (new posts, new comments): two requests a
 * minute serve up to this many quiet subreddits; a busy shard pages further.
 */
export const REDDIT_SUBREDDITS_PER_SHARD = 50;

export const redditPoller: Poller = {
  batchSize: REDDIT_SUBREDDITS_PER_SHARD,
  async pollOperator() {
    const bot = await redditBot();
    if (!bot) return undefined;
    const report = await readRedditInbox(bot);
    if (report.error) logger.warn('reddit inbox not read', { error: report.error });
    return report;
  },
  async pollCommunities(targets) {
    const bot = await redditBot();
    if (!bot) return undefined;
    const report = await pollSubreddits(bot, targets.map((t) => ({ community: t.community, subreddit: t.externalId })));
    if (report.error) logger.warn('reddit poll incomplete', { communities: report.communities, error: report.error });
    return report;
  },
};
