import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startTestApi } from '#test/support/api';
import { interruptedGrowthRun } from '#test/support/interruptedRun';
import { WebhookReceiver } from '#test/support/webhookReceiver';
import { installPorts } from '#shared/adapters/ports';
import { ManualClock, systemClock } from '#shared/adapters/clock';
import type { QueueMessage } from '#shared/adapters/queue';
import { renewDueCommunities } from '#shared/domain/moderation/renewals';
import { sweepWebhooks } from '#shared/domain/webhooks/sweep';
import { announce, webhookEvent } from '#shared/domain/webhooks/outbox';
import { writeTogether } from '#shared/store/transactions';
import { closeJob } from '#shared/domain/jobs/closeJob';
import { getJob } from '#shared/store/jobsRepo';
import { listUndispatched } from '#shared/store/webhookEventsRepo';
import { WEBHOOK_EVENT_TYPES } from '#shared/schemas/outboundWebhooks';
import { putEndpointItem, type WebhookEndpointRecord } from '#shared/store/webhookEndpointsRepo';
import { getBalance } from '#shared/domain/credits/credits';
import { failRunBeforeStart } from '#shared/domain/growth/failBeforeStart';
import { reloadConfig } from '#shared/config/config';
import { useOwnTable } from '#test/support/ownTable';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from '#shared/store/client';
import { idempotencyKey, webhookEndpointKey } from '#shared/store/keys';

// The renewal and outbox sweeps here act on every due community and undispatched event of the table,
// another file's included: this file has a table of its own.
await useOwnTable('outreach-webhooks');
const api = await startTestApi();
// Events link to the API the way `npm start` and the stack configure it.
process.env.PUBLIC_BASE_URL = api.baseUrl;
const receiver = await new WebhookReceiver().start();
afterAll(() => receiver.stop());
afterEach(() => {
  process.env.WEBHOOK_ADDRESS_POLICY = 'local';
});

let paths = 0;
const newPath = () => `/hook-${++paths}-${Date.now()}`;
const NEBULA = { company_name: 'Nebula Labs', domain: 'nebulalabs.io' };

async function endpointFor(key: string, path: string, body: Record<string, unknown> = {}) {
  const res = await api.call('POST', '/webhooks/endpoints', { key, body: { url: receiver.url(path), ...body } });
  expect(res.status).toBe(201);
  receiver.expectSecret(path, res.body.secret);
  return res.body;
}

async function runJob(key: string) {
  const res = await api.call('POST', '/bd/jobs', {
    key,
    body: { preset: 'full_pipeline', input_assets: { companies: [NEBULA] } },
  });
  expect(res.status).toBe(202);
  await api.ports.queue.drained();
  return res.body.job_id as string;
}

const deliveries = async (key: string, query = '') =>
  (await api.call('GET', `/webhooks/deliveries${query}`, { key })).body;

