/**
 * The published retry schedule as data: the first attempt goes at once, each later one
 * after the delay at its place; an endpoint failing for DISABLE_AFTER_MS is disabled.
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
];
/** The first attempt plus one per scheduled retry. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const DISABLE_AFTER_MS = 5 * 24 * HOUR;
/** What a receiver gets to answer before the attempt counts as failed. */
export const DELIVERY_TIMEOUT_MS = 15 * SECOND;

/** Milliseconds until the next attempt after `attemptsMade` failed ones, or null when the schedule is spent. */
export function retryDelayAfter(attemptsMade: number, maxAttempts = MAX_ATTEMPTS): number | null {
  if (attemptsMade >= maxAttempts) return null;
  return RETRY_DELAYS_MS[Math.min(attemptsMade, RETRY_DELAYS_MS.length) - 1] ?? null;
}

/** True when an endpoint whose failures began at `failingSince` has failed long enough to be disabled. */
export const shouldDisable = (failingSince: string | null, at: Date): boolean =>
  failingSince !== null && at.getTime() - Date.parse(failingSince) >= DISABLE_AFTER_MS;
