/**
 * The curated Web3 dataset in the single table, in few large items (DynamoDB Local writes items, not
 * bytes, slowly, and a first start writes the whole dataset). Profiles are packed into shards by a
 * hash of their id (keys.ts), compressed, so a profile is read by id with one GetItem of its shard.
 * Packages filter on facets (funds and KOLs by sector, prospects by interest, builders by ecosystem
 * and by category) whose partitions hold a copy of each entity, so every package query is one Query
 * and never a Scan. Lookups by a key other than the id read a lookup facet's bucket: companies by
 * domain and name and funds by name find references there, then the profiles in their shards; people
 * by employer, employer's name and LinkedIn URL find whole copies there (one Query, no shard). Facet
 * reads are cached for FACET_CACHE_MS in each process.
 */
import { randomUUID } from 'node:crypto';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { bulkPut, deleteAll, getMany, putAll, type ItemRead, type ItemsRead } from './batch';
import { ddb, isConditionFailure, table } from './client';
import { defineEntity, type StoredItem } from './entity';
import { queryAll } from './query';
import { isCancelledTransaction } from './transactions';
import {
  BUILDER_CATEGORY_FACET,
  companyLookupDomainBucket,
  companyLookupNameBucket,
  COMPANY_LOOKUP_FACET,
  curatedFacetKey,
  curatedFacetPackKey,
  curatedFacetPartition,
  curatedFacetPacksFrom,
  CURATED_FACET_PREFIX,
  curatedSeedMarkerKey,
  curatedShardKey,
  curatedShardOf,
  everyCuratedShardKey,
  FUND_LOOKUP_FACET,
  fundLookupNameBucket,
  PERSON_EMPLOYER_FACET,
  PERSON_LINKEDIN_FACET,
  PERSON_TEAM_FACET,
  personEmployerBucket,
  personLinkedinBucket,
  personTeamBucket,
} from './keys';
import type {
  CuratedBuilder,
  CuratedCompany,
  CuratedEntity,
  CuratedFund,
  CuratedKol,
  CuratedPerson,
  EntityKind,
} from '#shared/data/model';
import { DATASET_AS_OF, slugOf } from '#shared/data/model';
import { fundProfileStats, sectorRecord, type SectorRecord } from '#shared/data/fundStats';
import type { SectorId } from '#shared/data/taxonomy';
import { normaliseDomain } from '#shared/hostNames';
import { fundsConcerned, portfolioCompanyIds, portfolioOf, type PortfolioCompany } from '#shared/data/portfolio';

export type {
  CuratedBuilder,
  CuratedCompany,
  CuratedEntity,
  CuratedFund,
  CuratedKol,
  CuratedPerson,
} from '#shared/data/model';

/** A fund as its sector index holds it: the profile without rounds, plus its record in that sector. */
export type FundInSector = Omit<CuratedFund, 'rounds'> & {
  sectorRecord: SectorRecord;
  roundCount: number;
  leadCount: number;
  topCoInvestors: string[];
};

type Item = Record<string, unknown> & { pk: string; sk: string };
/** One stored item of the curated dataset, as the seed writes it. */
export type CuratedItem = Item;

// ---- Shards of profiles -----------------------------------------------------------------------

/** One profile in its shard: the entity, and for a fund the portfolio kept beside it (shared/data/portfolio.ts). */
export interface ShardEntry {
  entity: CuratedEntity;
  portfolio?: PortfolioCompany[];
}

/**
 * A shard: its profiles as gzipped JSON (about a seventh of the text, so a read of a shard costs about
 * what one profile item did) and the version its last writer gave it, which every write but the
 * first checks (another writer in between makes it read the shard again).
 */
const shards = defineEntity<{ version: string; data: Uint8Array }>()({
  name: 'curatedShard',
  key: (s: { kind: EntityKind; shard: number }) => curatedShardKey(s.kind, s.shard),
  keyOnly: ['kind', 'shard'],
});