describe('webhook endpoints API', () => {
  it('creates (secret shown once), lists, reads, rotates and deletes an endpoint', async () => {
    const { key } = await api.newUser();
    const created = await api.call('POST', '/webhooks/endpoints', {
      key,
      body: { url: receiver.url('/a'), event_types: ['job.failed', 'job.completed', 'job.failed'], description: 'CRM' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      url: receiver.url('/a'),
      event_types: ['job.completed', 'job.failed'],
      description: 'CRM',
      status: 'enabled',
      secret: expect.stringMatching(/^whsec_/),
    });
    const id = created.body.id;

    const read = await api.call('GET', `/webhooks/endpoints/${id}`, { key });
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('secret');
    const list = await api.call('GET', '/webhooks/endpoints', { key });
    expect(list.body).toMatchObject({ total: 1, items: [{ id }] });
    expect(list.body.items[0]).not.toHaveProperty('secret');

    const rotated = await api.call('POST', `/webhooks/endpoints/${id}/rotate-secret`, { key });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);

    expect((await api.call('DELETE', `/webhooks/endpoints/${id}`, { key })).status).toBe(204);
    expect((await api.call('GET', `/webhooks/endpoints/${id}`, { key })).status).toBe(404);
    expect((await api.call('DELETE', `/webhooks/endpoints/${id}`, { key })).status).toBe(404);
  });

  it('subscribes to every event type when event_types is left out', async () => {
    const { key } = await api.newUser();
    expect((await endpointFor(key, '/all')).event_types).toEqual(WEBHOOK_EVENT_TYPES);
  });

  const invalid: [string, unknown][] = [
    ['a missing url', {}],
    ['a url that is not a URL', { url: 'hooks' }],
    ['an ftp url', { url: 'ftp://127.0.0.1/x' }],
    ['plain http to a remote host', { url: 'http://hooks.example.com/x' }],
    ['a private address', { url: 'http://10.0.0.8/x' }],
    ['an unknown event type', { url: 'http://127.0.0.1:9/x', event_types: ['job.exploded'] }],
    ['an empty event type list', { url: 'http://127.0.0.1:9/x', event_types: [] }],
    ['an unknown property', { url: 'http://127.0.0.1:9/x', secret: 'mine' }],
  ];
  for (const [name, body] of invalid) {
    it(`400 validation_error for ${name}, nothing created`, async () => {
      const { key } = await api.newUser();
      const res = await api.call('POST', '/webhooks/endpoints', { key, body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect((await api.call('GET', '/webhooks/endpoints', { key })).body.total).toBe(0);
    });
  }

  it("a foreign user gets 404 for another's endpoint and never sees it listed", async () => {
    const owner = await api.newUser();
    const stranger = await api.newUser();
    const { id } = await endpointFor(owner.key, '/private');
    for (const [method, path] of [
      ['GET', `/webhooks/endpoints/${id}`],
      ['DELETE', `/webhooks/endpoints/${id}`],
      ['POST', `/webhooks/endpoints/${id}/rotate-secret`],
    ]) {
      const res = await api.call(method, path, { key: stranger.key });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expect((await api.call('GET', '/webhooks/endpoints', { key: stranger.key })).body.total).toBe(0);
    expect((await api.call('GET', `/webhooks/endpoints/${id}`, { key: owner.key })).status).toBe(200);
  });
});

describe('the limit of 20 endpoints per account', () => {
  const create = (key: string, i: number) =>
    api.call('POST', '/webhooks/endpoints', { key, body: { url: receiver.url(`/limit-${i}`) } });
  const statuses = (answers: { status: number }[]) => answers.map((a) => a.status).sort();

  it('holds under 30 parallel creates; a delete frees a place', async () => {
    const { key } = await api.newUser();
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => create(key, i)));
    expect(statuses(answers)).toEqual([...Array(20).fill(201), ...Array(10).fill(422)]);
    expect(answers.find((a) => a.status === 422)!.body.error.code).toBe('invalid_state');
    const listed = await api.call('GET', '/webhooks/endpoints?limit=100', { key });
    expect(listed.body.total).toBe(20);
    expect((await api.call('DELETE', `/webhooks/endpoints/${listed.body.items[0].id}`, { key })).status).toBe(204);
    expect((await api.call('DELETE', `/webhooks/endpoints/${listed.body.items[0].id}`, { key })).status).toBe(404);
    expect(statuses(await Promise.all([create(key, 100), create(key, 101)]))).toEqual([201, 422]);
  });

  it('counts the endpoints of an account made before the count, also when it starts with a delete', async () => {
    const { key, user } = await api.newUser();
    const legacy = (i: number): WebhookEndpointRecord => ({
      id: `01900000-0000-7000-8000-${String(i).padStart(12, '0')}`,
      userId: user.id,
      url: receiver.url(`/legacy-${i}`),
      eventTypes: [...WEBHOOK_EVENT_TYPES],
      description: null,
      secret: 'whsec_bGVnYWN5',
      status: 'enabled',
      disabledReason: null,
      failingSince: null,
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    });
    for (let i = 0; i < 19; i++) await writeTogether({ endpoint: putEndpointItem(legacy(i)) });
    expect(statuses(await Promise.all(Array.from({ length: 5 }, (_, i) => create(key, 200 + i))))).toEqual([
      201, 422, 422, 422, 422,
    ]);

    const other = await api.newUser();
    for (let i = 0; i < 20; i++)
      await writeTogether({ endpoint: putEndpointItem({ ...legacy(i), userId: other.user.id }) });
    expect((await create(other.key, 300)).status).toBe(422);
    expect((await api.call('DELETE', `/webhooks/endpoints/${legacy(3).id}`, { key: other.key })).status).toBe(204);
    expect(
      statuses(await Promise.all([create(other.key, 301), create(other.key, 302), create(other.key, 303)])),
    ).toEqual([201, 422, 422]);
  });
});

describe('signing secrets at rest', () => {
  const stored = async (k: { pk: string; sk: string }) =>
    JSON.stringify((await ddb().send(new GetCommand({ TableName: table(), Key: k }))).Item ?? null);

  it('are sealed on the endpoint and in the idempotent replay, which still answers the same secret; deliveries verify', async () => {
    const { key, user } = await api.newUser({ tier: 'pro', credits: 1000 });
    const path = newPath();
    const body = { url: receiver.url(path), event_types: ['job.completed'] };
    const headers = { 'idempotency-key': `create-${path}` };
    const created = await api.call('POST', '/webhooks/endpoints', { key, body, headers });
    expect(created.status).toBe(201);
    const secret = created.body.secret as string;
    const replayed = await api.call('POST', '/webhooks/endpoints', { key, body, headers });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body.secret).toBe(secret);

    const secretPart = secret.slice('whsec_'.length);
    const endpointItem = await stored(webhookEndpointKey(user.id, created.body.id));
    expect(endpointItem).toContain(created.body.id);
    expect(endpointItem).not.toContain(secretPart);
    const replayItem = await stored(idempotencyKey(user.id, `create-${path}`));
    expect(replayItem).toContain('completed');
    expect(replayItem).not.toContain(secretPart);

    receiver.expectSecret(path, secret);
    await runJob(key);
    const [hit] = await receiver.waitFor(path, 1);
    expect(hit.verified?.type).toBe('job.completed');

    const rotated = await api.call('POST', `/webhooks/endpoints/${created.body.id}/rotate-secret`, { key });
    expect(rotated.status).toBe(200);
    expect(await stored(webhookEndpointKey(user.id, created.body.id))).not.toContain(
      (rotated.body.secret as string).slice('whsec_'.length),
    );
  });

  it('an endpoint from before sealing (its secret in the clear) still signs; its rotation seals the new one and drops the old', async () => {
    const { key, user } = await api.newUser({ tier: 'pro', credits: 1000 });
    const path = newPath();
    const id = crypto.randomUUID();
    const secret = `whsec_${Buffer.from('legacy-secret-of-32-bytes-long!!').toString('base64')}`;
    const at = new Date().toISOString();
    await writeTogether({
      endpoint: putEndpointItem({
        id,
        userId: user.id,
        url: receiver.url(path),
        eventTypes: ['job.completed'],
        description: null,
        secret,
        status: 'enabled',
        disabledReason: null,
        failingSince: null,
        createdAt: at,
        updatedAt: at,
      }),
    });
    receiver.expectSecret(path, secret);
    await runJob(key);
    expect((await receiver.waitFor(path, 1))[0].verified?.type).toBe('job.completed');
    const rotated = await api.call('POST', `/webhooks/endpoints/${id}/rotate-secret`, { key });
    expect(rotated.status).toBe(200);
    const item = await stored(webhookEndpointKey(user.id, id));
    expect(item).toContain('sealedSecret');
    expect(item).not.toContain(secret.slice('whsec_'.length));
    expect(item).not.toContain((rotated.body.secret as string).slice('whsec_'.length));
  });
});

