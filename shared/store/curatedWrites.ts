/**
 * Writes of the curated dataset (the seed and imports, offline tooling in bin/curated): shards changed
 * under their version so concurrent imports never lose each other's profiles, facet copies as plain
 * overwrites, the seed's packs and marker. What goes into a copy or a fund's portfolio the domain
 * decides (shared/domain/curated/copies.ts); this module stores it.
 */
import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { queryAll, type QueryInput } from './query';
import { gzipSync } from 'node:zlib';
import { bulkPut, deleteAll, getMany, putAll } from './batch';
import { ddb, isConditionFailure, table } from './client';
import {
  CURATED_LAYOUT,
  decodeEntries,
  facetCopies,
  facetPacks,
  facetRemovals,
  FAST,
  FIRST_SHARDED_LAYOUT,
  type Item,
  SHARD_BUDGET_BYTES,
  seedMarkers,
  type SeedMarker,
  type ShardEntry,
  shardEntriesOf,
  shardItem,
  shards,
} from './curatedItems';
import { forgetCachedFacets } from './curatedReads';
import {
  CURATED_FACET_PREFIX,
  curatedFacetPacksFrom,
  curatedFacetPartition,
  curatedPartitionsLeftBy,
  curatedSeedMarkerKey,
  curatedShardKey,
  curatedShardOf,
  everyCuratedShardKey,
} from './keys';
import { isCancelledTransaction } from './transactions';
import type { CuratedEntity, EntityKind } from '#shared/domain/curated/model';

const SHARD_WRITE_ATTEMPTS = 12;
const pause = (attempt: number) =>
  new Promise((r) => setTimeout(r, 5 + Math.random() * Math.min(10 * 2 ** attempt, 300)));

/**
 * Changes one shard: reads it (strongly consistent), lets `change` edit its entries, and writes it
 * back only while its version is the one read (or, for a shard not yet stored, while it still is
 * not), so two imports touching one shard never lose each other's profiles: the one that lost the
 * race reads the shard again and applies its change to what the other wrote. `change` returns false
 * when there is nothing to write.
 */
async function updateShard(
  kind: EntityKind,
  shard: number,
  change: (entries: Map<string, ShardEntry>) => boolean | undefined | Promise<boolean | undefined>,
): Promise<void> {
  const key = curatedShardKey(kind, shard);
  for (let attempt = 1; ; attempt++) {
    const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: key, ConsistentRead: true }));
    const stored = shards.maybe(Item);
    const entries = stored ? decodeEntries(stored.data) : new Map<string, ShardEntry>();
    if ((await change(entries)) === false) return;
    try {
      await ddb().send(
        new PutCommand({
          TableName: table(),
          Item: shardItem(kind, shard, entries),
          ...(stored
            ? { ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': stored.version } }
            : { ConditionExpression: 'attribute_not_exists(pk)' }),
        }),
      );
      return;
    } catch (err) {
      if (!isConditionFailure(err) || attempt >= SHARD_WRITE_ATTEMPTS) throw err;
      await pause(attempt);
    }
  }
}

/** Runs `work` on every element, `concurrency` at a time. */
async function eachLimited<T>(list: T[], concurrency: number, work: (element: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < list.length) await work(list[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, list.length) }, worker));
}

/** Entities grouped by the shard that holds their profile. */
function byShard<T extends { kind: EntityKind; id: string }>(
  list: T[],
): { kind: EntityKind; shard: number; members: T[] }[] {
  const groups = new Map<string, { kind: EntityKind; shard: number; members: T[] }>();
  for (const e of list) {
    const shard = curatedShardOf(e.kind, e.id);
    const key = `${e.kind}#${shard}`;
    const group = groups.get(key);
    if (group) group.members.push(e);
    else groups.set(key, { kind: e.kind, shard, members: [e] });
  }
  return [...groups.values()];
}

/**
 * Changes the stored profile of one entity under its shard's version: `change` gets what is stored
 * (undefined when nothing is) and answers the new entry, or undefined to leave the shard as it is. It
 * may run again when another writer changed the shard meanwhile.
 */
export async function changeCuratedEntry(
  kind: EntityKind,
  id: string,
  change: (stored: ShardEntry | undefined) => Promise<ShardEntry | undefined>,
): Promise<void> {
  await updateShard(kind, curatedShardOf(kind, id), async (entries) => {
    const next = await change(entries.get(id));
    if (!next) return false;
    entries.set(id, next);
    return true;
  });
}

/**
 * Stores these entities' profiles (an import): each shard they fall in is changed once, under its
 * version. A fund's portfolio is left to refreshPortfolios (shared/domain/curated/funds.ts), once the import is stored.
 */
export async function putCuratedEntities(entities: CuratedEntity[]): Promise<void> {
  await eachLimited(byShard(entities), 8, ({ kind, shard, members }) =>
    updateShard(kind, shard, (entries) => {
      for (const entity of members) entries.set(entity.id, { entity });
      return true;
    }),
  );
}

