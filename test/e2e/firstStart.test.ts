import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';
import { startLocalRuntime } from '#bin/local/runtime';
import { uuidv7 } from '#shared/ids';
import { contractViolation } from '#test/support/contract';

/*
 * The first start of `npm start`, on a table of its own with no curated dataset yet: the server
 * answers at once and the curated endpoints wait for the background load.
 */
describe('first start', () => {
  it('answers health and account calls while the dataset loads; curated endpoints answer 503 with Retry-After and progress, then work', {
    timeout: 120_000,
  }, async () => {
    const runtime = await startLocalRuntime({
      port: 0,
      dataDir: '',
      fresh: false,
      renewalsEverySeconds: 3600,
      dynamo: { endpoint: inject('dynamoEndpoint'), tableName: `outreach-first-${uuidv7()}`, datasetScale: 0.05 },
    });
    try {
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(`${runtime.baseUrl}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${runtime.proKey}`,
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
          body: body ? JSON.stringify(body) : undefined,
        });
        const text = await res.text();
        expect(
          contractViolation(method, new URL(res.url).pathname, res.status, res.headers.get('content-type'), text),
        ).toBeUndefined();
        return { status: res.status, headers: res.headers, body: JSON.parse(text) };
      };
      const resolve = () =>
        call('POST', '/intelligence/resolve', {
          package_id: 'vc-shortlist-v1',
          request_text: '10 seed-stage DeFi VCs',
        });

      let loaded = false;
      void runtime.datasetLoaded.then(() => (loaded = true));
      const waiting = await resolve();
      expect(loaded).toBe(false);
      expect((await call('GET', '/health')).status).toBe(200);
      expect((await call('GET', '/users/me')).body).toMatchObject({ email: 'demo-pro@example.com' });
      expect(waiting.status).toBe(503);
      expect(waiting.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(waiting.body.error).toMatchObject({
        code: 'dataset_loading',
        details: { loaded_items: expect.any(Number) },
      });
      // The total is null until the server knows it (never 0, which would say there is nothing to load).
      const total = waiting.body.error.details.total_items;
      expect(total === null || (typeof total === 'number' && total > 0), String(total)).toBe(true);

      await runtime.datasetLoaded;
      const ready = await resolve();
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({
        intent_status: 'ready_for_quote',
        filled_slots: { sector_focus: 'defi', stage: 'seed' },
      });
      expect(ready.body.coverage.candidate_count).toBeGreaterThan(0);
    } finally {
      await runtime.stop();
    }
  });
});
