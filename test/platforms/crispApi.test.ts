import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { CrispApi, CRISP_DEFAULT_RETRY_SECONDS } from '#shared/platforms/crisp/api';
import { isTransient } from '#shared/platforms/result';
import { startCrispStandIn } from '#bin/standIns/crispStandIn';
import { startJsonServer } from '#bin/standIns/httpStandIn';

const crisp = await startCrispStandIn('plugin-identifier', 'plugin-key');
afterAll(() => crisp.close());
beforeEach(() => crisp.reset());

const api = () => new CrispApi('plugin-identifier', 'plugin-key', crisp.apiBase);
const ROUTE = '/website/w-1/conversation/session_a/block';

describe('CrispApi', () => {
  it("sends Basic identifier:key with X-Crisp-Tier: plugin and a JSON body, answering the envelope's data", async () => {
    const sent = await api().request('POST', '/website/w-1/conversation/session_a/message', {
      type: 'note',
      from: 'operator',
      origin: 'chat',
      content: 'hi',
    });
    expect(sent).toEqual({ ok: true, result: { fingerprint: expect.any(Number) } });
    expect(crisp.calls).toEqual([
      {
        method: 'POST',
        path: '/website/w-1/conversation/session_a/message',
        body: { type: 'note', from: 'operator', origin: 'chat', content: 'hi' },
      },
    ]);
    expect(await api().request('PATCH', ROUTE, { blocked: true })).toEqual({ ok: true, result: {} });
    expect(crisp.isBlocked('w-1', 'session_a')).toBe(true);
  });

  it("wrong credentials are a final 401 with Crisp's reason", async () => {
    const out = await new CrispApi('plugin-identifier', 'wrong', crisp.apiBase).request('PATCH', ROUTE, {
      blocked: true,
    });
    expect(out).toEqual({ ok: false, status: 401, error: `PATCH ${ROUTE}: invalid_session` });
    expect(isTransient(out)).toBe(false);
    expect(crisp.calls).toEqual([]);
  });

  it('429 and 420 are rate limits with a wait: Retry-After when given, a default otherwise', async () => {
    crisp.limitNext(/block$/, 429, 12);
    crisp.limitNext(/block$/, 420);
    const first = await api().request('PATCH', ROUTE, { blocked: true });
    expect(first).toEqual({ ok: false, status: 429, error: `PATCH ${ROUTE}: rate_limited`, retryAfterSeconds: 12 });
    const second = await api().request('PATCH', ROUTE, { blocked: true });
    expect(second).toEqual({
      ok: false,
      status: 420,
      error: `PATCH ${ROUTE}: rate_limited`,
      retryAfterSeconds: CRISP_DEFAULT_RETRY_SECONDS,
    });
    expect(isTransient(first) && isTransient(second)).toBe(true);
    expect(await api().request('PATCH', ROUTE, { blocked: true })).toMatchObject({ ok: true });
  });

  it('a refusal is final with its reason; a 2xx whose envelope says error is a failure too', async () => {
    const refused = await api().request('DELETE', '/website/w-1/conversation/session_a/message/not-a-number');
    expect(refused).toEqual({
      ok: false,
      status: 400,
      error: 'DELETE /website/w-1/conversation/session_a/message/not-a-number: invalid_data',
    });
    expect(isTransient(refused)).toBe(false);
    const odd = await startJsonServer(() => ({
      status: 200,
      body: { error: true, reason: 'website_not_found', data: {} },
    }));
    try {
      expect(await new CrispApi('i', 'k', odd.url).request('GET', '/website/x')).toEqual({
        ok: false,
        status: 200,
        error: 'GET /website/x: website_not_found',
      });
    } finally {
      await odd.close();
    }
  });

  it("Crisp's own trouble and an unreachable base are transient", async () => {
    const down = await startJsonServer(() => ({ status: 503 }));
    try {
      const out = await new CrispApi('i', 'k', down.url).request('GET', '/website/x');
      expect(out).toEqual({ ok: false, status: 503, error: 'GET /website/x: HTTP 503' });
      expect(isTransient(out)).toBe(true);
    } finally {
      await down.close();
    }
    const unreachable = await new CrispApi('i', 'k', 'http://127.0.0.1:1').request('GET', '/website/x');
    expect(unreachable).toMatchObject({ ok: false, status: 0 });
    expect(isTransient(unreachable)).toBe(true);
  });
});
