import { describe, expect, it } from 'vitest';
import { dynamoRequestCount } from '#shared/store/client';
import { startTestApi } from '#test/support/api';

/**
 * Issue 11 item 4, hot authenticated GETs: with the authorizer's answer cached (API Gateway keeps it
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
    const job = (await api.call('POST', '/bd/jobs', { key, body: { preset: 'verify_existing_emails', input_assets: { contacts: [{ email: 'ada@example.com' }] } } })).body;
    await api.ports.queue.drained();
    const costs: Record<string, number> = {};
    for (const path of ['/users/me', '/subscriptions/status', '/chats', `/bd/jobs/${job.job_id}`, '/bd/jobs', '/credits/usage']) {
      expect((await api.call('GET', path, { key })).status).toBe(200);
      costs[path] = await requestsFor(() => api.call('GET', path, { key }));
    }
    for (const [path, cost] of Object.entries(costs)) expect(cost, path).toBe(2);
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