describe('deployed address policy', () => {
  it('refuses http, private addresses and names resolving to them; accepts https to a public address', async () => {
    process.env.WEBHOOK_ADDRESS_POLICY = 'deployed';
    reloadConfig();
    const { key } = await api.newUser();
    api.ports.hostResolver.set('public.customer.test', ['93.184.216.34']);
    api.ports.hostResolver.set('internal.customer.test', ['93.184.216.34', '172.31.0.9']);
    api.ports.hostResolver.set('metadata.customer.test', ['169.254.169.254']);
    for (const url of [
      'http://public.customer.test/in',
      receiver.url('/x'),
      'https://127.0.0.1/in',
      'https://[fd00:ec2::254]/in',
      'https://internal.customer.test/in',
      'https://metadata.customer.test/in',
      'https://nxdomain.customer.test/in',
    ]) {
      const res = await api.call('POST', '/webhooks/endpoints', { key, body: { url } });
      expect(res.status, url).toBe(400);
      expect(res.body.error.details[0].path).toBe('body.url');
    }
    expect(
      (await api.call('POST', '/webhooks/endpoints', { key, body: { url: 'https://public.customer.test/in' } })).status,
    ).toBe(201);
  });

  it('re-checks the address at delivery: a DNS answer turned private is refused and nothing is sent', async () => {
    process.env.WEBHOOK_ADDRESS_POLICY = 'deployed';
    reloadConfig();
    const { key } = await api.newUser({ tier: 'pro', credits: 1000 });
    api.ports.hostResolver.set('rebinding.customer.test', ['93.184.216.34']);
    const endpoint = (
      await api.call('POST', '/webhooks/endpoints', {
        key,
        body: { url: 'https://rebinding.customer.test/in', event_types: ['job.completed'] },
      })
    ).body;
    api.ports.hostResolver.set('rebinding.customer.test', ['10.0.0.7']);
    const before = receiver.received.length;
    await runJob(key);
    await api.ports.webhookQueue.settled();
    const log = await deliveries(key, `?endpoint_id=${endpoint.id}`);
    expect(log.items).toHaveLength(1);
    expect(log.items[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_status_code: null,
      last_error: expect.stringContaining('destination refused'),
    });
    expect(receiver.received.length).toBe(before);
  });
});

