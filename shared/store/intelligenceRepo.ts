import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from './client';
import { intelligenceQueryKey, intelligenceResultKey, unlockMemoryKey } from './keys';
import type { ItemRead } from './batch';
import type { TransactItem } from './transactions';
import { defineEntity } from './entity';
import { buildUpdate } from './update';

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

const results = defineEntity<IntelligenceResultRecord>('intelligenceResult', { keep: ['ttl'] });

export function putIntelligenceResultItem(record: IntelligenceResultRecord): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: { ...intelligenceResultKey(record.userId, record.resultId), entity: 'intelligenceResult', ...record },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

const intelligenceResultOf = (Item: Record<string, unknown> | undefined) => (Item ? results.fromItem(Item) : undefined);

export async function getIntelligenceResult(userId: string, resultId: string): Promise<IntelligenceResultRecord | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: intelligenceResultKey(userId, resultId), ConsistentRead: true }));
  return intelligenceResultOf(Item);
}

export const intelligenceResultRead = (userId: string, resultId: string): ItemRead<IntelligenceResultRecord | undefined> => ({
  key: intelligenceResultKey(userId, resultId),
  decode: intelligenceResultOf,
});

/** Records more served ids on a root result, if nobody else did since `expectedVersion`. */
export function extendServedIdsItem(userId: string, resultId: string, servedIds: string[], expectedVersion: number): TransactItem {
  return {
    Update: {
      TableName: table(),
      Key: intelligenceResultKey(userId, resultId),
      ...buildUpdate({ set: { servedIds, version: expectedVersion + 1 }, condition: { expression: 'version = :expected', values: { ':expected': expectedVersion } } }),
    },
  };
}

/** The identical-query pointer; the condition makes the first result of a query the only one. */
export function putIdenticalQueryItem(userId: string, queryHash: string, resultId: string, createdAt: string): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: { ...intelligenceQueryKey(userId, queryHash), entity: 'intelligenceQuery', resultId, createdAt },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export async function getIdenticalQueryResultId(userId: string, queryHash: string): Promise<string | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: intelligenceQueryKey(userId, queryHash), ConsistentRead: true }));
  return Item?.resultId as string | undefined;
}

export const identicalQueryRead = (userId: string, queryHash: string): ItemRead<string | undefined> => ({
  key: intelligenceQueryKey(userId, queryHash),
  decode: (Item) => Item?.resultId as string | undefined,
});

/** Contact tiers a user has unlocked, per entity of one kind. */
export interface UnlockMemory {
  version: number;
  tiers: Record<string, string>;
}

const unlockMemoryOf = (Item: Record<string, unknown> | undefined): UnlockMemory =>
  Item ? { version: Item.version as number, tiers: Item.tiers as Record<string, string> } : { version: 0, tiers: {} };

export async function getUnlockMemory(userId: string, entityKind: string): Promise<UnlockMemory> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: unlockMemoryKey(userId, entityKind), ConsistentRead: true }));
  return unlockMemoryOf(Item);
}

export const unlockMemoryRead = (userId: string, entityKind: string): ItemRead<UnlockMemory> => ({ key: unlockMemoryKey(userId, entityKind), decode: unlockMemoryOf });

/** Replaces the memory if it is still at `expectedVersion` (0: not yet written). */
export function putUnlockMemoryItem(userId: string, entityKind: string, tiers: Record<string, string>, expectedVersion: number): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: { ...unlockMemoryKey(userId, entityKind), entity: 'unlockMemory', version: expectedVersion + 1, tiers },
      ConditionExpression: expectedVersion === 0 ? 'attribute_not_exists(pk)' : 'version = :expected',
      ...(expectedVersion === 0 ? {} : { ExpressionAttributeValues: { ':expected': expectedVersion } }),
    },
  };
}
