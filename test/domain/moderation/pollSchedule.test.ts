import { describe, expect, it } from 'vitest';
import { COMMUNITY_TYPES } from '#shared/domain/moderation/communityTypes';
import { PLATFORMS } from '#shared/platforms/registry';
import { POLL_SCHEDULES } from '#shared/domain/moderation/pollSchedule';

describe('the poll schedule table', () => {
  it('has a row for exactly the platforms whose ingest is poll', () => {
    const polled = COMMUNITY_TYPES.filter((type) => PLATFORMS[type].ingest.kind === 'poll');
    expect([...POLL_SCHEDULES.keys()].sort()).toEqual([...polled].sort());
    expect(polled).toEqual(expect.arrayContaining(['reddit', 'x']));
  });

  it("queues an operator poll exactly where the platform's ingest has one", () => {
    for (const [type, schedule] of POLL_SCHEDULES) {
      const ingest = PLATFORMS[type].ingest;
      expect(ingest.kind, type).toBe('poll');
      if (ingest.kind === 'poll') expect(schedule.operatorPoll, type).toBe(ingest.operator !== undefined);
      expect(schedule.shardSize, type).toBeGreaterThan(0);
    }
  });
});