/**
 * gzip's fastest level: a first start compresses about 75 MB of JSON while the JVM starts, and the
 * default level took twice as long for about a fifth less.
 */
const FAST = { level: constants.Z_BEST_SPEED };

/** A shard's compressed profiles stay well under DynamoDB's 400 KB item limit. */
const SHARD_BUDGET_BYTES = 300_000;

/**
 * The stored form of a shard's entries, as [id, entry] pairs (ids never become keys of a plain
 * object). Past the budget the funds' portfolios are left out: such funds' portfolios are read the long way.
 */
function encodeEntries(entries: Map<string, ShardEntry>): Uint8Array {
  const data = gzipSync(JSON.stringify([...entries]), FAST);
  if (data.byteLength <= SHARD_BUDGET_BYTES) return data;
  const bare = gzipSync(JSON.stringify([...entries].map(([id, { entity }]) => [id, { entity }])), FAST);
  if (bare.byteLength > SHARD_BUDGET_BYTES)
    throw new Error(`A curated shard would hold ${bare.byteLength} bytes, over its ${SHARD_BUDGET_BYTES}`);
  return bare;
}

const decodeEntries = (data: Uint8Array): Map<string, ShardEntry> =>
  new Map(JSON.parse(gunzipSync(data).toString('utf8')) as [string, ShardEntry][]);

/** The entries of a stored shard item (tests read the layout through it). */
export const shardEntriesOf = (item: StoredItem): Map<string, ShardEntry> => decodeEntries(shards.fromItem(item).data);

const shardItem = (kind: EntityKind, shard: number, entries: Map<string, ShardEntry>): Item =>
  shards.item({ kind, shard, version: randomUUID(), data: encodeEntries(entries) });

/** The shard key a profile is read by. */
const shardKeyOf = (kind: EntityKind, id: string) => curatedShardKey(kind, curatedShardOf(kind, id));

/** The profile `id` of a shard item, or undefined (no shard, or not in it). */
const entryIn = (item: StoredItem | undefined, id: string): ShardEntry | undefined =>
  item ? shardEntriesOf(item).get(id) : undefined;

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
 * Stores these entities' profiles (an import): each shard they fall in is changed once, under its
 * version. A fund's portfolio is left to refreshPortfolios, once the import is stored.
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

// ---- Facet copies -------------------------------------------------------------------------------

/** One entity's copy under one facet value, as JSON text. */
const facetCopies = defineEntity<{ data: string }>()({
  name: 'curatedFacet',
  key: (e: { facet: string; value: string; kind: EntityKind; id: string }) =>
    curatedFacetKey(e.facet, e.value, e.kind, e.id),
  keyOnly: ['facet', 'value', 'kind', 'id'],
});
/** Hides a copy a seed pack still holds (its data is always `{}`). */
const facetRemovals = defineEntity<{ data: string }>()({
  name: 'curatedFacetRemoved',
  key: (k: { pk: string; sk: string }) => k,
  keyOnly: ['pk', 'sk'],
});
/** Many entities' copies under one facet value (the seed): a JSON array, gzipped as the shards are. */
const facetPacks = defineEntity<{ data: Uint8Array }>()({
  name: 'curatedFacetPack',
  key: (p: { facet: string; value: string; index: number }) => curatedFacetPackKey(p.facet, p.value, p.index),
  keyOnly: ['facet', 'value', 'index'],
});

/**
 * The profile slug of a LinkedIn URL (`https://linkedin.com/in/ada-park-1a/` → `ada-park-1a`), or undefined.
 * Malformed percent-encoding (`%E0%A4%A`, from a customer's row) is kept as typed: it names no profile,
 * and must not throw (it failed every enrichment job carrying such a row).
 */
export function linkedinSlug(url: string): string | undefined {
  const match = /linkedin\.com\/in\/([^/?#]+)/i.exec(url.trim());
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]).toLowerCase();
  } catch {
    return match[1].toLowerCase();
  }
}

