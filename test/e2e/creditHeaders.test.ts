import { describe, expect, it } from 'vitest';
import { startTestApi } from '#test/support/api';
import { getBalance } from '#shared/domain/credits/credits';

const api = await startTestApi();
const NEBULA = { company_name: 'Nebula Labs', domain: 'nebulalabs.io' };

const creditHeaders = (headers: Headers) => ({
  charged: headers.get('x-credits-charged'),
  remaining: headers.get('x-credits-remaining'),
});

describe('X-Credits-Charged and X-Credits-Remaining', () => {
  it('a provisioning charge reports the credits taken and the balance left', async () => {
    const { key, user } = await api.newUser({ credits: 1200 });
    const res = await api.call('POST', '/integrations/moderation/communities', {
      key,
      body: { name: 'c', project_name: 'Acme', type: 'reddit' },
    });
    expect(res.status).toBe(201);
    expect(creditHeaders(res.headers)).toEqual({ charged: '500', remaining: '700' });
    expect((await getBalance(user.id)).available).toBe(700);
  });

  it('a job reservation reports what was reserved; cancelling it reports what was given back (negative)', async () => {
    const { key, user } = await api.newUser({ tier: 'pro', credits: 1000 });
    api.ports.queue.stop(); // hold the job still so the cancel releases its whole reservation
    try {
      const created = await api.call('POST', '/bd/jobs', {
        key,
        body: { preset: 'full_pipeline', input_assets: { companies: [NEBULA] } },
      });
      expect(created.status).toBe(202);
      const reserved = created.body.credits_reserved as number;
      expect(reserved).toBeGreaterThan(0);
      expect(creditHeaders(created.headers)).toEqual({ charged: String(reserved), remaining: String(1000 - reserved) });

      const cancelled = await api.call('POST', `/bd/jobs/${created.body.job_id}/cancel`, { key });
      expect(cancelled.status).toBe(202);
      expect(creditHeaders(cancelled.headers)).toEqual({ charged: String(-reserved), remaining: '1000' });
      expect((await getBalance(user.id)).available).toBe(1000);
    } finally {
      const { workerHandler } = await import('#bin/local/handlers');
      api.ports.queue.setConsumer(async (event) => (await workerHandler())(event));
    }
  });

  it('responses that move no credits carry neither header, refusals included', async () => {
    const { key } = await api.newUser({ credits: 100 });
    const read = await api.call('GET', '/users/me', { key });
    expect(creditHeaders(read.headers)).toEqual({ charged: null, remaining: null });
    const refused = await api.call('POST', '/integrations/moderation/communities', {
      key,
      body: { name: 'c', project_name: 'Acme', type: 'reddit' },
    });
    expect(refused.status).toBe(402);
    expect(creditHeaders(refused.headers)).toEqual({ charged: null, remaining: null });
  });

  it('an Idempotency-Key replay repeats the first response, headers included, charging once', async () => {
    const { key, user } = await api.newUser({ credits: 1200 });
    const headers = { 'idempotency-key': `c-${user.id}` };
    const body = { name: 'c', project_name: 'Acme', type: 'reddit' };
    const first = await api.call('POST', '/integrations/moderation/communities', { key, body, headers });
    const again = await api.call('POST', '/integrations/moderation/communities', { key, body, headers });
    expect(creditHeaders(again.headers)).toEqual(creditHeaders(first.headers));
    expect((await getBalance(user.id)).available).toBe(700);
  });
});
