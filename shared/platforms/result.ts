/** What one platform call came to, in the terms the audit log records. */
export type CallOutcome =
  | { ok: true; result: unknown }
  /** `retryAfterSeconds`: the platform asked us to wait (Telegram's retry_after, Discord's rate-limit headers). */
  | { ok: false; status: number; error: string; retryAfterSeconds?: number };

/**
 * Worth another attempt later: rate limits (429, or any status the platform paired with a wait, such
 * as Crisp's 420), the platform's own trouble, the network.
 */
export const isTransient = (o: CallOutcome): boolean =>
  !o.ok && (o.status === 429 || o.retryAfterSeconds !== undefined || o.status >= 500 || o.status === 0);

/** A call that could not reach the platform at all (DNS, refused, timeout) is status 0. */
export const networkFailure = (err: unknown): CallOutcome => ({
  ok: false,
  status: 0,
  error: `Network error: ${(err as Error)?.message ?? String(err)}`,
});

/** A call's outcome through the platform port: `not_configured` when the platform has no credentials. */
export type PortOutcome = CallOutcome | 'not_configured';

export const CALL_TIMEOUT_MS = 10_000;

/** One HTTP call to a platform, bounded by CALL_TIMEOUT_MS: its response, or the outcome of a call that got none. */
export async function platformFetch(url: string, init: RequestInit): Promise<Response | CallOutcome> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
  } catch (err) {
    return networkFailure(err);
  }
}

/**
 * The platform asked us to wait: the worker sends the message again with that delay and reports the
 * record done, so the wait is exactly the platform's, not SQS's visibility timeout.
 */
export class RetryLater extends Error {
  constructor(
    readonly seconds: number,
    reason: string,
  ) {
    super(`Retry in ${seconds}s: ${reason}`);
  }
}

/** `{base}{path}`, however the configured base ends. */
export const platformUrl = (base: string, path: string) => `${base.replace(/\/$/, '')}${path}`;