/** One copy of an entity under one facet value (a sector, an ecosystem, a lookup bucket). */
interface FacetEntry {
  facet: string;
  value: string;
  kind: EntityKind;
  id: string;
  data: unknown;
}
const facetItem = (e: FacetEntry): Item => facetCopies.item({ ...e, data: JSON.stringify(e.data) });
/** Marks an entity as gone from a facet value, hiding a copy a seed pack still holds. */
const facetRemovedItem = (key: { pk: string; sk: string }): Item =>
  facetRemovals.item({ pk: key.pk, sk: key.sk, data: '{}' });
/**
 * The JSON a pack holds before it is gzipped: copies of generated records compress five to seven times,
 * so a pack stays well under DynamoDB's 400 KB item limit (checked as it is built).
 */
const FACET_PACK_BYTES = 1_000_000;
/** The domain a company is found under (the lookup facet). */
const companyDomainKey = (company: Pick<CuratedCompany, 'domain'>) => normaliseDomain(company.domain) ?? company.domain;

/** A company or fund as its lookup facet holds it. */
export type CompanyRef = Pick<CuratedCompany, 'id' | 'name' | 'domain'>;
type NamedRef = CompanyRef;
/** The slug of the employer's name as a person records it (companies only; '' for a fund's people). */
const teamOf = (person: CuratedPerson): string =>
  person.organizationKind === 'company' ? slugOf(person.companyName) : '';

/** The copies of one entity its packages' facets and lookups hold. */
function facetEntriesFor(entity: CuratedEntity): FacetEntry[] {
  const entry = (facet: string, value: string, data: unknown): FacetEntry => ({
    facet,
    value,
    kind: entity.kind,
    id: entity.id,
    data,
  });
  switch (entity.kind) {
    case 'fund': {
      const { rounds, ...summary } = entity;
      const slug = slugOf(entity.name);
      const ref: NamedRef = { id: entity.id, name: entity.name, domain: entity.domain };
      return [
        ...entity.sectors.map((s) =>
          entry('FUND_SECTOR', s, {
            ...summary,
            roundCount: rounds.length,
            ...fundProfileStats(entity),
            sectorRecord: sectorRecord(entity, s, DATASET_AS_OF),
          }),
        ),
        ...(slug ? [entry(FUND_LOOKUP_FACET, fundLookupNameBucket(slug), ref)] : []),
      ];
    }
    case 'company': {
      const ref: CompanyRef = { id: entity.id, name: entity.name, domain: entity.domain };
      const buckets = new Set([
        companyLookupDomainBucket(companyDomainKey(entity)),
        companyLookupNameBucket(slugOf(entity.name)),
      ]);
      return [...buckets].map((bucket) => entry(COMPANY_LOOKUP_FACET, bucket, ref));
    }
    case 'person': {
      const team = teamOf(entity);
      const linkedin = entity.linkedinUrl ? linkedinSlug(entity.linkedinUrl) : undefined;
      return [
        ...entity.interests.map((s) => entry('PROSPECT_SECTOR', s, entity)),
        entry(PERSON_EMPLOYER_FACET, personEmployerBucket(entity.companyId), entity),
        ...(team ? [entry(PERSON_TEAM_FACET, personTeamBucket(team), entity)] : []),
        ...(linkedin ? [entry(PERSON_LINKEDIN_FACET, personLinkedinBucket(linkedin), entity)] : []),
      ];
    }
    case 'kol':
      return entity.sectors.map((s) => entry('KOL_SECTOR', s, entity));
    case 'builder':
      return [
        ...entity.ecosystems.map((e) => entry('BUILDER_ECOSYSTEM', e, entity)),
        entry(BUILDER_CATEGORY_FACET, entity.category, entity),
      ];
  }
}

/**
 * The facet and lookup items of one entity on its own (an import; its profile goes into its shard,
 * putCuratedEntities).
 */
