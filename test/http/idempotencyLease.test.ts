import { describe, expect, it } from 'vitest';
import { ManualClock } from '#shared/adapters/clock';
import { beginIdempotentRequest, finishIdempotentRequest } from '#shared/http/idempotency';
import { uuidv7 } from '#shared/ids';

const LEASE_MS = 30_000;

describe('Idempotency-Key claim is a lease bounded by the function timeout', () => {
  it('answers 409 while the lease runs, then lets a retry take over a claim whose request died', async () => {
    const clock = new ManualClock(new Date('2026-03-01T10:00:00Z'));
    const userId = uuidv7();
    const key = `k-${uuidv7()}`;
    const first = await beginIdempotentRequest(userId, key, 'POST /x {}', clock.now().getTime(), LEASE_MS);
    expect('claim' in first).toBe(true);

    clock.advance(LEASE_MS - 1000);
    await expect(beginIdempotentRequest(userId, key, 'POST /x {}', clock.now().getTime(), LEASE_MS)).rejects.toMatchObject({ code: 'idempotency_conflict' });

    // The first request never finished (crash or timeout): once its lease is over the key is usable again.
    clock.advance(2000);
    const retry = await beginIdempotentRequest(userId, key, 'POST /x {}', clock.now().getTime(), LEASE_MS);
    expect('claim' in retry).toBe(true);
    if (!('claim' in retry)) return;
    await finishIdempotentRequest(retry.claim, { statusCode: 201, headers: {}, body: '{"ok":true}' });

    // A completed response is replayed for the whole window, never taken over when a lease would have run out.
    clock.advance(60 * 60 * 1000);
    const replay = await beginIdempotentRequest(userId, key, 'POST /x {}', clock.now().getTime(), LEASE_MS);
    expect(replay).toMatchObject({ replay: { statusCode: 201, body: '{"ok":true}' } });
  });
});
