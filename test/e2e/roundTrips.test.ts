import { describe, expect, it } from 'vitest';
import { dynamoRequestCount } from '#shared/store/client';
import { startTestApi } from '#test/support/api';
import { PACKAGES } from '#shared/domain/intelligence/packages';

/**
 * hot authenticated GETs: with the authorizer's answer cached (API Gateway keeps it
 * 300 s; the local server does the same), a repeated GET costs the caller's profile and the resource.
 * The counter sees every DynamoDB request this process sends, server included.
 */
const api = await startTestApi();

async function requestsFor(call: () => Promise<unknown>): Promise<number> {
  const before = dynamoRequestCount();
  await call();
  return dynamoRequestCount() - before;
}

describe('hot authenticated GETs', () => {
  it('cost two DynamoDB requests once the key was seen: the caller and what is asked for', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 1000 });
    const job = (
      await api.call('POST', '/bd/jobs', {
        key,
        body: { preset: 'verify_existing_emails', input_assets: { contacts: [{ email: 'ada@example.com' }] } },
      })
    ).body;
    await api.ports.queue.drained();
    const costs: Record<string, number> = {};
    for (const path of [
      '/users/me',
      '/subscriptions/status',
      '/chats',
      `/bd/jobs/${job.job_id}`,
      '/bd/jobs',
      '/credits/usage',
    ]) {
      expect((await api.call('GET', path, { key })).status).toBe(200);
      costs[path] = await requestsFor(() => api.call('GET', path, { key }));
    }
    for (const [path, cost] of Object.entries(costs)) expect(cost, path).toBe(2);
  });

  it('read a stored result with its data in one BatchGetItem after the caller', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 100_000 });
    const pkg = PACKAGES['vc-shortlist-v1'];
    const quote = await api.call('POST', '/intelligence/quote', {
      key,
      body: { package_id: pkg.id, slots: pkg.example.slots },
    });
    const executed = await api.call('POST', '/intelligence/execute', {
      key,
      body: { package_id: pkg.id, slots: pkg.example.slots, quote_token: quote.body.quote_token },
    });
    expect(executed.status, JSON.stringify(executed.body)).toBe(200);
    // An intelligence result also prices its contact_unlock follow-up, which reads what the caller has
    // unlocked of the package's entity kind (known only once the result is read): one more request.
    const expected = new Map([
      [`/results/${executed.body.result_id}`, 2],
      [`/intelligence/results/${executed.body.result_id}`, 3],
    ]);
    for (const [path, cost] of expected) {
      const first = await api.call('GET', path, { key });
      expect(first.status, path).toBe(200);
      expect(await requestsFor(() => api.call('GET', path, { key })), path).toBe(cost);
    }
  });

  it('still refuses a rotated key at once, although its authorizer answer is cached', async () => {
    const { key } = await api.newUser();
    expect((await api.call('GET', '/users/me', { key })).status).toBe(200);
    const rotated = await api.call('POST', '/users/me/api-key', { key });
    expect(rotated.status).toBe(200);
    expect((await api.call('GET', '/users/me', { key })).status).toBe(401);
    expect((await api.call('GET', '/users/me', { key: rotated.body.api_key })).status).toBe(200);
  });
});
