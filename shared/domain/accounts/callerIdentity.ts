import { findUserIdByApiKeyHash } from '#shared/store/usersRepo';
import { bearerKey, hashApiKey } from './apiKeys';

/**
 * The authorizer's question: which user does this bearer header belong to? Kept apart from the
 * account rules so the authorizer, run on every uncached request, loads only this and the key lookup.
 */
export async function identifyCaller(
  authorizationHeader: string | undefined,
): Promise<{ userId: string; keyHash: string } | null> {
  const key = bearerKey(authorizationHeader);
  if (!key) return null;
  const keyHash = hashApiKey(key);
  const userId = await findUserIdByApiKeyHash(keyHash);
  return userId ? { userId, keyHash } : null;
}
