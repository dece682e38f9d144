/**
 * Crisp signs each plugin hook: `X-Crisp-Signature` is the hex HMAC-SHA256, keyed with the plugin's
 * hook secret, of `"[" + X-Crisp-Request-Timestamp + ";" + JSON.stringify(body) + "]"`. The digests
 * are compared in constant time, and a timestamp far from now is refused so a captured hook cannot be
 * replayed later (inside the window a replay finds its event already acted on).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a hook's timestamp may be from now, either way (Crisp's clock, a slow retry). */
export const MAX_HOOK_SKEW_SECONDS = 15 * 60;

/** Crisp stamps in milliseconds; a value this small can only be seconds. */
const MILLISECONDS_FROM = 100_000_000_000;

export const crispSignedText = (timestamp: string, body: unknown): string => `[${timestamp};${JSON.stringify(body)}]`;

export const signCrispHook = (secret: string, timestamp: string, body: unknown): string =>
  createHmac('sha256', secret).update(crispSignedText(timestamp, body)).digest('hex');

/** When the hook was signed, in epoch milliseconds; undefined for anything but a plain integer. */
export function hookTimestampMs(timestamp: string | undefined): number | undefined {
  if (!timestamp || !/^\d{1,15}$/.test(timestamp)) return undefined;
  const value = Number(timestamp);
  return value >= MILLISECONDS_FROM ? value : value * 1000;
}

export function verifyCrispSignature(
  secret: string,
  signature: string | undefined,
  timestamp: string | undefined,
  body: unknown,
  nowMs: number,
): boolean {
  if (!signature || !/^[0-9a-f]{64}$/i.test(signature)) return false;
  const signedAt = hookTimestampMs(timestamp);
  if (timestamp === undefined || signedAt === undefined || Math.abs(nowMs - signedAt) > MAX_HOOK_SKEW_SECONDS * 1000)
    return false;
  const expected = createHmac('sha256', secret).update(crispSignedText(timestamp, body)).digest();
  return timingSafeEqual(Buffer.from(signature, 'hex'), expected);
}
