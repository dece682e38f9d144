/** How the minute schedule polls X (its ingest's `schedule`, read by the poll fan-out through pollSchedules.ts). */
import { DEFAULT_SHARD_SIZE, type PollSchedule } from '#shared/platforms/contract';

/** Each account is read with its own requests; nothing is polled for the whole deployment. */
export const X_POLL_SCHEDULE: PollSchedule = { shardSize: DEFAULT_SHARD_SIZE, operatorPoll: false };