export function curatedItemsFor(entity: CuratedEntity): Item[] {
  return facetEntriesFor(entity).map(facetItem);
}

/**
 * Rewrites the portfolio kept on every fund that writing `changed` (new and replaced versions of
 * entities, already stored) concerns, from what is stored now (strongly consistent reads). The fund's
 * shard is written under its version: another import that changed the shard meanwhile makes this one
 * read the fund and its portfolio again, and a fund's own data is never put back from an older read.
 * `known` saves reading the people's companies again.
 */
export async function refreshPortfolios(changed: CuratedEntity[], known: Map<string, CuratedEntity>): Promise<void> {
  const companiesOfPeople = changed.flatMap((e) =>
    e.kind === 'person' && e.organizationKind === 'company' && !known.has(e.companyId) ? [e.companyId] : [],
  );
  const at = new Map(known);
  for (const [id, company] of await getCuratedEntities('company', companiesOfPeople, { consistent: true }))
    at.set(id, company);
  for (const fundId of fundsConcerned(changed, (id) => at.get(id)))
    await updateShard('fund', curatedShardOf('fund', fundId), async (entries) => {
      const entity = entries.get(fundId)?.entity;
      if (entity?.kind !== 'fund') return false;
      entries.set(fundId, { entity, portfolio: await readPortfolio(entity, true) });
      return true;
    });
}

/** The portfolio of a fund from its stored companies and their contacts (two BatchGetItems of their shards). */
async function readPortfolio(fund: CuratedFund, consistent = false): Promise<PortfolioCompany[]> {
  const companies = await getCuratedEntities<CuratedCompany>('company', portfolioCompanyIds(fund), { consistent });
  const contacts = await getCuratedEntities<CuratedPerson>(
    'person',
    [...companies.values()].flatMap((c) => (c.primaryContactId ? [c.primaryContactId] : [])),
    { consistent },
  );
  return portfolioOf(fund, (id) => companies.get(id) ?? contacts.get(id));
}

/**
 * The items of a whole dataset (the seed): the profiles in their shards (a fund with its portfolio),
 * then the facet copies packed into few items per facet value.
 */
export function packedCuratedItems(entities: CuratedEntity[], packBytes = FACET_PACK_BYTES): Item[] {
  const byId = new Map(entities.map((e) => [e.id, e]));
  const entity = (id: string) => byId.get(id);
  const shardItems = byShard(entities).map(({ kind, shard, members }) =>
    shardItem(
      kind,
      shard,
      new Map(
        members.map((e) => [
          e.id,
          e.kind === 'fund' ? { entity: e, portfolio: portfolioOf(e, entity) } : { entity: e },
        ]),
      ),
    ),
  );
  const byPartition = new Map<string, FacetEntry[]>();
  for (const e of entities.flatMap(facetEntriesFor)) {
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
    const stored = await queryAll({
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': pk, ':from': after.from, ':to': after.to },
      ProjectionExpression: 'pk, sk',
    });
    await deleteAll(
      stored.filter((i) => !kept.has(i.sk as string)).map((i) => ({ pk: i.pk as string, sk: i.sk as string })),
    );
  });
}

/**
 * Writes the items of a whole dataset (packedCuratedItems): the facet packs, then the shards (merged
 * into any stored ones), then removes packs a larger earlier dataset left, and forgets the facets
 * this process cached.
 */
export async function writePackedCuratedItems(
  items: Item[],
  options: { concurrency?: number; onProgress?: (written: number) => void } = {},
): Promise<number> {
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
  // facets were never written: written now from the profiles (plain overwrites, as an import's). A table of
  // layout 5 or earlier has no shard: its imports are made again (docs/operations.md).
  if (seededLayout !== undefined && seededLayout >= FIRST_SHARDED_LAYOUT && seededLayout !== CURATED_LAYOUT)
    await putCuratedItems((await profilesBeside(shardItems)).flatMap(curatedItemsFor));
  // A table never seeded (a first start) has no pack to outgrow: a Query per facet partition saved.
  if (everSeeded) await deleteOutgrownPacks(items);
  forgetCachedFacets();
  return items.length;
}