/**
 * Writes a seed's shards: created in transactions of up to 100 where no shard is stored yet (the
 * first start: DynamoDB Local commits a transaction once, a batch item by item); a group meeting a
 * stored shard (a re-seed, or imported profiles) has each of its shards merged under its version, so
 * a re-seed keeps the profiles imported beside the generated ones.
 */
async function putSeedShards(items: Item[], onProgress: (written: number) => void): Promise<void> {
  const groups: Item[][] = [];
  for (let i = 0; i < items.length; i += 100) groups.push(items.slice(i, i + 100));
  let written = 0;
  await eachLimited(groups, 2, async (group) => {
    try {
      await ddb().send(
        new TransactWriteCommand({
          TransactItems: group.map((Item) => ({
            Put: { TableName: table(), Item, ConditionExpression: 'attribute_not_exists(pk)' },
          })),
        }),
      );
    } catch (err) {
      if (!isCancelledTransaction(err)) throw err;
      await eachLimited(group, 4, async (item) => {
        const seeded = shardEntriesOf(item);
        const [{ entity: member }] = seeded.values();
        await updateShard(member.kind, curatedShardOf(member.kind, member.id), (entries) => {
          for (const [id, entry] of seeded) entries.set(id, entry);
          return true;
        });
      });
    }
    written += group.length;
    onProgress(written);
  });
}

/**
 * The profiles stored beside a seed's (imported ones): every shard of every kind, read once (about
 * ten BatchGetItems), less the seeded ids.
 */
async function profilesBeside(seeded: Item[]): Promise<CuratedEntity[]> {
  const seededIds = new Set(
    seeded.flatMap((item) => [...shardEntriesOf(item).values()].map(({ entity }) => `${entity.kind}#${entity.id}`)),
  );
  const stored = await getMany(everyCuratedShardKey(), { consistent: true, maxAttempts: 9 });
  return stored.flatMap((item) =>
    [...shardEntriesOf(item).values()].flatMap(({ entity }) =>
      seededIds.has(`${entity.kind}#${entity.id}`) ? [] : [entity],
    ),
  );
}

// ---- Facet and lookup items ------------------------------------------------------------------------

/** One copy of an entity under one facet value (a sector, an ecosystem, a lookup bucket). */
export interface FacetEntry {
  facet: string;
  value: string;
  kind: EntityKind;
  id: string;
  data: unknown;
}
const facetItem = (e: FacetEntry): Item => facetCopies.item({ ...e, data: JSON.stringify(e.data) });
/** The items of these copies written one by one (an import: each takes precedence over a seed pack's). */
export const facetCopyItems = (entries: FacetEntry[]): Item[] => entries.map(facetItem);
/** Marks an entity as gone from a facet value, hiding a copy a seed pack still holds. */
const facetRemovedItem = (key: { pk: string; sk: string }): Item =>
  facetRemovals.item({ pk: key.pk, sk: key.sk, data: '{}' });
/**
 * The JSON a pack holds before it is gzipped: copies of generated records compress five to seven times,
 * so a pack stays well under DynamoDB's 400 KB item limit (checked as it is built).
 */
const FACET_PACK_BYTES = 1_000_000;
/**
 * The items of a whole dataset (the seed): the profiles in their shards, then the facet copies packed
 * into few items per facet value.
 */
export function packCuratedItems(profiles: ShardEntry[], copies: FacetEntry[], packBytes = FACET_PACK_BYTES): Item[] {
  const shardItems = byShard(profiles.map((p) => ({ kind: p.entity.kind, id: p.entity.id, profile: p }))).map(
    ({ kind, shard, members }) => shardItem(kind, shard, new Map(members.map((m) => [m.id, m.profile]))),
  );
  const byPartition = new Map<string, FacetEntry[]>();
  for (const e of copies) {
    const pk = curatedFacetPartition(e.facet, e.value);
    // Appended in place: copying the list on every entry was quadratic (seconds of garbage collection on the seed).
    const entries = byPartition.get(pk);
    if (entries) entries.push(e);
    else byPartition.set(pk, [e]);
  }
  const packs: Item[] = [];
  for (const entries of byPartition.values()) {
    const { facet, value } = entries[0];
    let [texts, bytes, index] = [[] as string[], 0, 0];
    const flush = () => {
      if (!texts.length) return;
      const data = gzipSync(`[${texts.join(',')}]`, FAST);
      if (data.byteLength > SHARD_BUDGET_BYTES)
        throw new Error(`A pack of ${facet} ${value} would hold ${data.byteLength} bytes, over ${SHARD_BUDGET_BYTES}`);
      packs.push(facetPacks.item({ facet, value, index: index++, data }));
      [texts, bytes] = [[], 0];
    };
    for (const entry of entries) {
      const text = JSON.stringify(entry.data);
      const size = Buffer.byteLength(text);
      if (bytes + size > packBytes) flush();
      texts.push(text);
      bytes += size + 1;
    }
    flush();
  }
  return [...shardItems, ...packs];
}

