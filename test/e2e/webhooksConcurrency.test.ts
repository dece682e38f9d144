import { afterAll, describe, expect, it } from 'vitest';
import { startTestApi } from '#test/support/api';
import { WebhookReceiver } from '#test/support/webhookReceiver';

/** Outbound webhooks under parallel requests of one owner: secret rotation. */
const api = await startTestApi();
process.env.PUBLIC_BASE_URL = api.baseUrl;
const receiver = await new WebhookReceiver().start();
afterAll(() => receiver.stop());

let paths = 0;
const newPath = () => `/concurrent-${++paths}-${Date.now()}`;

async function endpointFor(key: string, path: string, body: Record<string, unknown> = {}) {
  const res = await api.call('POST', '/webhooks/endpoints', { key, body: { url: receiver.url(path), ...body } });
  expect(res.status).toBe(201);
  receiver.expectSecret(path, res.body.secret);
  return res.body;
}

async function runJob(key: string) {
  const res = await api.call('POST', '/bd/jobs', { key, body: { requested_capabilities: ['email_verify'], input_assets: { contacts: [{ email: 'info@nebulalabs.io' }] } } });
  expect(res.status).toBe(202);
  await api.ports.queue.drained();
  return res.body.job_id as string;
}

describe('secret rotation', () => {
  it('of five parallel rotations, every secret answered with 200 is the one that signs; the others are 409', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 1000 });
    const path = newPath();
    const endpoint = await endpointFor(key, path, { event_types: ['job.completed'] });
    const answers = await Promise.all(Array.from({ length: 5 }, () => api.call('POST', `/webhooks/endpoints/${endpoint.id}/rotate-secret`, { key })));
    const shown = new Set(answers.filter((a) => a.status === 200).map((a) => a.body.secret as string));
    expect(shown.size).toBe(1);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('concurrent_update');
      expect(refused.body.request_id).toBe(refused.headers.get('x-request-id'));
    }
    const [secret] = shown;
    expect(secret).not.toBe(endpoint.secret);
    receiver.expectSecret(path, secret);
    await runJob(key);
    const [hit] = await receiver.waitFor(path, 1);
    expect(hit.verified).not.toBeNull();
    // A later rotation on its own still succeeds.
    expect((await api.call('POST', `/webhooks/endpoints/${endpoint.id}/rotate-secret`, { key })).status).toBe(200);
  });
});
