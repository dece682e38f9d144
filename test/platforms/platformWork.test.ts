import { describe, expect, it } from 'vitest';
import { parsePlatformMessage } from '#shared/domain/moderation/platformWorker';
import { platformWorkSweeps } from '#shared/domain/moderation/platformWorkSweeps';
import { COMMUNITY_TYPES } from '#shared/platforms/names';
import { PLATFORM_WORK, PLATFORMS } from '#shared/platforms/registry';

describe("the platforms' own queued work", () => {
  it('is found by its message kind, each kind one platform declares (Discord: the AutoMod sync)', () => {
    const declared = COMMUNITY_TYPES.flatMap((type) => (PLATFORMS[type].work ? [PLATFORMS[type].work.kind] : []));
    expect(declared).toEqual(['moderation.automod_sync']);
    expect([...PLATFORM_WORK.keys()]).toEqual(declared);
    expect(PLATFORM_WORK.get('moderation.automod_sync')).toBe(PLATFORMS.discord.work);
  });

  it("is read off the queue in the message's shape, and only for a kind a platform declares", () => {
    const sync = { kind: 'moderation.automod_sync', user_id: 'u1', community_id: 'c1' };
    expect(parsePlatformMessage(JSON.stringify(sync))).toEqual(sync);
    expect(parsePlatformMessage(JSON.stringify({ ...sync, kind: 'moderation.other' }))).toBeUndefined();
    expect(parsePlatformMessage(JSON.stringify({ kind: sync.kind, user_id: 'u1' }))).toBeUndefined();
    // The core's own messages are read as before.
    const deliver = { kind: 'moderation.deliver', community_id: 'c1', delivery_id: 'd1' };
    expect(parsePlatformMessage(JSON.stringify(deliver))).toEqual(deliver);
  });

  it("gives the renewals function one sweep per work, under the work's name", () => {
    expect(Object.keys(platformWorkSweeps())).toEqual(['automod_syncs']);
  });
});
