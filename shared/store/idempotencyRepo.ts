import { gunzipSync, gzipSync } from 'node:zlib';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { uuidv7 } from '#shared/ids';
import { readBlob, writeBlob, type BlobRef } from './blobs';
import { ddb, table, writeIfCondition } from './client';
import { idempotencyKey } from './keys';
import { defineEntity } from './entity';

/** A response body up to this size is stored as it is; a larger one gzip-compressed. */
const PLAIN_BODY_BYTES = 64_000;
/** A compressed body over this size goes to blob chunks beside the record (items are at most 400 KB). */
const INLINE_GZIP_BYTES = 300_000;

export interface StoredResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  /** The body is sealed by the encryption port (an answer that shows a secret). */
  sealed?: boolean;
}

/** How a response is kept on the record: the body as it is, compressed, or in compressed chunks. */
interface ResponseItem {
  statusCode: number;
  headers: Record<string, string>;
  sealed?: boolean;
  body?: string;
  bodyGzip?: Uint8Array;
  bodyBlob?: BlobRef;
}

export interface IdempotencyRecord {
  requestHash: string;
  state: 'in_progress' | 'completed';
  response?: StoredResponse;
  expiresAt: number;
  /** While in progress: when the claim's request can no longer be running (claim time + function timeout), in ms. */
  leaseUntil?: number;
  /** Which request holds the claim: only that request may store its answer or let the key go. */
  claimId?: string;
}

/** The record as stored: its response kept as a ResponseItem. */
type StoredRecord = Omit<IdempotencyRecord, 'response'> & { response?: ResponseItem };

const claims = defineEntity<StoredRecord>()({
  name: 'idempotency',
  key: (k: { userId: string; key: string }) => idempotencyKey(k.userId, k.key),
  keyOnly: ['userId', 'key'],
});

/**
 * Claims the key for this request; returns the existing record when someone holds it already.
 * An in-progress claim whose lease ran out belongs to a request that died (crash, timeout): it is
 * taken over, so a dead request does not block its key for the whole window.
 */
export async function claimIdempotencyKey(
  userId: string,
  key: string,
  requestHash: string,
  nowMs: number,
  ttlSeconds: number,
  leaseMs: number,
): Promise<{ claimed: true; claimId: string } | { claimed: false; existing: IdempotencyRecord }> {
  const nowSeconds = Math.floor(nowMs / 1000);
  const claimId = uuidv7();
  const claimed = await writeIfCondition(() =>
    ddb().send(
      new PutCommand({
        TableName: table(),
        Item: claims.item(
          {
            userId,
            key,
            requestHash,
            state: 'in_progress',
            expiresAt: nowSeconds + ttlSeconds,
            leaseUntil: nowMs + leaseMs,
            claimId,
          },
          { ttl: nowSeconds + ttlSeconds },
        ),
        // TTL deletion is lazy: an expired record may still be there and must not block a new claim.
        ConditionExpression:
          'attribute_not_exists(pk) OR expiresAt < :now OR (#s = :inProgress AND leaseUntil < :nowMs)',
        ExpressionAttributeNames: { '#s': 'state' },
        ExpressionAttributeValues: { ':now': nowSeconds, ':nowMs': nowMs, ':inProgress': 'in_progress' },
      }),
    ),
  );
  if (claimed) return { claimed: true, claimId };
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: idempotencyKey(userId, key), ConsistentRead: true }),
  );
  if (!Item) return claimIdempotencyKey(userId, key, requestHash, nowMs, ttlSeconds, leaseMs);
  const { response, ...record } = claims.fromItem(Item);
  return {
    claimed: false,
    existing: { ...record, ...(response ? { response: await responseFrom(userId, key, response) } : {}) },
  };
}

async function responseFrom(
  userId: string,
  key: string,
  { statusCode, headers, body, bodyGzip, bodyBlob, sealed }: ResponseItem,
): Promise<StoredResponse> {
  const kept = { statusCode, headers, ...(sealed ? { sealed } : {}) };
  if (bodyBlob) return { ...kept, body: await readBlob<string>(idempotencyKey(userId, key).pk, bodyBlob) };
  if (bodyGzip) return { ...kept, body: gunzipSync(Buffer.from(bodyGzip)).toString('utf8') };
  return { ...kept, body: body ?? '' };
}

/**
 * A response of any size is kept for replay (a spending request's answer is what a retry must get
 * back, however large): compressed past 64 KB, and in chunks that expire with the record past what
 * one item holds.
 */
async function responseItem(
  userId: string,
  key: string,
  response: StoredResponse,
  expiresAt: number,
): Promise<ResponseItem> {
  const { body } = response;
  const kept = {
    statusCode: response.statusCode,
    headers: response.headers,
    ...(response.sealed ? { sealed: true } : {}),
  };
  if (Buffer.byteLength(body, 'utf8') <= PLAIN_BODY_BYTES) return { ...kept, body };
  const bodyGzip = gzipSync(Buffer.from(body, 'utf8'));
  if (bodyGzip.length <= INLINE_GZIP_BYTES) return { ...kept, bodyGzip };
  return {
    ...kept,
    bodyBlob: await writeBlob(idempotencyKey(userId, key).pk, `response-${uuidv7()}`, body, expiresAt),
  };
}

/**
 * The claim is still the one `claimId` took: a request that outlived its lease may have lost the key
 * to a retry, and must then leave the retry's claim alone.
 */
const stillClaimedBy = (claimId: string) => ({
  expression: 'claimId = :claimId AND #s = :inProgress',
  names: { '#s': 'state' },
  values: { ':claimId': claimId, ':inProgress': 'in_progress' },
});

/**
 * Stores the response for replay until `expiresAt` (epoch seconds, the key's window), unless the
 * claim was taken over: the answer kept is then the one of the request holding the key now.
 */
export async function completeIdempotencyKey(
  userId: string,
  key: string,
  claimId: string,
  response: StoredResponse,
  expiresAt: number,
): Promise<void> {
  const stored = await responseItem(userId, key, response, expiresAt);
  const update = claims.update({
    set: { state: 'completed', response: stored },
    remove: ['leaseUntil'],
    condition: stillClaimedBy(claimId),
  });
  await writeIfCondition(() =>
    ddb().send(new UpdateCommand({ TableName: table(), Key: idempotencyKey(userId, key), ...update })),
  );
}

/** Lets the key go (the request failed), unless another request has taken the claim over since. */
export async function releaseIdempotencyKey(userId: string, key: string, claimId: string): Promise<void> {
  const { expression, names, values } = stillClaimedBy(claimId);
  await writeIfCondition(() =>
    ddb().send(
      new DeleteCommand({
        TableName: table(),
        Key: idempotencyKey(userId, key),
        ConditionExpression: expression,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    ),
  );
}
