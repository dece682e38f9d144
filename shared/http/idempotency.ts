import type { APIGatewayProxyResult } from 'aws-lambda';
import { ports } from '#shared/adapters/ports';
import { sha256Hex } from '#shared/ids';
import { ConflictError, ValidationError } from './errors';
import { IDEMPOTENCY_KEY_PATTERN } from './idempotencyKey';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from '#shared/store/idempotencyRepo';

const WINDOW_SECONDS = 24 * 60 * 60;

export interface IdempotencyClaim {
  userId: string;
  key: string;
  /** End of the key's window (epoch seconds): what is stored for it lives as long. */
  expiresAt: number;
  /** This request's hold on the key (a retry may take it over once the lease ran out). */
  claimId: string;
}

/**
 * Idempotency-Key: the same key with the same request within 24 h answers the first
 * response again; with another request, 409. Returns a replayed response, or a claim to complete.
 */
export async function beginIdempotentRequest(
  userId: string,
  key: string,
  fingerprint: string,
  nowMs: number,
  /** How long this request can still run (the function's timeout): the claim is a lease of that length. */
  leaseMs: number,
): Promise<{ replay: APIGatewayProxyResult } | { claim: IdempotencyClaim }> {
  if (!IDEMPOTENCY_KEY_PATTERN.test(key))
    throw new ValidationError('The Idempotency-Key header must be 1 to 255 printable characters.', [
      { path: 'headers.idempotency-key', message: 'Invalid key' },
    ]);
  const requestHash = sha256Hex(fingerprint);
  const outcome = await claimIdempotencyKey(userId, key, requestHash, nowMs, WINDOW_SECONDS, leaseMs);
  if (outcome.claimed)
    return {
      claim: { userId, key, claimId: outcome.claimId, expiresAt: Math.floor(nowMs / 1000) + WINDOW_SECONDS },
    };
  const { existing } = outcome;
  if (existing.requestHash !== requestHash) {
    throw new ConflictError('idempotency_conflict', 'This Idempotency-Key was already used with a different request.');
  }
  if (existing.state !== 'completed' || !existing.response) {
    throw new ConflictError('idempotency_conflict', 'A request with this Idempotency-Key is still being processed.');
  }
  const { statusCode, headers, body } = existing.response;
  return {
    replay: {
      statusCode,
      headers: { ...headers, 'idempotent-replayed': 'true' },
      body: existing.response.sealed ? await ports().encryption.open(body, replayContext(userId, key)) : body,
    },
  };
}

/** A sealed answer opens only as the answer of this key of this user. */
const replayContext = (userId: string, key: string) => `idempotent-answer:${userId}:${key}`;

/**
 * Stores the response for replay, whatever its size; a server error releases the key so the client can
 * retry. Either only while this request still holds the key.
 */
export async function finishIdempotentRequest(
  claim: IdempotencyClaim,
  response: APIGatewayProxyResult,
  sealed = false,
): Promise<void> {
  if (response.statusCode >= 500) {
    await releaseIdempotencyKey(claim.userId, claim.key, claim.claimId);
    return;
  }
  const headers = Object.fromEntries(Object.entries(response.headers ?? {}).map(([k, v]) => [k, String(v)]));
  const body = response.body ?? '';
  const kept = sealed ? await ports().encryption.seal(body, replayContext(claim.userId, claim.key)) : body;
  await completeIdempotencyKey(
    claim.userId,
    claim.key,
    claim.claimId,
    { statusCode: response.statusCode, headers, body: kept, ...(sealed ? { sealed } : {}) },
    claim.expiresAt,
  );
}
