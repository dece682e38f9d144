import { describe, expect, it } from 'vitest';
import { COMMUNITY_TYPES } from '#shared/platforms/names';
import { PLATFORMS } from '#shared/platforms/registry';
import { POLL_SCHEDULES, polledPlatforms } from '#shared/platforms/pollSchedules';

describe('the poll schedule table', () => {
  it("holds each platform's own schedule: its ingest's, and none for a platform that is not polled", () => {
    for (const type of COMMUNITY_TYPES) {
      const ingest = PLATFORMS[type].ingest;
      expect(POLL_SCHEDULES[type], type).toBe(ingest.kind === 'poll' ? ingest.schedule : null);
    }
    expect(polledPlatforms().map(([type]) => type)).toEqual(['reddit', 'x']);
  });

  it("queues an operator poll exactly where the platform's ingest has one", () => {
    for (const [type, schedule] of polledPlatforms()) {
      const ingest = PLATFORMS[type].ingest;
      expect(ingest.kind, type).toBe('poll');
      if (ingest.kind === 'poll') expect(schedule.operatorPoll, type).toBe(ingest.operator !== undefined);
      expect(schedule.shardSize, type).toBeGreaterThan(0);
    }
  });
});