/**
 * Writes facet and lookup items in batches of 25, `concurrency` batches at a time, retrying
 * unprocessed items with backoff. They are plain overwrites (the same entity written twice gives the same items).
 */
export async function putCuratedItems(
  items: Item[],
  options: { concurrency?: number; onProgress?: (written: number) => void } = {},
): Promise<void> {
  await bulkPut(items, { concurrency: options.concurrency ?? 12, onProgress: options.onProgress });
}

/**
 * Removes index items an entity no longer has (after an import replaced it). A facet copy is replaced
 * by a removal marker instead, as a seed pack may hold a copy too.
 */
export async function deleteCuratedKeys(keys: { pk: string; sk: string }[]): Promise<void> {
  const isFacet = (k: { pk: string }) => k.pk.startsWith(CURATED_FACET_PREFIX);
  await putAll(keys.filter(isFacet).map(facetRemovedItem));
  await deleteAll(keys.filter((k) => !isFacet(k)));
}

/** Deletes what one Query finds (read for its keys only), but for the sort keys `keep` names. */
async function deleteFound(query: QueryInput, keep: (sk: string) => boolean = () => false): Promise<void> {
  const stored = await queryAll({ ...query, ProjectionExpression: 'pk, sk' });
  await deleteAll(stored.filter((i) => !keep(i.sk as string)).map((i) => ({ pk: i.pk as string, sk: i.sk as string })));
}

/**
 * After a re-seed, packs beyond the ones just written (a larger earlier dataset) are removed. Only the
 * sort keys past the last pack written are queried: DynamoDB Local reads whole items even for a
 * projection, and reading back every pack just written cost a first start seconds.
 */
async function deleteOutgrownPacks(written: Item[]): Promise<void> {
  const packsByPartition = new Map<string, Set<string>>();
  for (const item of written)
    if (item.entity === facetPacks.name)
      packsByPartition.set(item.pk, (packsByPartition.get(item.pk) ?? new Set()).add(item.sk));
  await eachLimited([...packsByPartition], 8, async ([pk, kept]) => {
    const after = curatedFacetPacksFrom(kept.size);
    await deleteFound(
      {
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': pk, ':from': after.from, ':to': after.to },
      },
      (sk) => kept.has(sk),
    );
  });
}

/**
 * Empties the partitions the stored layout wrote that this one neither writes nor reads (keys.ts names
 * them): each is queried once for its keys and what it holds is deleted, packs, copies and removal markers alike.
 */
async function deletePartitionsLeftBy(layout: number): Promise<void> {
  await eachLimited([...curatedPartitionsLeftBy(layout)], 8, (pk) =>
    deleteFound({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } }),
  );
}

/**
 * Writes the items of a whole dataset (packedCuratedItems): the facet packs, then the shards (merged
 * into any stored ones), then removes packs a larger earlier dataset left and, over an earlier layout
 * of shards, the partitions only that layout wrote, and forgets the facets this process cached.
 */
export async function writePackedCuratedItems(
  items: Item[],
  options: { concurrency?: number; onProgress?: (written: number) => void } = {},
): Promise<{ carried: CuratedEntity[] }> {
  const everSeeded = (await ddb().send(new GetCommand({ TableName: table(), Key: curatedSeedMarkerKey() }))).Item;
  const seededLayout = seedMarkers.maybe(everSeeded)?.marker.layout;
  const shardItems = items.filter((i) => i.entity === shards.name);
  const others = items.filter((i) => i.entity !== shards.name);
  let packsWritten = 0;
  await putCuratedItems(others, {
    ...options,
    onProgress: (written) => {
      packsWritten = written;
      options.onProgress?.(written);
    },
  });
  await putSeedShards(shardItems, (written) => options.onProgress?.(packsWritten + written));
  // Profiles imported under an earlier layout of shards stay in them, but their copies under this layout's
  // facets were never written: the caller writes them from the profiles answered (`carried`). A table of
  // layout 5 or earlier has no shard: its imports are made again (docs/operations.md).
  const upgraded =
    seededLayout !== undefined && seededLayout >= FIRST_SHARDED_LAYOUT && seededLayout !== CURATED_LAYOUT;
  const carried = upgraded ? await profilesBeside(shardItems) : [];
  // What the earlier layout alone wrote (layout 6's people lookups of references) would stay unread for good.
  if (upgraded) await deletePartitionsLeftBy(seededLayout);
  // A table never seeded (a first start) has no pack to outgrow: a Query per facet partition saved.
  if (everSeeded) await deleteOutgrownPacks(items);
  forgetCachedFacets();
  return { carried };
}

export async function putSeedMarker(marker: SeedMarker): Promise<void> {
  await ddb().send(new PutCommand({ TableName: table(), Item: seedMarkers.item({ marker }) }));
}