// ---- Lookups by key ---------------------------------------------------------------------------

/** A profile by id: one GetItem of its shard. */
export async function getCuratedEntity<T extends CuratedEntity>(kind: T['kind'], id: string): Promise<T | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: shardKeyOf(kind, id) }));
  return entryIn(Item, id)?.entity as T | undefined;
}

/** A profile by id, for a readTogether with other items (undefined when missing). */
export const curatedEntityRead = <T extends CuratedEntity>(kind: T['kind'], id: string): ItemRead<T | undefined> => ({
  key: shardKeyOf(kind, id),
  decode: (item) => entryIn(item, id)?.entity as T | undefined,
});

/** The shard entries of these ids (BatchGetItem of their shards, 100 a request); missing ids are absent. */
async function getEntries(
  kind: EntityKind,
  ids: string[],
  options: { consistent?: boolean } = {},
): Promise<Map<string, ShardEntry>> {
  const wanted = new Set(ids);
  const keys = new Map([...wanted].map((id) => [shardKeyOf(kind, id).pk, shardKeyOf(kind, id)]));
  // Reference data: eventually consistent reads are enough (and half the cost), but for a write that depends on them.
  const items = await getMany([...keys.values()], { consistent: options.consistent ?? false, maxAttempts: 9 });
  const found = new Map<string, ShardEntry>();
  for (const item of items) for (const [id, entry] of shardEntriesOf(item)) if (wanted.has(id)) found.set(id, entry);
  return found;
}

/** Profiles by id (BatchGetItem of their shards, 100 a request); missing ids are absent from the map. */
export async function getCuratedEntities<T extends CuratedEntity>(
  kind: T['kind'],
  ids: string[],
  options: { consistent?: boolean } = {},
): Promise<Map<string, T>> {
  const entries = await getEntries(kind, ids, options);
  return new Map([...entries].map(([id, entry]) => [id, entry.entity as T]));
}

/** These ids' profiles in this order, leaving out the missing and those `still` rejects (a lookup read before an import). */
async function profilesInOrder<T extends CuratedEntity>(
  kind: T['kind'],
  ids: string[],
  still: (entity: T) => boolean,
): Promise<T[]> {
  if (!ids.length) return [];
  const found = await getCuratedEntities<T>(kind, ids);
  return ids.flatMap((id) => {
    const entity = found.get(id);
    return entity && still(entity) ? [entity] : [];
  });
}

/**
 * The company at a domain. Any URL or host form is accepted (`https://www.X.io/about` finds x.io), and
 * a subdomain falls back to its parent (`app.x.io` finds x.io). The lookup facet's bucket of the host
 * names the company (the first by id), its shard holds it.
 */
export async function getCompanyByDomain(domain: string): Promise<CuratedCompany | undefined> {
  for (const host of domainCandidates(domain)) {
    const ref = (await facet<CompanyRef>(COMPANY_LOOKUP_FACET, companyLookupDomainBucket(host))).find(
      (c) => companyDomainKey(c) === host,
    );
    if (!ref) continue;
    const [company] = await profilesInOrder<CuratedCompany>('company', [ref.id], (c) => companyDomainKey(c) === host);
    if (company) return company;
  }
  return undefined;
}

/** The hosts getCompanyByDomain tries for a domain, in order: the host, then its parents down to two labels. */
function domainCandidates(domain: string): string[] {
  const hosts: string[] = [];
  for (let host = normaliseDomain(domain); host; ) {
    hosts.push(host);
    const labels = host.split('.');
    host = labels.length > 2 ? normaliseDomain(labels.slice(1).join('.')) : undefined;
  }
  return hosts;
}

