import { describe, expect, it } from 'vitest';
import { startTestApi } from '#test/support/api';
import { uuidv7 } from '#shared/ids';
import { ddb } from '#shared/store/client';
import { putDelivery, type DeliveryStatus, type WebhookDeliveryRecord } from '#shared/store/webhookDeliveriesRepo';

/** The delivery log is read by index for every filter and paged with a cursor. */
const api = await startTestApi();

/** Items DynamoDB read for the Queries of this process while `run` ran (ScannedCount). */
let scanned = 0;
ddb().middlewareStack.add(
  (next) => async (args) => {
    const out = await next(args);
    scanned += (out.output as { ScannedCount?: number }).ScannedCount ?? 0;
    return out;
  },
  { step: 'initialize', name: 'countScannedItems' },
);
async function scannedBy<T>(run: () => Promise<T>): Promise<{ value: T; scanned: number }> {
  const before = scanned;
  const value = await run();
  return { value, scanned: scanned - before };
}

const STATUSES: DeliveryStatus[] = ['pending', 'succeeded', 'failed'];
const { key, user } = await api.newUser({ tier: 'pro', credits: 100 });
const endpoints = [uuidv7(), uuidv7()];
const log: WebhookDeliveryRecord[] = [];
const base = Date.now() - 3_600_000;
for (let i = 0; i < 90; i++) {
  const at = new Date(base + i * 1000).toISOString();
  const d: WebhookDeliveryRecord = {
    id: uuidv7(base + i * 1000),
    userId: user.id,
    eventId: uuidv7(base + i * 1000),
    eventType: 'credits.low',
    endpointId: endpoints[i % 2],
    status: STATUSES[i % 3],
    attempts: 1,
    autoAttempts: 1,
    maxAttempts: 8,
    lastStatusCode: 204,
    lastError: null,
    // Pending ones are due far ahead, so the sweep and the queue leave them alone.
    nextAttemptAt: STATUSES[i % 3] === 'pending' ? '2999-01-01T00:00:00.000Z' : null,
    manualRetryAt: null,
    createdAt: at,
    updatedAt: at,
  };
  await putDelivery(d);
  log.push(d);
}
const newestFirst = [...log].sort((a, b) => b.id.localeCompare(a.id));

/** Every page of one filter, following next_cursor. */
async function allPages(query: string, limit: number) {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res: { status: number; text: string; body: any } = await api.call(
      'GET',
      `/webhooks/deliveries?limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ''}`,
      { key },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.items.length).toBeLessThanOrEqual(limit);
    ids.push(...res.body.items.map((d: { id: string }) => d.id));
    cursor = res.body.next_cursor;
    pages++;
    expect(pages).toBeLessThan(100);
  } while (cursor);
  return ids;
}

describe('the delivery log', () => {
  const filters: [string, string, (d: WebhookDeliveryRecord) => boolean][] = [
    ['no filter', '', () => true],
    ['a status', '&status=failed', (d) => d.status === 'failed'],
    ['an endpoint', `&endpoint_id=${endpoints[1]}`, (d) => d.endpointId === endpoints[1]],
    [
      'an endpoint and a status',
      `&endpoint_id=${endpoints[0]}&status=pending`,
      (d) => d.endpointId === endpoints[0] && d.status === 'pending',
    ],
  ];
  for (const [name, query, keep] of filters) {
    it(`pages through ${name} with the cursor, newest first and oldest first, each delivery once`, async () => {
      const expected = newestFirst.filter(keep).map((d) => d.id);
      expect(await allPages(query, 7)).toEqual(expected);
      expect(await allPages(`${query}&sort_order=asc`, 7)).toEqual([...expected].reverse());
    });

    it(`reads a page of ${name} by index, not the whole log`, async () => {
      const { value: res, scanned: read } = await scannedBy(() =>
        api.call('GET', `/webhooks/deliveries?limit=5${query}`, { key }),
      );
      expect(res.status).toBe(200);
      expect(res.body.items).toHaveLength(5);
      expect(typeof res.body.next_cursor).toBe('string');
      // At most a few items past the page per index partition read (three for an endpoint alone), never the 90 of the log.
      expect(read).toBeLessThanOrEqual(3 * 7);
    });
  }

  it('a cursor that this list did not return is a 400', async () => {
    for (const cursor of [
      'nonsense',
      Buffer.from('{"after":"x"}').toString('base64url'),
      Buffer.from('[]').toString('base64url'),
    ]) {
      const res = await api.call('GET', `/webhooks/deliveries?cursor=${cursor}`, { key });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
    }
  });

  it('another user sees none of it, with or without the endpoint filter', async () => {
    const stranger = await api.newUser();
    for (const query of ['', `?endpoint_id=${endpoints[0]}`, '?status=failed']) {
      const res = await api.call('GET', `/webhooks/deliveries${query}`, { key: stranger.key });
      expect(res.body).toEqual({ items: [], limit: 50, next_cursor: null });
    }
  });
});
