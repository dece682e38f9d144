import { gunzipSync, gzipSync } from 'node:zlib';
import { deleteAll, putAll, type ItemRead } from './batch';
import { table } from './client';
import { TTL_ATTRIBUTE } from './table';
import type { TransactItem } from './transactions';
import { blobChunkKey } from './keys';
import { defineEntity } from './entity';
import { queryAll } from './query';

/** Leaves room under DynamoDB's 400 KB item limit for keys and attributes. */
const CHUNK_BYTES = 350_000;

export interface BlobRef {
  blobId: string;
  chunks: number;
  /** Byte length of the JSON text before compression. */
  size: number;
}

/** One gzip chunk of a blob; the key (owner, blob id, position) is all that names it. */
interface BlobChunk {
  data: Uint8Array;
}

const blobChunks = defineEntity<BlobChunk>()({
  name: 'blobChunk',
  key: (c: { ownerPk: string; blobId: string; index: number }) => blobChunkKey(c.ownerPk, c.blobId, c.index),
  keyOnly: ['ownerPk', 'blobId', 'index'],
});

/**
 * Stores a JSON value of any size as gzip chunks beside its owner item. Chunks are written first;
 * the owner item, written after by the caller, is what makes them visible. So a failure part way
 * leaves orphan chunks (deleted here on a best-effort basis), never a half-readable value.
 */
function packBlob(ownerPk: string, blobId: string, value: unknown, expiresAt?: number) {
  const json = JSON.stringify(value);
  const packed = gzipSync(Buffer.from(json, 'utf8'));
  const parts: Buffer[] = [];
  for (let i = 0; i < packed.length; i += CHUNK_BYTES) parts.push(packed.subarray(i, i + CHUNK_BYTES));
  if (parts.length === 0) parts.push(Buffer.alloc(0));
  const items = parts.map((data, index) =>
    blobChunks.item({ ownerPk, blobId, index, data }, expiresAt === undefined ? undefined : { ttl: expiresAt }),
  );
  return { items, ref: { blobId, chunks: parts.length, size: Buffer.byteLength(json, 'utf8') } as BlobRef };
}

async function putChunks(ownerPk: string, ref: BlobRef, items: Record<string, unknown>[]): Promise<void> {
  try {
    // Chunks are ~350 KB: four to a call keeps each BatchWriteItem well under its 16 MB limit.
    await putAll(items, { groupSize: 4 });
  } catch (err) {
    await deleteBlob(ownerPk, { ...ref, size: 0 }).catch(() => undefined);
    throw err;
  }
}

/** Writes the blob's chunks; with `expiresAt` (epoch seconds) DynamoDB's TTL removes them after it, as it does their owner. */
export async function writeBlob(ownerPk: string, blobId: string, value: unknown, expiresAt?: number): Promise<BlobRef> {
  const { items, ref } = packBlob(ownerPk, blobId, value, expiresAt);
  await putChunks(ownerPk, ref, items);
  return ref;
}

/**
 * Like writeBlob, for an owner item written in a transaction: a value that fits one chunk (nearly
 * every one) is not written here; its chunk's Put comes back (`item`) to go into the owner's
 * transaction, so the value and its owner appear together and cost no request of their own. A larger
 * value is written now, as writeBlob does, and there is no `item`.
 */
export async function prepareBlob(
  ownerPk: string,
  blobId: string,
  value: unknown,
): Promise<{ ref: BlobRef; item?: TransactItem }> {
  const { items, ref } = packBlob(ownerPk, blobId, value);
  if (items.length === 1) return { ref, item: { Put: { TableName: table(), Item: items[0] } } };
  await putChunks(ownerPk, ref, items);
  return { ref };
}

/** A blob's first chunk, for a readTogether with its owner item (see readBlobFrom). */
export const firstChunkRead = (ownerPk: string, blobId: string): ItemRead<Record<string, unknown> | undefined> => ({
  key: blobChunkKey(ownerPk, blobId, 0),
  decode: (item) => item,
});

/** The blob, from its first chunk when that is the whole of it (read beside its owner), else as readBlob. */
export async function readBlobFrom<T = unknown>(
  ownerPk: string,
  ref: BlobRef,
  firstChunk: Record<string, unknown> | undefined,
): Promise<T> {
  const wanted = blobChunkKey(ownerPk, ref.blobId, 0);
  if (ref.chunks === 1 && firstChunk && firstChunk.pk === wanted.pk && firstChunk.sk === wanted.sk) {
    return JSON.parse(gunzipSync(Buffer.from(blobChunks.fromItem(firstChunk).data)).toString('utf8')) as T;
  }
  return readBlob<T>(ownerPk, ref);
}

export async function readBlob<T = unknown>(ownerPk: string, ref: BlobRef): Promise<T> {
  const prefix = blobChunkKey(ownerPk, ref.blobId, 0).sk.slice(0, -4);
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': ownerPk, ':prefix': prefix },
  });
  const chunks = items.map((item) => Buffer.from(blobChunks.fromItem(item).data));
  if (chunks.length !== ref.chunks) throw new Error(`Blob ${ref.blobId} has ${chunks.length} of ${ref.chunks} chunks`);
  return JSON.parse(gunzipSync(Buffer.concat(chunks)).toString('utf8')) as T;
}

export async function deleteBlob(ownerPk: string, ref: BlobRef): Promise<void> {
  await deleteAll(Array.from({ length: ref.chunks }, (_, i) => blobChunkKey(ownerPk, ref.blobId, i)));
}

/** How long a replaced blob stays readable for requests that loaded the owner item before the swap. */
const RETIRED_BLOB_SECONDS = 3600;

/**
 * A blob whose owner now points elsewhere. Deleting it at once would fail a reader that loaded the
 * old pointer a moment before the swap ("0 of N chunks"), so its chunks are rewritten with a TTL and
 * DynamoDB removes them later. Blob ids are never reused, so the rewrite cannot clobber a newer value.
 */
export async function retireBlob(ownerPk: string, ref: BlobRef, at: Date): Promise<void> {
  const prefix = blobChunkKey(ownerPk, ref.blobId, 0).sk.slice(0, -4);
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': ownerPk, ':prefix': prefix },
  });
  const expiresAt = Math.floor(at.getTime() / 1000) + RETIRED_BLOB_SECONDS;
  await putAll(
    items.map((item) => ({ ...item, [TTL_ATTRIBUTE]: expiresAt })),
    { groupSize: 4 },
  );
}
