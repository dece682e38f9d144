/**
 * A community's taught text model: a small head item (version, how many parts, how many examples) and
 * the encoded counts split over parts, each well under DynamoDB's 400 KB item limit. Every write
 * replaces head and parts in one transaction conditioned on the version read, so two teachers never
 * lose each other's examples; every judgement reads the head strongly consistent and the parts only
 * when the version moved, so what was taught a second ago is already used.
 */
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TextModel } from '#shared/domain/moderation/detector/textModel';
import { getMany } from './batch';
import { ddb, table } from './client';
import { defineEntity } from './entity';
import { textModelHeadKey, textModelPartKey } from './keys';
import { decodeModel, encodeModel } from './textModelCodec';
import { writeTogether, type TransactItem } from './transactions';

/** Bytes of encoded model per part item (the item limit is 400 KB, attribute names and keys included). */
const PART_BYTES = 350_000;
/** A transaction carries at most 4 MB: the parts of the largest model that can be written at once. */
export const MAX_MODEL_PARTS = 11;

interface Head {
  version: number;
  parts: number;
  examples: number;
  updatedAt: string;
}
const heads = defineEntity<Head>()({
  name: 'textModelHead',
  key: (h: { communityId: string }) => textModelHeadKey(h.communityId),
  keyOnly: ['communityId'],
});
const parts = defineEntity<{ version: number; bytes: Uint8Array }>()({
  name: 'textModelPart',
  key: (p: { communityId: string; part: number }) => textModelPartKey(p.communityId, p.part),
  keyOnly: ['communityId', 'part'],
});

export interface StoredModel {
  model: TextModel;
  /** 0: nothing taught yet. */
  version: number;
  parts: number;
}

/** The decoded models this container has read, by community, with the version they are. */
const cache = new Map<string, StoredModel>();
const CACHE_LIMIT = 200;

async function readHead(communityId: string): Promise<Head | undefined> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: heads.key({ communityId }), ConsistentRead: true }),
  );
  return heads.maybe(Item);
}

export async function loadTextModel(communityId: string): Promise<StoredModel> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const head = await readHead(communityId);
    // Nothing taught: a model with no counts (the domain's emptyModel), version 0.
    if (!head) return { model: { counts: new Map(), examples: [0, 0], features: [0, 0] }, version: 0, parts: 0 };
    const cached = cache.get(communityId);
    if (cached?.version === head.version) return cached;
    const keys = Array.from({ length: head.parts }, (_, part) => parts.key({ communityId, part }));
    const items = (await getMany(keys, { consistent: true })).map((item) => ({
      sk: item.sk as string,
      ...parts.fromItem(item),
    }));
    // A write between the head and the parts: read both again.
    if (items.length !== head.parts || items.some((p) => p.version !== head.version)) continue;
    items.sort((a, b) => a.sk.localeCompare(b.sk));
    const bytes = Buffer.concat(items.map((p) => Buffer.from(p.bytes)));
    const stored = { model: decodeModel(bytes), version: head.version, parts: head.parts };
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(communityId, stored);
    return stored;
  }
  throw new Error(`The text model of ${communityId} kept changing while it was read`);
}

/** Thrown when the encoded model outgrows what one transaction can write. */
export class ModelTooLargeError extends Error {
  override readonly name = 'ModelTooLargeError';
}

/**
 * Writes `model` as the version after `previous`; false when someone else wrote first (read again and
 * retry). Parts the smaller model no longer needs are deleted in the same transaction.
 */
export async function saveTextModel(
  communityId: string,
  model: TextModel,
  previous: StoredModel,
  at: string,
): Promise<boolean> {
  const bytes = encodeModel(model);
  const count = Math.max(1, Math.ceil(bytes.length / PART_BYTES));
  if (count > MAX_MODEL_PARTS) throw new ModelTooLargeError(`The taught model needs ${count} parts`);
  const version = previous.version + 1;
  const head: TransactItem = {
    Put: {
      TableName: table(),
      Item: heads.item({
        communityId,
        version,
        parts: count,
        examples: model.examples[0] + model.examples[1],
        updatedAt: at,
      }),
      ...(previous.version === 0
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : { ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': previous.version } }),
    },
  };
  const written: TransactItem[] = Array.from({ length: count }, (_, part) => ({
    Put: {
      TableName: table(),
      Item: parts.item({
        communityId,
        part,
        version,
        bytes: bytes.subarray(part * PART_BYTES, (part + 1) * PART_BYTES),
      }),
    },
  }));
  const stale: TransactItem[] = Array.from({ length: Math.max(0, previous.parts - count) }, (_, i) => ({
    Delete: { TableName: table(), Key: parts.key({ communityId, part: count + i }) },
  }));
  try {
    await writeTogether({ head, parts: written, stale });
  } catch (err) {
    if ((err as Error).name === 'TransactionConditionError') return false;
    throw err;
  }
  return true;
}

/** Forgets everything the community taught: the head first, so no reader assembles a half-deleted model. */
export async function forgetTextModel(communityId: string): Promise<void> {
  const head = await readHead(communityId);
  await ddb().send(new DeleteCommand({ TableName: table(), Key: heads.key({ communityId }) }));
  cache.delete(communityId);
  for (let part = 0; part < (head?.parts ?? 0); part++)
    await ddb().send(new DeleteCommand({ TableName: table(), Key: parts.key({ communityId, part }) }));
}
