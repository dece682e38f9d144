import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { ManualClock } from '#shared/adapters/clock';
import { beginIdempotentRequest, finishIdempotentRequest } from '#shared/http/idempotency';
import { uuidv7 } from '#shared/ids';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from '#shared/store/client';
import { idempotencyKey } from '#shared/store/keys';

const LEASE_MS = 30_000;

describe('Idempotency-Key claim is a lease bounded by the function timeout', () => {
  it('answers 409 while the lease runs, then lets a retry take over a claim whose request died', async () => {
    const clock = new ManualClock(new Date('2026-03-01T10:00:00Z'));
    const userId = uuidv7();
    const key = `k-${uuidv7()}`;
    const first = await beginIdempotentRequest(userId, key, 'POST /x {}', clock.now().getTime(), LEASE_MS);
    expect('claim' in first).toBe(true);

    clock.advance(LEASE_MS - 1000);
    await expect(
      beginIdempotentRequest(userId, key, 'POST /x {}', clock.now().getTime(), LEASE_MS),
    ).rejects.toMatchObject({ code: 'idempotency_conflict' });

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

describe('a request that outlived its lease leaves the retry that took its key over alone', () => {
  async function takenOver() {
    const clock = new ManualClock(new Date('2026-03-01T10:00:00Z'));
    const userId = uuidv7();
    const key = `slow-${uuidv7()}`;
    const slow = await beginIdempotentRequest(userId, key, 'POST /x {}', clock.now().getTime(), LEASE_MS);
    if (!('claim' in slow)) throw new Error('expected a claim');
    clock.advance(LEASE_MS + 1000);
    const retry = await beginIdempotentRequest(userId, key, 'POST /x {}', clock.now().getTime(), LEASE_MS);
    if (!('claim' in retry)) throw new Error('expected the retry to take the key over');
    const nextAttempt = () => beginIdempotentRequest(userId, key, 'POST /x {}', clock.now().getTime(), LEASE_MS);
    return { slow: slow.claim, retry: retry.claim, nextAttempt };
  }

  it('a server error of the slow request does not free the key the retry holds', async () => {
    const { slow, nextAttempt } = await takenOver();
    await finishIdempotentRequest(slow, { statusCode: 503, headers: {}, body: '{}' });
    // The retry is still running: a third attempt must wait for it, not run the request a third time.
    await expect(nextAttempt()).rejects.toMatchObject({ code: 'idempotency_conflict' });
  });

  it("the slow request's answer is not stored over the claim, and the retry's answer is the one replayed", async () => {
    const { slow, retry, nextAttempt } = await takenOver();
    await finishIdempotentRequest(slow, { statusCode: 201, headers: {}, body: '{"from":"slow"}' });
    await expect(nextAttempt()).rejects.toMatchObject({ code: 'idempotency_conflict' });
    await finishIdempotentRequest(retry, { statusCode: 201, headers: {}, body: '{"from":"retry"}' });
    expect(await nextAttempt()).toMatchObject({ replay: { statusCode: 201, body: '{"from":"retry"}' } });
  });
});

describe('Idempotency-Key replays a response of any size', () => {
  const cases: [string, string][] = [
    // JSON compresses well: past 64 KB it is stored gzip-compressed in the record.
    [
      'a 1 MB JSON answer',
      JSON.stringify({
        items: Array.from({ length: 9000 }, (_, i) => ({
          id: `rec-${i}`,
          text: 'A warm intro route through a shared investor. '.repeat(2),
        })),
      }),
    ],
    // Random text does not: past what one item holds it goes to chunks beside the record.
    ['a 1.2 MB answer that does not compress', JSON.stringify({ noise: randomText(1_200_000) })],
  ];
  it.each(cases)('%s comes back byte for byte, and the key is not released', async (_, body) => {
    const clock = new ManualClock(new Date('2026-03-01T10:00:00Z'));
    const userId = uuidv7();
    const key = `big-${uuidv7()}`;
    const first = await beginIdempotentRequest(userId, key, 'POST /x {}', clock.now().getTime(), LEASE_MS);
    if (!('claim' in first)) throw new Error('expected a claim');
    await finishIdempotentRequest(first.claim, { statusCode: 200, headers: { 'x-credits-charged': '12' }, body });
    clock.advance(23 * 60 * 60 * 1000);
    const replay = await beginIdempotentRequest(userId, key, 'POST /x {}', clock.now().getTime(), LEASE_MS);
    if (!('replay' in replay)) throw new Error('expected a replay, the first answer was released');
    expect(replay.replay.statusCode).toBe(200);
    expect(replay.replay.headers).toEqual({ 'x-credits-charged': '12', 'idempotent-replayed': 'true' });
    expect(replay.replay.body.length).toBe(body.length);
    expect(replay.replay.body === body).toBe(true);
    // Whatever was written beside the record expires with it.
    const { Items = [] } = await ddb().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': idempotencyKey(userId, key).pk },
      }),
    );
    expect(new Set(Items.map((item) => item.ttl))).toEqual(new Set([first.claim.expiresAt]));
  });
});

function randomText(length: number): string {
  return randomBytes(Math.ceil(length * 0.75))
    .toString('base64')
    .slice(0, length);
}
