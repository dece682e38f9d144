/**
 * An endpoint's signing secret is kept sealed by the encryption port (the KMS key that seals X tokens;
 * a local key locally), bound to its owner and endpoint, so a copy of the table signs nothing. It is
 * opened to sign a delivery; a container keeps the few it opened, so a burst of deliveries to one
 * endpoint opens its secret once.
 */
import { ports } from '#shared/adapters/ports';
import type { WebhookEndpointRecord } from '#shared/store/webhookEndpointsRepo';

const contextOf = (userId: string, endpointId: string) => `webhook-secret:${userId}:${endpointId}`;

export const sealEndpointSecret = (userId: string, endpointId: string, secret: string): Promise<string> =>
  ports().encryption.seal(secret, contextOf(userId, endpointId));

/** Opened secrets by their sealed form: a rotation seals a new one, so an entry never goes stale. */
const opened = new Map<string, string>();
const OPENED_KEPT = 64;

/** The secret that signs this endpoint's deliveries (in the clear only on endpoints from before sealing). */
export async function endpointSecret(e: Pick<WebhookEndpointRecord, 'userId' | 'id' | 'sealedSecret' | 'secret'>) {
  if (!e.sealedSecret) {
    if (e.secret === undefined) throw new Error(`Webhook endpoint ${e.id} has no secret`);
    return e.secret;
  }
  const known = opened.get(e.sealedSecret);
  if (known !== undefined) return known;
  const secret = await ports().encryption.open(e.sealedSecret, contextOf(e.userId, e.id));
  if (opened.size >= OPENED_KEPT) opened.delete(opened.keys().next().value as string);
  opened.set(e.sealedSecret, secret);
  return secret;
}
