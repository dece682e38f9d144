import type { CommunityType } from './communityTypes';

/** Communities per shard of a platform that polls them one by one (each its own requests). */
export const DEFAULT_SHARD_SIZE = 10;

/**
 * Subreddits per shard, all read by one pair of listings (new posts, new comments): two requests a
 * minute serve up to this many quiet subreddits; a busy shard pages further.
 */
export const REDDIT_SUBREDDITS_PER_SHARD = 50;

export interface PollSchedule {
  /** Communities per queued shard. */
  shardSize: number;
  /** The platform also polls once a minute for the whole deployment (Reddit's inbox, where activations arrive). */
  operatorPoll: boolean;
}

/**
 * How the minute schedule queues each polled platform's communities: data apart from the platform
 * modules, so the function that only queues the shards carries none of their code. Every platform
 * whose ingest is `poll` has a row, and `operatorPoll` says whether its ingest has `operator`
 * (test/domain/moderation/pollSchedule.test.ts holds the two to each other).
 */
export const POLL_SCHEDULES: ReadonlyMap<CommunityType, PollSchedule> = new Map<CommunityType, PollSchedule>([
  ['reddit', { shardSize: REDDIT_SUBREDDITS_PER_SHARD, operatorPoll: true }],
  ['x', { shardSize: DEFAULT_SHARD_SIZE, operatorPoll: false }],
]);
