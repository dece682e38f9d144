import { AUTHORIZER_CACHE_SECONDS } from '#shared/config/authorizerCache';

/** Beyond this many distinct headers the oldest answers are dropped (a flood of random keys must not grow it). */
const MAX_ENTRIES = 10_000;

/**
 * The local stand-in for API Gateway's authorizer result cache: an accepted Authorization header is
 * answered from memory for AUTHORIZER_CACHE_SECONDS, so a hot request costs what it costs in AWS.
 * Refusals are not kept: a key that starts working (created, re-activated) works at once.
 */
export class AuthorizerCache<T> {
  private readonly entries = new Map<string, { value: T; expiresAt: number }>();
  constructor(private readonly now: () => number = Date.now) {}

  async get(
    header: string | undefined,
    authorize: (header: string | undefined) => Promise<T | null | undefined>,
  ): Promise<T | null | undefined> {
    if (header === undefined) return authorize(header);
    const hit = this.entries.get(header);
    if (hit && hit.expiresAt > this.now()) return hit.value;
    const value = await authorize(header);
    this.entries.delete(header);
    if (value !== undefined && value !== null) {
      const oldest = this.entries.keys().next();
      if (this.entries.size >= MAX_ENTRIES && !oldest.done) this.entries.delete(oldest.value);
      this.entries.set(header, { value, expiresAt: this.now() + AUTHORIZER_CACHE_SECONDS * 1000 });
    }
    return value;
  }
}