describe('events and deliveries', () => {
  it('a completed job reaches the receiver signed, verifiable, with the job as GET returns it', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 1000 });
    const path = newPath();
    const endpoint = await endpointFor(key, path, { event_types: ['job.completed'] });
    const jobId = await runJob(key);
    const [hit] = await receiver.waitFor(path, 1);
    expect(hit.verified).not.toBeNull();
    expect(hit.verified).toMatchObject({
      type: 'job.completed',
      data: (await api.call('GET', `/bd/jobs/${jobId}`, { key })).body,
    });
    expect(hit.headers['webhook-id']).toBe(hit.verified!.id);
    // Verifiable with the secret, and only with it.
    expect(() => new Webhook(endpoint.secret).verify(hit.body, hit.headers)).not.toThrow();
    expect(() => new Webhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw').verify(hit.body, hit.headers)).toThrow();
    await api.ports.webhookQueue.settled();
    expect((await deliveries(key)).items).toEqual([
      expect.objectContaining({
        event_id: hit.verified!.id,
        event_type: 'job.completed',
        endpoint_id: endpoint.id,
        status: 'succeeded',
        attempts: 1,
        last_status_code: 204,
        next_attempt_at: null,
      }),
    ]);
  });

  it('an endpoint filtered to other types gets nothing', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 1000 });
    const path = newPath();
    await endpointFor(key, path, { event_types: ['community.renewed'] });
    await runJob(key);
    await api.ports.webhookQueue.settled();
    expect(receiver.at(path)).toHaveLength(0);
    expect((await deliveries(key)).items).toHaveLength(0);
  });

  it('a receiver that fails and recovers gets the same webhook-id again, on the 5 s retry', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 1000 });
    const path = newPath();
    receiver.answer(path, 500);
    await endpointFor(key, path, { event_types: ['job.completed'] });
    await runJob(key);
    const [first] = await receiver.waitFor(path, 1);
    expect(first.status).toBe(500);
    await api.ports.webhookQueue.settled();
    const pending = (await deliveries(key)).items[0];
    expect(pending).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 500 });
    const wait = Date.parse(pending.next_attempt_at) - Date.parse(pending.created_at);
    expect(wait).toBeGreaterThanOrEqual(5000);
    expect(wait).toBeLessThan(7000);

    const [, second] = await receiver.waitFor(path, 2, 15_000);
    expect(second.status).toBe(204);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.body).toBe(first.body);
    expect(second.verified).not.toBeNull();
    await api.ports.webhookQueue.settled();
    expect((await deliveries(key)).items[0]).toMatchObject({
      status: 'succeeded',
      attempts: 2,
      last_status_code: 204,
      next_attempt_at: null,
    });
  });

  it('manual retry sends the delivery again with the same webhook-id; a foreign user can neither see nor retry it', async () => {
    const owner = await api.newUser({ tier: 'pro', credits: 1000 });
    const stranger = await api.newUser();
    const path = newPath();
    const endpoint = await endpointFor(owner.key, path, { event_types: ['job.completed'] });
    await runJob(owner.key);
    const [first] = await receiver.waitFor(path, 1);
    await api.ports.webhookQueue.settled();
    const delivery = (await deliveries(owner.key)).items[0];

    expect((await deliveries(stranger.key)).items).toHaveLength(0);
    expect((await deliveries(stranger.key, `?endpoint_id=${endpoint.id}`)).items).toHaveLength(0);
    const foreign = await api.call('POST', `/webhooks/deliveries/${delivery.id}/retry`, { key: stranger.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    await api.ports.webhookQueue.settled();
    expect(receiver.at(path)).toHaveLength(1);

    const retried = await api.call('POST', `/webhooks/deliveries/${delivery.id}/retry`, { key: owner.key });
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({ id: delivery.id, status: 'pending' });
    const [, again] = await receiver.waitFor(path, 2);
    expect(again.headers['webhook-id']).toBe(first.headers['webhook-id']);
    await api.ports.webhookQueue.settled();
    expect((await deliveries(owner.key, '?status=succeeded')).items[0]).toMatchObject({ id: delivery.id, attempts: 2 });
  });

  it('400 for a malformed delivery id or filter; 404 for an unknown delivery', async () => {
    const { key } = await api.newUser();
    expect((await api.call('POST', '/webhooks/deliveries/not-a-uuid/retry', { key })).status).toBe(400);
    expect((await api.call('GET', '/webhooks/deliveries?status=lost', { key })).status).toBe(400);
    expect(
      (await api.call('POST', '/webhooks/deliveries/0190b5c2-1234-7abc-8def-0123456789ab/retry', { key })).status,
    ).toBe(404);
  });

  it('a community renewal and a suspension each produce a signed delivery', async () => {
    // In a year of its own, before any other community of this file's table, so these sweeps renew only this one.
    const clock = new ManualClock(new Date('2019-03-01T00:00:00.000Z'));
    installPorts({ clock });
    try {
      const { key } = await api.newUser({ credits: 1000 });
      const path = newPath();
      await endpointFor(key, path, { event_types: ['community.renewed', 'community.suspended'] });
      const community = (
        await api.call('POST', '/integrations/moderation/communities', {
          key,
          body: { name: 'c', project_name: 'Acme', type: 'reddit' },
        })
      ).body;
      clock.set(new Date(Date.parse(community.next_billing_at) + 1000));
      expect((await renewDueCommunities()).renewed).toBe(1);
      const [renewed] = await receiver.waitFor(path, 1);
      expect(renewed.verified).toMatchObject({ type: 'community.renewed', data: { id: community.id } });
      clock.advance(30 * 86_400_000);
      expect((await renewDueCommunities()).suspended).toBe(1);
      const [, suspended] = await receiver.waitFor(path, 2);
      expect(suspended.verified).toMatchObject({
        type: 'community.suspended',
        data: { id: community.id, status: 'suspended' },
      });
    } finally {
      installPorts({ clock: systemClock });
    }
  });
});

