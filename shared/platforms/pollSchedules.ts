/**
 * How the minute schedule queues each polled platform's communities: each platform's `schedule`
 * (declared in its folder's schedule.ts and carried by its ingest), by community type. A table of its
 * own rather than read from the platform modules, so that the function that only queues the shards
 * carries none of their code; keyed by the closed list of types, so a new platform does not compile
 * without its row (null: it is not polled). test/platforms/pollSchedules.test.ts holds each row to its
 * platform's ingest.
 */
import { COMMUNITY_TYPES, type CommunityType } from './names';
import type { PollSchedule } from './contract';
import { REDDIT_POLL_SCHEDULE } from '#shared/platforms/reddit/schedule';
import { X_POLL_SCHEDULE } from '#shared/platforms/x/schedule';

export const POLL_SCHEDULES: Readonly<Record<CommunityType, PollSchedule | null>> = {
  telegram: null,
  discord: null,
  reddit: REDDIT_POLL_SCHEDULE,
  x: X_POLL_SCHEDULE,
  crisp: null,
};

/** The polled platforms and their schedules, in the order of the community types. */
export const polledPlatforms = (): [CommunityType, PollSchedule][] =>
  COMMUNITY_TYPES.flatMap((type): [CommunityType, PollSchedule][] => {
    const schedule = POLL_SCHEDULES[type];
    return schedule ? [[type, schedule]] : [];
  });
