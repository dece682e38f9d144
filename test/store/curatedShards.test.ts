import { beforeAll, describe, expect, it, vi } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { importCuratedRecords } from '#bin/curated/importer';
import { seedCuratedDataset } from '#bin/curated/seed';
import { getCuratedEntity } from '#shared/store/curatedReads';
import { shardEntriesOf } from '#shared/store/curatedItems';
import type { CuratedKol } from '#shared/domain/curated/model';
import { ddb, table } from '#shared/store/client';
import { curatedShardKey, curatedShardOf } from '#shared/store/keys';
import { useOwnTable } from '#test/support/ownTable';

/*
 * Profiles live in shards (many profiles to an item): writers read a shard, change it and write it
 * back under its version. On a table of its own, as it re-seeds.
 */
beforeAll(async () => {
  await useOwnTable('outreach-shards');
});

const kolLine = (id: string, name: string) =>
  JSON.stringify({
    kind: 'kol',
    id,
    name,
    handle: name.replace(/\W/g, ''),
    platform: 'x',
    followers: 10,
    gmScore: 10,
    smarts: 1,
    xBioLabel: 'builder',
    xBioReason: 'ships',
    sectors: ['defi'],
  });

/** Two KOL ids whose profiles share a shard. */
function idsInOneShard(prefix: string): [string, string] {
  const first = `kol-${prefix}-0`;
  const shard = curatedShardOf('kol', first);
  for (let i = 1; ; i++) {
    const id = `kol-${prefix}-${i}`;
    if (curatedShardOf('kol', id) === shard) return [first, id];
  }
}

/** Holds every strongly consistent read of `pk` until `count` of them have been sent: the writers then race. */
function readsMeetAt(pk: string, count: number) {
  const client = ddb();
  const send = client.send.bind(client);
  let arrived = 0;
  let release: () => void = () => undefined;
  const met = new Promise<void>((resolve) => (release = resolve));
  const spy = vi.spyOn(client, 'send').mockImplementation((async (command: {
    constructor: { name: string };
    input: { Key?: { pk?: string }; ConsistentRead?: boolean };
  }) => {
    if (command.constructor.name === 'GetCommand' && command.input.Key?.pk === pk && arrived < count) {
      const result = await send(command as never);
      if (++arrived === count) release();
      await met;
      return result;
    }
    return send(command as never);
  }) as never);
  return { restore: () => spy.mockRestore(), reads: () => arrived };
}

describe('curated shards', () => {
  it('two imports touching one shard at once both keep their profile: the one that lost the race reads the shard again', {
    timeout: 60_000,
  }, async () => {
    const [a, b] = idsInOneShard('race');
    const pk = curatedShardKey('kol', curatedShardOf('kol', a)).pk;
    const race = readsMeetAt(pk, 2);
    try {
      const outcomes = await Promise.all([
        importCuratedRecords(kolLine(a, 'Race Ada')),
        importCuratedRecords(kolLine(b, 'Race Bo')),
      ]);
      expect(outcomes.map((o) => o.ok)).toEqual([true, true]);
    } finally {
      race.restore();
    }
    expect(race.reads()).toBe(2);
    expect((await getCuratedEntity<CuratedKol>('kol', a))?.name).toBe('Race Ada');
    expect((await getCuratedEntity<CuratedKol>('kol', b))?.name).toBe('Race Bo');
  });

  it('a re-seed merges into the stored shards: profiles imported beside the generated ones stay', {
    timeout: 60_000,
  }, async () => {
    expect((await importCuratedRecords(kolLine('kol-kept-by-reseed', 'Kept Kim'))).ok).toBe(true);
    await seedCuratedDataset({ scale: 0.01, force: true });
    expect((await getCuratedEntity<CuratedKol>('kol', 'kol-kept-by-reseed'))?.name).toBe('Kept Kim');
    const { Item } = await ddb().send(
      new GetCommand({ TableName: table(), Key: curatedShardKey('kol', curatedShardOf('kol', 'kol-kept-by-reseed')) }),
    );
    expect(shardEntriesOf(Item!).size).toBeGreaterThan(1);
  });
});