describe('failing endpoints and growth runs', () => {
  it('an endpoint whose deliveries fail for 5 days is disabled; its deliveries then fail and cannot be retried', async () => {
    const clock = new ManualClock(new Date());
    installPorts({ clock });
    try {
      const { key, user } = await api.newUser();
      const path = newPath();
      receiver.answer(path, ...Array.from({ length: 10 }, () => 503));
      const endpoint = await endpointFor(key, path, { event_types: ['credits.low'] });
      // A state change of a test's own: the event rides in its transaction, as every producer's does.
      const event = webhookEvent(user.id, 'credits.low', { kind: 'credits', id: user.id }, clock.now().toISOString(), {
        extra: { available: 10, threshold: 100 },
      });
      await writeTogether({ event: event.item });
      await announce([event]);
      const [first] = await receiver.waitFor(path, 1);
      expect(first.verified).toMatchObject({ type: 'credits.low', data: { available: 10, threshold: 100 } });
      await api.ports.webhookQueue.settled();
      const delivery = (await deliveries(key)).items[0];
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 503 });

      clock.advance(4 * 86_400_000);
      expect((await api.call('POST', `/webhooks/deliveries/${delivery.id}/retry`, { key })).status).toBe(202);
      await receiver.waitFor(path, 2);
      await api.ports.webhookQueue.settled();
      expect((await api.call('GET', `/webhooks/endpoints/${endpoint.id}`, { key })).body.status).toBe('enabled');

      clock.advance(86_400_000);
      expect((await api.call('POST', `/webhooks/deliveries/${delivery.id}/retry`, { key })).status).toBe(202);
      await receiver.waitFor(path, 3);
      await api.ports.webhookQueue.settled();
      expect((await api.call('GET', `/webhooks/endpoints/${endpoint.id}`, { key })).body).toMatchObject({
        status: 'disabled',
        disabled_reason: expect.stringContaining('5 days'),
      });
      const refused = await api.call('POST', `/webhooks/deliveries/${delivery.id}/retry`, { key });
      expect(refused.status).toBe(422);
      expect(refused.body.error.code).toBe('invalid_state');
    } finally {
      installPorts({ clock: systemClock });
    }
  });

  it('an endpoint answering 410 Gone is disabled at once: no retry, and its deliveries cannot be retried', async () => {
    const { key, user } = await api.newUser();
    const path = newPath();
    receiver.answer(path, 410, 204, 204);
    const endpoint = await endpointFor(key, path, { event_types: ['credits.low'] });
    const event = webhookEvent(user.id, 'credits.low', { kind: 'credits', id: user.id }, new Date().toISOString(), {
      extra: { available: 10, threshold: 100 },
    });
    await writeTogether({ event: event.item });
    await announce([event]);
    await receiver.waitFor(path, 1);
    await api.ports.webhookQueue.settled();
    const delivery = (await deliveries(key)).items[0];
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, last_status_code: 410, next_attempt_at: null });
    expect((await api.call('GET', `/webhooks/endpoints/${endpoint.id}`, { key })).body).toMatchObject({
      status: 'disabled',
      disabled_reason: expect.stringContaining('410 Gone'),
    });
    const refused = await api.call('POST', `/webhooks/deliveries/${delivery.id}/retry`, { key });
    expect(refused.status).toBe(422);
    expect(receiver.received.filter((r) => r.path === path)).toHaveLength(1);
  });

  it('a growth run reports growth_run.completed with the run as GET returns it', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 5_000 });
    const path = newPath();
    await endpointFor(key, path, { event_types: ['growth_run.completed', 'growth_run.failed'] });
    const resolve = await api.call('POST', '/growth/resolve', {
      key,
      body: {
        goal_text: 'Find the work emails of the team at these companies',
        input_text: 'Company,Website\nNebula Labs,https://nebulalabs.io\n',
      },
    });
    const quote = await api.call('POST', '/growth/quote', { key, body: { goal_plan: resolve.body.goal_plan } });
    const started = await api.call('POST', '/growth/run', {
      key,
      body: { quote_token: quote.body.quote_token, goal_plan: quote.body.goal_plan },
    });
    expect(started.status).toBe(202);
    await api.ports.queue.drained();
    const [hit] = await receiver.waitFor(path, 1);
    expect(hit.verified).toMatchObject({
      type: 'growth_run.completed',
      data: { run_id: started.body.run_id, status: 'completed' },
    });
    expect(hit.verified!.data).toEqual((await api.call('GET', `/growth/runs/${started.body.run_id}`, { key })).body);
  });

  it('a growth run that never started (its start interrupted) reports growth_run.failed once, with its reservation released', async () => {
    const { key, user } = await api.newUser({ tier: 'pro', credits: 1_000 });
    const path = newPath();
    await endpointFor(key, path, { event_types: ['growth_run.failed'] });
    const run = await interruptedGrowthRun(user.id, new Date().toISOString(), 40);
    const runId = run.runId;
    // What the sweep (recoverStartingRuns, test/e2e/jobsWatchdog.test.ts) and a failed start both call.
    expect(await failRunBeforeStart(run, 'The run was interrupted before it started; nothing was charged.')).toBe(true);
    const [hit] = await receiver.waitFor(path, 1);
    expect(hit.verified).toMatchObject({ type: 'growth_run.failed', data: { run_id: runId, status: 'failed' } });
    expect(hit.verified!.data).toEqual((await api.call('GET', `/growth/runs/${runId}`, { key })).body);
    expect((await getBalance(user.id)).available).toBe(1_000);
    // A second failer (a concurrent reader, the next sweep) writes nothing and reports nothing.
    expect(await failRunBeforeStart(run, 'again')).toBe(false);
    await api.ports.webhookQueue.settled();
    expect(
      (await deliveries(key)).items.filter((d: { event_type: string }) => d.event_type === 'growth_run.failed'),
    ).toHaveLength(1);
  });
});

