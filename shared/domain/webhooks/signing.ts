/**
 * Standard Webhooks signing (https://www.standardwebhooks.com), through the specification's own
 * library so what we send is exactly what receivers' verifiers expect: `webhook-signature` is
 * `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` keyed with the base64 part of the secret.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export const SECRET_PREFIX = 'whsec_';

/** 24 random bytes (192 bits; the specification asks for 24 to 64), base64, with the conventional prefix. */
export const newEndpointSecret = (): string => `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export function signWebhook(secret: string, messageId: string, at: Date, body: string): SignedHeaders {
  // The library takes the key without its prefix as base64 (it strips `whsec_` itself too).
  const signature = new Webhook(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret).sign(
    messageId,
    at,
    body,
  );
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}
