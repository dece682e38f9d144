import { describe, expect, it } from 'vitest';
import { uuidv7 } from '#shared/ids';
import {
  claimAutomodSync,
  listDueAutomodSyncs,
  recordAutomodSync,
  wantAutomodSync,
} from '#shared/platforms/discord/automodSyncsRepo';
import { getPlatformRecord } from '#shared/store/platformRepo';

const FAR = '9999-12-31T23:59:59.999Z';
const dueFor = async (communityId: string) =>
  (await listDueAutomodSyncs(FAR)).filter((d) => d.communityId === communityId);

describe('the index of wanted AutoMod syncs', () => {
  it('a sync that began before the latest request leaves it due; one that began after answers it', async () => {
    const community = uuidv7();
    await wantAutomodSync(community, 'owner-1', '2026-11-24T10:00:00.000Z', '2026-11-24T10:10:00.000Z');
    expect(await dueFor(community)).toEqual([
      { communityId: community, owner: 'owner-1', dueKey: `2026-11-24T10:10:00.000Z#${community}` },
    ]);

    // Began at 09:59, before the 10:00 request: it wrote older rules, so the request stays due.
    await recordAutomodSync(community, '2026-11-24T09:59:00.000Z', {
      automodSyncedAt: '2026-11-24T10:00:30.000Z',
      automodError: null,
    });
    expect(await dueFor(community)).toHaveLength(1);
    expect((await getPlatformRecord(community)).automodSyncedAt).toBe('2026-11-24T10:00:30.000Z');

    await recordAutomodSync(community, '2026-11-24T10:00:00.000Z', {
      automodSyncedAt: '2026-11-24T10:01:00.000Z',
      automodError: null,
    });
    expect(await dueFor(community)).toEqual([]);
  });

  it('two sweeps that saw the same due sync: only one claims it', async () => {
    const community = uuidv7();
    await wantAutomodSync(community, 'owner-2', '2026-11-24T10:00:00.000Z', '2026-11-24T10:10:00.000Z');
    const [seen] = await dueFor(community);
    const claims = await Promise.all([
      claimAutomodSync(community, seen.dueKey, '2026-11-24T10:21:00.000Z'),
      claimAutomodSync(community, seen.dueKey, '2026-11-24T10:21:00.001Z'),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect((await dueFor(community))[0].dueKey).not.toBe(seen.dueKey);
  });
});