describe('community.activated', () => {
  it('an activation event carrying the token produces one community.activated, however often it is re-delivered', async () => {
    const { key } = await api.newUser({ credits: 1000 });
    const path = newPath();
    await endpointFor(key, path, { event_types: ['community.activated'] });
    const community = (
      await api.call('POST', '/integrations/moderation/communities', {
        key,
        body: { name: 'c', project_name: 'Acme', type: 'discord' },
      })
    ).body;
    const activate = (eventId: string) =>
      api.call('POST', `/integrations/moderation/communities/${community.id}/events`, {
        key,
        body: {
          events: [
            {
              event_id: eventId,
              type: 'activation',
              user: { id: 'bot' },
              token: community.activation_token,
              sent_at: '2026-11-22T10:00:00.000Z',
            },
          ],
        },
      });
    expect((await activate('act-1')).status).toBe(200);
    const [hit] = await receiver.waitFor(path, 1);
    expect(hit.verified).toMatchObject({
      type: 'community.activated',
      data: { id: community.id, status: 'connected' },
    });
    // Whoever holds the token can bind the community to a place of theirs: it never leaves in an event.
    expect(hit.verified?.data.activation_token).toBeNull();
    expect(hit.body).not.toContain(community.activation_token);
    await activate('act-1');
    await activate('act-2');
    await api.ports.webhookQueue.settled();
    expect(receiver.at(path)).toHaveLength(1);
  });
});