export interface CompanyLookup {
  /** The given domains the curated data knows a company at, as getCompanyByDomain finds one. */
  knownDomains(domains: string[]): Promise<Set<string>>;
  /** Each given name's curated company (the first by id among those of its slug), as findByName's first. */
  companiesByName(names: string[]): Promise<Map<string, CompanyRef>>;
}

/**
 * Companies by domain and by name for many keys at once (growth resolve): the lookup facet's buckets
 * the keys fall in, one Query each and each read once by this reader, so a thousand keys cost at most
 * COMPANY_LOOKUP_BUCKETS Queries instead of one a key. Not cached across readers: an import is seen at once.
 */
export function companyLookup(): CompanyLookup {
  const read = new Map<string, Promise<CompanyRef[]>>();
  const bucket = (value: string) => {
    const known = read.get(value);
    if (known) return known;
    const pk = curatedFacetPartition(COMPANY_LOOKUP_FACET, value);
    const members = queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } }).then(
      facetMembers<CompanyRef>,
    );
    read.set(value, members);
    return members;
  };
  const companiesIn = async (buckets: string[]) => (await Promise.all([...new Set(buckets)].map(bucket))).flat();
  return {
    async knownDomains(domains) {
      const candidates = new Map(domains.map((d) => [d, domainCandidates(d)]));
      const companies = await companiesIn([...candidates.values()].flat().map(companyLookupDomainBucket));
      const stored = new Set(companies.map(companyDomainKey));
      return new Set(domains.filter((d) => (candidates.get(d) ?? []).some((host) => stored.has(host))));
    },
    async companiesByName(names) {
      const slugs = new Map(names.map((n) => [n, slugOf(n)] as const).filter(([, slug]) => slug !== ''));
      const companies = await companiesIn([...slugs.values()].map(companyLookupNameBucket));
      const first = new Map<string, CompanyRef>();
      for (const c of companies) {
        const slug = slugOf(c.name);
        const kept = first.get(slug);
        if (!kept || c.id < kept.id) first.set(slug, c);
      }
      const found = new Map<string, CompanyRef>();
      for (const [name, slug] of slugs) {
        const hit = first.get(slug);
        if (hit !== undefined) found.set(name, hit);
      }
      return found;
    },
  };
}

/** Everyone working at a company (or a fund, by the fund's id), in id order: one bucket, no shard. */
export async function listPeopleByCompany(companyId: string): Promise<CuratedPerson[]> {
  const people = await facet<CuratedPerson>(PERSON_EMPLOYER_FACET, personEmployerBucket(companyId));
  return people.filter((p) => p.companyId === companyId);
}

/**
 * People whose employer has this name (any case and punctuation, as findByName), in the order of
 * their company's id, then theirs: what findByName then listPeopleByCompany of each company returns,
 * from one bucket. The name is the one on the person's record.
 */
export async function listPeopleByCompanyName(name: string): Promise<CuratedPerson[]> {
  const slug = slugOf(name);
  if (!slug) return [];
  const people = (await facet<CuratedPerson>(PERSON_TEAM_FACET, personTeamBucket(slug))).filter(
    (p) => teamOf(p) === slug,
  );
  const order = (p: CuratedPerson) => `${p.companyId}#${p.id}`;
  return people.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}

export async function getPersonByLinkedinUrl(url: string): Promise<CuratedPerson | undefined> {
  const slug = linkedinSlug(url);
  if (!slug) return undefined;
  return (await facet<CuratedPerson>(PERSON_LINKEDIN_FACET, personLinkedinBucket(slug))).find(
    (p) => !!p.linkedinUrl && linkedinSlug(p.linkedinUrl) === slug,
  );
}

/** The lookup facet of a kind's names and the bucket of a slug there. */
const NAME_LOOKUPS = {
  company: { facet: COMPANY_LOOKUP_FACET, bucket: companyLookupNameBucket },
  fund: { facet: FUND_LOOKUP_FACET, bucket: fundLookupNameBucket },
} as const;

