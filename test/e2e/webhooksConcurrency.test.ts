import { afterAll, describe, expect, it } from 'vitest';
import { startTestApi } from '#test/support/api';
import { WebhookReceiver } from '#test/support/webhookReceiver';
import { rotateEndpointSecret } from '#shared/domain/webhooks/endpoints';
import { ConflictError } from '#shared/domain/errors';

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
  const res = await api.call('POST', '/bd/jobs', {
    key,
    body: { requested_capabilities: ['email_verify'], input_assets: { contacts: [{ email: 'info@nebulalabs.io' }] } },
  });
  expect(res.status).toBe(202);
  await api.ports.queue.drained();
  return res.body.job_id as string;
}

describe('secret rotation', () => {
  it('of five rotations that arrived together, one answers the secret in use and the others 409', async () => {
    const { key, user } = await api.newUser({ tier: 'pro', credits: 1000 });
    const path = newPath();
    const endpoint = await endpointFor(key, path, { event_types: ['job.completed'] });
    // The instant API Gateway (or the local server) stamps on arrival, the same for all five.
    const arrived = new Date();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, () => rotateEndpointSecret(user.id, endpoint.id, arrived)),
    );
    const won = outcomes.filter((o) => o.status === 'fulfilled') as PromiseFulfilledResult<{ secret: string }>[];
    const lost = outcomes.filter((o) => o.status === 'rejected') as PromiseRejectedResult[];
    expect(won).toHaveLength(1);
    expect(lost.every((o) => o.reason instanceof ConflictError && o.reason.code === 'concurrent_update')).toBe(true);
    receiver.expectSecret(path, won[0].value.secret);
    await runJob(key);
    const [hit] = await receiver.waitFor(path, 1);
    expect(hit.verified).not.toBeNull();
  });

  it('over HTTP, parallel rotations answer 200 or 409 with the error body', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 1000 });
    const path = newPath();
    const endpoint = await endpointFor(key, path, { event_types: ['job.completed'] });
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => api.call('POST', `/webhooks/endpoints/${endpoint.id}/rotate-secret`, { key })),
    );
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('concurrent_update');
      expect(refused.body.request_id).toBe(refused.headers.get('x-request-id'));
    }
    // Requests this loaded machine happened to receive one after another may each win in turn; at least one wins.
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(1);
    expect((await api.call('POST', `/webhooks/endpoints/${endpoint.id}/rotate-secret`, { key })).status).toBe(200);
  });
});

const deliveries = async (key: string, query = '') =>
  (await api.call('GET', `/webhooks/deliveries${query}`, { key })).body;

describe('manual retries', () => {
  it('twenty parallel retries count exactly one attempt per request sent, and no more requests than retries', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 1000 });
    const path = newPath();
    await endpointFor(key, path, { event_types: ['job.completed'] });
    await runJob(key);
    await receiver.waitFor(path, 1);
    await api.ports.webhookQueue.settled();
    const delivery = (await deliveries(key)).items[0];
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1 });

    const answers = await Promise.all(
      Array.from({ length: 20 }, () => api.call('POST', `/webhooks/deliveries/${delivery.id}/retry`, { key })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 20 }, () => 202));
    await receiver.waitFor(path, 2);
    await api.ports.webhookQueue.settled();
    // Retries that overlap one outstanding share it; one that comes after it went is a new one.
    const sent = receiver.at(path).length;
    expect(sent).toBeGreaterThanOrEqual(2);
    expect(sent).toBeLessThanOrEqual(21);
    const after = (await deliveries(key)).items[0];
    // Exactly one attempt counted per request the receiver got.
    expect(after.attempts).toBe(sent);
    expect(after).toMatchObject({ status: 'succeeded', next_attempt_at: null });
    // Once it has gone, another retry sends it again.
    expect((await api.call('POST', `/webhooks/deliveries/${delivery.id}/retry`, { key })).status).toBe(202);
    await receiver.waitFor(path, sent + 1);
    await api.ports.webhookQueue.settled();
    expect((await deliveries(key)).items[0].attempts).toBe(sent + 1);
  });

  it('a manual retry of a failing delivery leaves the automatic schedule as it was', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 1000 });
    const path = newPath();
    receiver.answer(path, 500, 500, 500, 500);
    await endpointFor(key, path, { event_types: ['job.completed'] });
    await runJob(key);
    await receiver.waitFor(path, 1);
    await api.ports.webhookQueue.settled();
    const first = (await deliveries(key)).items[0];
    expect(first).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 500 });
    const scheduled = first.next_attempt_at as string;

    expect((await api.call('POST', `/webhooks/deliveries/${first.id}/retry`, { key })).status).toBe(202);
    await receiver.waitFor(path, 2);
    await api.ports.webhookQueue.settled();
    // The manual attempt is counted, and the 5 s retry is still where it was.
    expect((await deliveries(key)).items[0]).toMatchObject({
      status: 'pending',
      attempts: 2,
      last_status_code: 500,
      next_attempt_at: scheduled,
    });

    // The scheduled attempt comes at its time and is the second of the schedule: the next one waits 5 minutes.
    const [, , third] = await receiver.waitFor(path, 3, 20_000);
    expect(third.status).toBe(500);
    await api.ports.webhookQueue.settled();
    const after = (await deliveries(key)).items[0];
    expect(after).toMatchObject({ status: 'pending', attempts: 3 });
    const wait = Date.parse(after.next_attempt_at) - Date.parse(scheduled);
    expect(wait).toBeGreaterThanOrEqual(5 * 60_000);
    expect(wait).toBeLessThan(5 * 60_000 + 10_000);
  });
});