describe('credits.low', () => {
  it('fires once when a spend takes the balance below 1,000 credits, not again while it stays low', async () => {
    const { key } = await api.newUser({ credits: 1200 });
    const path = newPath();
    await endpointFor(key, path, { event_types: ['credits.low'] });
    const provision = () =>
      api.call('POST', '/integrations/moderation/communities', {
        key,
        body: { name: 'c', project_name: 'Acme', type: 'reddit' },
      });
    expect((await provision()).status).toBe(201);
    const [low] = await receiver.waitFor(path, 1);
    expect(low.verified).toMatchObject({ type: 'credits.low', data: { available: 700, threshold: 1000 } });
    expect((await provision()).status).toBe(201);
    await api.ports.webhookQueue.settled();
    expect(receiver.at(path)).toHaveLength(1);
  });
});

describe('the outbox', () => {
  it('an event whose dispatch message was lost is still delivered, by the sweep', async () => {
    const { key, user } = await api.newUser({ tier: 'pro', credits: 1000 });
    const path = newPath();
    await endpointFor(key, path, { event_types: ['job.completed'] });
    const real = api.ports.webhookQueue;
    const lost: QueueMessage[] = [];
    installPorts({ webhookQueue: { send: async (m) => void lost.push(...m) } });
    try {
      await runJob(key);
    } finally {
      installPorts({ webhookQueue: real });
    }
    expect(lost.length).toBeGreaterThan(0);
    expect(receiver.at(path)).toHaveLength(0);
    expect((await listUndispatched(new Date(Date.now() + 1000).toISOString())).some((e) => e.userId === user.id)).toBe(
      true,
    );

    await sweepWebhooks(new Date(Date.now() + 120_000));
    const [hit] = await receiver.waitFor(path, 1);
    expect(hit.verified).toMatchObject({ type: 'job.completed' });
    expect((await listUndispatched(new Date(Date.now() + 1000).toISOString())).some((e) => e.userId === user.id)).toBe(
      false,
    );
  });

  it("a job's closing reaches the event bus when its event is dispatched; a bus that refuses keeps the event for the sweep", async () => {
    const { key, user } = await api.newUser({ tier: 'pro', credits: 1000 });
    const bus = api.ports.events;
    const refused: unknown[] = [];
    installPorts({
      events: {
        publish: async (events) => {
          refused.push(...events);
          throw new Error('EventBridge is unavailable');
        },
      },
    });
    let jobId: string;
    try {
      jobId = await runJob(key);
      await api.ports.webhookQueue.settled();
      // A sweep while the bus still refuses reports the event and goes on; it does not fail.
      const refusedSweep = await sweepWebhooks(new Date(Date.now() + 120_000));
      expect(refusedSweep.events_failed).toBeGreaterThanOrEqual(1);
    } finally {
      installPorts({ events: bus });
    }
    const forJob = () => bus.published.filter((e) => e.detail.job_id === jobId);
    expect(refused).toContainEqual(expect.objectContaining({ type: 'job.completed' }));
    expect(forJob()).toEqual([]);
    const undispatched = await listUndispatched(new Date(Date.now() + 1000).toISOString());
    expect(undispatched.some((e) => e.userId === user.id)).toBe(true);

    await sweepWebhooks(new Date(Date.now() + 120_000));
    const job = (await getJob(user.id, jobId, true))!;
    expect(forJob()).toEqual([
      {
        type: 'job.completed',
        detail: {
          job_id: jobId,
          user_id: user.id,
          origin: job.origin,
          credits_charged: job.creditsCharged,
          event_id: expect.any(String),
        },
      },
    ]);
    expect((await listUndispatched(new Date(Date.now() + 1000).toISOString())).some((e) => e.userId === user.id)).toBe(
      false,
    );
    // A second sweep finds the event dispatched: nothing is published again.
    await sweepWebhooks(new Date(Date.now() + 120_000));
    expect(forJob()).toHaveLength(1);
  });

  it('a state change that did not commit leaves no event', async () => {
    const { key, user } = await api.newUser({ tier: 'pro', credits: 1000 });
    await endpointFor(key, newPath());
    const jobId = await runJob(key);
    await api.ports.webhookQueue.settled();
    const before = (await deliveries(key)).items.length;
    const job = (await getJob(user.id, jobId, true))!;
    // A stale version: the closing transaction's condition fails, so nothing of it commits.
    expect(
      await closeJob(
        { ...job, status: 'running', version: job.version - 1 },
        { status: 'failed', errorMessage: 'late' },
      ),
    ).toBe('changed');
    await sweepWebhooks(new Date(Date.now() + 120_000));
    await api.ports.webhookQueue.settled();
    expect((await deliveries(key)).items).toHaveLength(before);
    expect((await listUndispatched(new Date(Date.now() + 1000).toISOString())).some((e) => e.userId === user.id)).toBe(
      false,
    );
  });
});