/** Companies or funds whose name has this slug (`Nebula Labs`, `nebula-labs` and `NEBULA LABS` are one name), in id order. */
export async function findByName(
  kind: 'company' | 'fund',
  name: string,
): Promise<{ id: string; name: string; domain: string }[]> {
  const slug = slugOf(name);
  if (!slug) return [];
  const { facet: lookup, bucket } = NAME_LOOKUPS[kind];
  return (await facet<NamedRef>(lookup, bucket(slug)))
    .filter((r) => slugOf(r.name) === slug)
    .map(({ id, name, domain }) => ({ id, name, domain }));
}

/** The whole profiles of the funds or companies whose name has this slug, in id order. */
export async function profilesNamed<T extends CuratedFund | CuratedCompany>(
  kind: T['kind'],
  name: string,
): Promise<T[]> {
  const slug = slugOf(name);
  const named = await findByName(kind, name);
  return profilesInOrder<T>(
    kind,
    named.map((n) => n.id),
    (e) => slugOf(e.name) === slug,
  );
}

/** A fund found by name with its portfolio (shared/data/portfolio.ts). */
export interface FundWithPortfolio {
  fund: CuratedFund;
  portfolio: PortfolioCompany[];
}

/**
 * The funds whose name has this slug, each with its portfolio, read with the fund from its shard. A
 * fund without one (its shard over budget, or between an import's write and its refresh) or whose
 * portfolio misses one of its companies (an import racing another) has its companies and contacts read instead.
 */
export async function fundsNamedWithPortfolio(name: string): Promise<FundWithPortfolio[]> {
  const read = await fundsNamedRead(name);
  const found = new Map(
    (await getMany(read.keys, { consistent: false, maxAttempts: 9 })).map((item) => [item.pk, item] as const),
  );
  return read.decodeAll(read.keys.map((key) => found.get(key.pk)));
}

/**
 * What fundsNamedWithPortfolio reads once the name's lookup bucket is read: the named funds' shards,
 * as a read a caller may send in its own BatchGetItem (an execute sends it with the quote's token, so
 * the fund costs it no request of its own), decoded into the funds with their portfolios.
 */
export async function fundsNamedRead(name: string): Promise<ItemsRead<Promise<FundWithPortfolio[]>>> {
  const slug = slugOf(name);
  const ids = (await findByName('fund', name)).map((f) => f.id);
  const keys = [...new Map(ids.map((id) => [shardKeyOf('fund', id).pk, shardKeyOf('fund', id)])).values()];
  return {
    keys,
    decodeAll: (items) => {
      const entries = new Map<string, ShardEntry>();
      for (const item of items) if (item) for (const [id, entry] of shardEntriesOf(item)) entries.set(id, entry);
      const named = ids.flatMap((id) => {
        const entry = entries.get(id);
        return entry?.entity.kind === 'fund' && slugOf(entry.entity.name) === slug
          ? [{ fund: entry.entity, stored: entry.portfolio }]
          : [];
      });
      return Promise.all(
        named.map(async ({ fund, stored }) => {
          const storedIds = new Set(stored?.map((c) => c.id));
          const covers = stored && portfolioCompanyIds(fund).every((id) => storedIds.has(id));
          return { fund, portfolio: stored && covers ? stored : await readPortfolio(fund) };
        }),
      );
    },
  };
}

// ---- Facet queries (one Query each) ----------------------------------------------------------

/**
 * Facet partitions are read-mostly reference data shared by every user, so a warm Lambda keeps what it
 * read for a minute: repeated queries on a sector skip the Query and the JSON decoding. A seed or an
 * import reaches running functions within FACET_CACHE_MS.
 */
export const FACET_CACHE_MS = 60_000;
const facetCache = new Map<string, { at: number; value: Promise<unknown[]> }>();

