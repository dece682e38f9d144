import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from './client';
import { intelligenceQueryKey, intelligenceResultKey, unlockMemoryKey } from './keys';
import { readTogether, type ItemRead, type ItemsRead } from './batch';
import type { TransactItem } from './transactions';
import { defineEntity } from './entity';

/** The intelligence side of a stored result: what was asked, and how far its ranking has been served. */
export interface IntelligenceResultRecord {
  resultId: string;
  userId: string;
  packageId: string;
  /** The execute result a chain of expansions started from (itself for an execute result). */
  rootResultId: string;
  parentResultId: string | null;
  expansionType: string | null;
  slots: Record<string, string | number>;
  outputFields: string[];
  /** Root results only: every record id served so far (execute and increase_limit), so no record repeats. */
  servedIds: string[];
  version: number;
  createdAt: string;
}

const results = defineEntity<IntelligenceResultRecord>()({
  name: 'intelligenceResult',
  key: (r: Pick<IntelligenceResultRecord, 'userId' | 'resultId'>) => intelligenceResultKey(r.userId, r.resultId),
  keep: ['ttl'],
});
/** The identical-query rule's pointer from a canonical query to its result. */
const identicalQueries = defineEntity<{ resultId: string; createdAt: string }>()({
  name: 'intelligenceQuery',
  key: (q: { userId: string; queryHash: string }) => intelligenceQueryKey(q.userId, q.queryHash),
  keyOnly: ['userId', 'queryHash'],
});
/** One bucket of unlock memory (or the single item of older accounts). */
const unlockMemories = defineEntity<{ version: number; tiers: Record<string, string> }>()({
  name: 'unlockMemory',
  key: (m: { userId: string; entityKind: string; bucket?: number }) =>
    unlockMemoryKey(m.userId, m.entityKind, m.bucket),
  keyOnly: ['userId', 'entityKind', 'bucket'],
});

export function putIntelligenceResultItem(record: IntelligenceResultRecord): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: results.item(record),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export async function getIntelligenceResult(
  userId: string,
  resultId: string,
): Promise<IntelligenceResultRecord | undefined> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: intelligenceResultKey(userId, resultId), ConsistentRead: true }),
  );
  return results.maybe(Item);
}

export const intelligenceResultRead = (
  userId: string,
  resultId: string,
): ItemRead<IntelligenceResultRecord | undefined> => ({
  key: intelligenceResultKey(userId, resultId),
  decode: results.maybe,
});

/** Records more served ids on a root result, if nobody else did since `expectedVersion`. */
export function extendServedIdsItem(
  userId: string,
  resultId: string,
  servedIds: string[],
  expectedVersion: number,
): TransactItem {
  return {
    Update: {
      TableName: table(),
      Key: intelligenceResultKey(userId, resultId),
      ...results.update({
        set: { servedIds, version: expectedVersion + 1 },
        condition: { expression: 'version = :expected', values: { ':expected': expectedVersion } },
      }),
    },
  };
}

/** The identical-query pointer; the condition makes the first result of a query the only one. */
export function putIdenticalQueryItem(
  userId: string,
  queryHash: string,
  resultId: string,
  createdAt: string,
): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: identicalQueries.item({ userId, queryHash, resultId, createdAt }),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export async function getIdenticalQueryResultId(userId: string, queryHash: string): Promise<string | undefined> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: intelligenceQueryKey(userId, queryHash), ConsistentRead: true }),
  );
  return identicalQueries.maybe(Item)?.resultId;
}

export const identicalQueryRead = (userId: string, queryHash: string): ItemRead<string | undefined> => ({
  key: intelligenceQueryKey(userId, queryHash),
  decode: (Item) => identicalQueries.maybe(Item)?.resultId,
});

/**
 * Contact tiers a user has unlocked, per entity of one kind. One item per kind would stop taking
 * unlocks at DynamoDB's 400 KB (some 7,000 entities), so the memory is spread over buckets by entity
 * id, and an operation reads and writes only the buckets of the entities it concerns.
 */
export interface UnlockMemory {
  /** The tier of each entity unlocked, among those asked for (and the others of their buckets). */
  tiers: Record<string, string>;
  /** Each bucket read: its version (0: not written yet) and entries, for a conditional write. */
  buckets: Map<number, { version: number; tiers: Record<string, string> }>;
}

/** 16 buckets of at most 400 KB: some 100,000 unlocked entities of one kind per user. */
const UNLOCK_BUCKETS = 16;

/** The bucket of an entity id: FNV-1a, stable across releases (it is where the entry is stored). */
function unlockBucket(entityId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < entityId.length; i++) hash = Math.imul(hash ^ entityId.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % UNLOCK_BUCKETS;
}

/** The memory of the entities `entityIds`, read with other items: their buckets and the single item of older accounts. */
export function unlockMemoryRead(
  userId: string,
  entityKind: string,
  entityIds: readonly string[],
): ItemsRead<UnlockMemory> {
  const buckets = [...new Set(entityIds.map(unlockBucket))].sort((a, b) => a - b);
  return {
    keys: [unlockMemoryKey(userId, entityKind), ...buckets.map((b) => unlockMemoryKey(userId, entityKind, b))],
    decodeAll: ([singleItem, ...items]) => {
      const single = unlockMemories.maybe(singleItem);
      const read = new Map(buckets.map((b, i) => [b, unlockMemories.maybe(items[i]) ?? { version: 0, tiers: {} }]));
      // A bucket's entry is written only to raise a tier, so it overrides the older single item's.
      const tiers: Record<string, string> = Object.assign(
        Object.create(null),
        single?.tiers ?? {},
        ...[...read.values()].map((b) => b.tiers),
      );
      return { tiers, buckets: read };
    },
  };
}

export async function getUnlockMemory(
  userId: string,
  entityKind: string,
  entityIds: readonly string[],
): Promise<UnlockMemory> {
  const [memory] = await readTogether([unlockMemoryRead(userId, entityKind, entityIds)] as const);
  return memory;
}

/**
 * The writes that record `next` (the memory after an unlock): each bucket with a changed entry is
 * replaced if it is still at the version read, so two unlocks at once cannot lose one another's.
 */
export function putUnlockMemoryItems(
  userId: string,
  entityKind: string,
  memory: UnlockMemory,
  next: Record<string, string>,
): TransactItem[] {
  const changed = new Map<number, Record<string, string>>();
  for (const [id, tier] of Object.entries(next)) {
    if (memory.tiers[id] === tier) continue;
    const bucket = unlockBucket(id);
    const read = memory.buckets.get(bucket);
    if (!read) throw new Error(`Unlock memory bucket ${bucket} of ${id} was not read`);
    changed.set(bucket, { ...(changed.get(bucket) ?? read.tiers), [id]: tier });
  }
  return [...changed].map(([bucket, tiers]) => {
    const version = memory.buckets.get(bucket)?.version ?? 0;
    return {
      Put: {
        TableName: table(),
        Item: unlockMemories.item({ userId, entityKind, bucket, version: version + 1, tiers }),
        ConditionExpression: version === 0 ? 'attribute_not_exists(pk)' : 'version = :expected',
        ...(version === 0 ? {} : { ExpressionAttributeValues: { ':expected': version } }),
      },
    };
  });
}
