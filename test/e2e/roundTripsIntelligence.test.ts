import { describe, expect, it } from 'vitest';
import { PACKAGES } from '../../shared/domain/intelligence/packages';
import { ddb, dynamoRequestCount } from '../../shared/store/client';
import { startTestApi } from '../support/api';

/**
 * Issue 11 item 4, the paid intelligence calls: an execute of a package's example costs at most four
 * DynamoDB requests and a contact_unlock expansion at most six (the caller's profile included; the
 * authorizer's answer is cached as in AWS). The counter sees every request this process sends.
 */
const api = await startTestApi();

const sent: string[] = [];
const client = ddb();
const send = client.send.bind(client);
(client as unknown as { send: (c: { constructor: { name: string } }) => unknown }).send = (command) => {
  sent.push(command.constructor.name);
  return send(command as never);
};

async function requestsFor<T>(call: () => Promise<T>): Promise<{ count: number; commands: string[]; out: T }> {
  const before = dynamoRequestCount();
  sent.length = 0;
  const out = await call();
  return { count: dynamoRequestCount() - before, commands: [...sent], out };
}

const vc = PACKAGES['vc-shortlist-v1'];

describe('paid intelligence calls', () => {
  it('an execute of the vc-shortlist example costs at most four DynamoDB requests', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 100_000 });
    expect((await api.call('GET', '/users/me', { key })).status).toBe(200);
    const quote = await api.call('POST', '/intelligence/quote', { key, body: { package_id: vc.id, slots: vc.example.slots } });
    expect(quote.status).toBe(200);
    const { count, commands, out } = await requestsFor(() => api.call('POST', '/intelligence/execute', { key, body: { package_id: vc.id, slots: vc.example.slots, quote_token: quote.body.quote_token } }));
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    console.log('execute', count, commands);
    expect(count, commands.join(', ')).toBeLessThanOrEqual(4);
  });

  it('a contact_unlock expansion costs at most six DynamoDB requests', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 100_000 });
    expect((await api.call('GET', '/users/me', { key })).status).toBe(200);
    const quote = await api.call('POST', '/intelligence/quote', { key, body: { package_id: vc.id, slots: vc.example.slots } });
    const executed = await api.call('POST', '/intelligence/execute', { key, body: { package_id: vc.id, slots: vc.example.slots, quote_token: quote.body.quote_token } });
    expect(executed.status).toBe(200);
    const body = { parent_result_id: executed.body.result_id, expansion_type: 'contact_unlock', expansion_params: { selection: { mode: 'top_n', n: 3 }, contact_tier: 'email' } };
    const q = await api.call('POST', '/intelligence/quote', { key, body: { package_id: vc.id, expansion_scope: body } });
    expect(q.status, JSON.stringify(q.body)).toBe(200);
    const { count, commands, out } = await requestsFor(() => api.call('POST', '/intelligence/expand', { key, body: { ...body, quote_token: q.body.quote_token } }));
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(out.body.credits_charged).toBeGreaterThan(0);
    console.log('contact_unlock', count, commands);
    expect(count, commands.join(', ')).toBeLessThanOrEqual(6);
  });
});
