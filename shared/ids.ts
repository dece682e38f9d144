import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The millisecond of the last id made with a time given, and that id's counter. */
const lastTimedV7 = { ms: -1, counter: 0 };
/** A millisecond's counter starts below this, so at least 2,048 ids fit in one millisecond in order. */
const V7_COUNTER_START_BELOW = 0x800;
const V7_COUNTER_MAX = 0xfff;

/** One more than the last timed id's counter in the same millisecond, or a random start in another. */
function nextTimedCounter(ms: number, random: number): number {
  const counter =
    ms === lastTimedV7.ms && lastTimedV7.counter < V7_COUNTER_MAX
      ? lastTimedV7.counter + 1
      : random % V7_COUNTER_START_BELOW;
  [lastTimedV7.ms, lastTimedV7.counter] = [ms, counter];
  return counter;
}

/**
 * UUID v7 (RFC 9562): time-ordered, so sort keys built from it list in creation order.
 *
 * Records listed newest first (communities, chats, jobs, runs) are named with the time the service's
 * clock gave their request, `now`. For those, the 12 bits after the version are a counter within the
 * millisecond (the RFC's fixed-length counter), so records one process creates in one millisecond (a
 * fast client, or a test's stopped clock) still list in the order they were created; random bits there
 * ordered them by chance. Each millisecond's counter starts at a random value, so ids of other processes
 * rarely collide; past 2,048 ids in one millisecond the order is no longer kept. An id made without a
 * time (request ids, blob names, lease holders: nothing lists them) keeps those bits random and leaves
 * the counter alone, so it never comes between two records of a test's stopped clock.
 */
export function uuidv7(now?: number): string {
  const bytes = randomBytes(16);
  const random = bytes.readUInt16BE(6);
  const counter = now === undefined ? random & V7_COUNTER_MAX : nextTimedCounter(now, random);
  bytes.writeUIntBE(now ?? Date.now(), 0, 6);
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
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

/** Compares a secret the caller sent with ours in constant time (for their byte lengths). */
export function sameSecret(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
