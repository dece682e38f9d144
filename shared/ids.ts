import { createHash, randomBytes } from 'node:crypto';

/** UUID v7 (RFC 9562): time-ordered, so sort keys built from it list in creation order. */
export function uuidv7(now: number = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const sha256Hex = (value: string | Buffer): string => createHash('sha256').update(value).digest('hex');

/** URL-safe random string of exactly `length` characters. */
export function randomToken(length: number): string {
  return randomBytes(Math.ceil((length * 3) / 4) + 2)
    .toString('base64url')
    .slice(0, length);
}