/** Drops cached facet reads (after this process wrote curated data). */
export const forgetCachedFacets = (): void => facetCache.clear();

const facet = <T>(name: string, value: string): Promise<T[]> => {
  const pk = curatedFacetPartition(name, value);
  // By table too: a process may read two tables (the tests give some suites one of their own).
  const cacheKey = `${table()}\u0000${pk}`;
  const hit = facetCache.get(cacheKey);
  if (hit && Date.now() - hit.at < FACET_CACHE_MS) return hit.value as Promise<T[]>;
  const read = queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } }).then(
    facetMembers<T>,
  );
  facetCache.set(cacheKey, { at: Date.now(), value: read });
  read.catch(() => facetCache.delete(cacheKey));
  return read;
};

const unpack = <T>(data: Uint8Array): T[] => JSON.parse(gunzipSync(data).toString('utf8')) as T[];

/** The entities of one facet partition: seed packs, overridden by single-entity items and removal markers. */
function facetMembers<T>(items: StoredItem[]): T[] {
  const members = new Map<string, T>();
  // A pack whose data is text is an earlier layout's, outgrown (a re-seed removes it): not a member list any more.
  for (const item of items)
    if (item.entity === facetPacks.name && item.data instanceof Uint8Array)
      for (const e of unpack<T & { id: string }>(facetPacks.fromItem(item).data)) members.set(e.id, e);
  for (const item of items) {
    const id = String(item.sk).slice(String(item.sk).indexOf('#') + 1);
    if (item.entity === facetCopies.name) members.set(id, JSON.parse(facetCopies.fromItem(item).data) as T);
    else if (item.entity === facetRemovals.name) members.delete(id);
  }
  // In id order, as single-entity items (sort key KIND#id) always came back.
  return [...members.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, e]) => e);
}

export const listFundsInSector = (sector: SectorId): Promise<FundInSector[]> => facet('FUND_SECTOR', sector);
export const listKolsInSector = (sector: SectorId): Promise<CuratedKol[]> => facet('KOL_SECTOR', sector);
export const listProspectsInSector = (sector: SectorId): Promise<CuratedPerson[]> => facet('PROSPECT_SECTOR', sector);
export const listBuildersInEcosystem = (ecosystem: string): Promise<CuratedBuilder[]> =>
  facet('BUILDER_ECOSYSTEM', ecosystem);
export const listBuildersInCategory = (category: string): Promise<CuratedBuilder[]> =>
  facet(BUILDER_CATEGORY_FACET, category);

// ---- Seed marker ------------------------------------------------------------------------------

/**
 * How curated items are laid out. A database seeded under an earlier layout (2: packed facets, name
 * and LinkedIn lookups on gsi3; 3: the company lookup facet; 4: people by their employer's name on
 * gsi1; 5: funds carry their portfolio; 6: profiles in shards, lookups in lookup facets; 7: people's
 * lookups hold whole copies) is seeded again: the marker then reads as absent.
 */
export const CURATED_LAYOUT = 7;
/** The first layout keeping profiles in shards, which a re-seed keeps (the earlier ones' profile items it does not read). */
const FIRST_SHARDED_LAYOUT = 6;

export interface SeedMarker {
  layout: number;
  seed: number;
  scale: number;
  counts: Record<string, number>;
  items: number;
  seededAt: string;
}

/** The one item that says which dataset the table holds. */
const seedMarkers = defineEntity<{ marker: SeedMarker }>()({
  name: 'curatedSeed',
  key: () => curatedSeedMarkerKey(),
});

export async function getSeedMarker(): Promise<SeedMarker | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: curatedSeedMarkerKey() }));
  const marker = seedMarkers.maybe(Item)?.marker;
  return marker?.layout === CURATED_LAYOUT ? marker : undefined;
}

export async function putSeedMarker(marker: SeedMarker): Promise<void> {
  await ddb().send(new PutCommand({ TableName: table(), Item: seedMarkers.item({ marker }) }));
}
