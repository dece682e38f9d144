/** How the minute schedule polls Reddit (its ingest's `schedule`, read by the poll fan-out through pollSchedules.ts). */
import type { PollSchedule } from '#shared/platforms/contract';

/**
 * Subreddits per shard, all read by one pair of listings (new posts, new comments): two requests a
 * minute serve up to this many quiet subreddits; a busy shard pages further.
 */
export const REDDIT_SUBREDDITS_PER_SHARD = 50;

/** The inbox, where activations arrive, is read once a minute for the whole deployment (the ingest's `operator`). */
export const REDDIT_POLL_SCHEDULE: PollSchedule = { shardSize: REDDIT_SUBREDDITS_PER_SHARD, operatorPoll: true };
