import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SQSRecord } from 'aws-lambda';
import { startTestApi } from '#test/support/api';
import { workerHandler } from '#bin/local/handlers';
import { getBalance } from '#shared/domain/credits/credits';
import { installPorts, ports } from '#shared/adapters/ports';
import type { DnsPort } from '#shared/adapters/dns';

const api = await startTestApi();
const queue = api.ports.queue;
const resumeQueue = () => queue.setConsumer(async (event) => (await workerHandler())(event));
afterEach(() => resumeQueue());

const NEBULA = { company_name: 'Nebula Labs', domain: 'nebulalabs.io' };
const QUIET = { company_name: 'Quiet Protocol', domain: 'quietprotocol.xyz' };
const manyCompanies = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ company_name: `Company ${i}`, domain: `company-${i}.example.org` }));

const proUser = (credits = 10_000) => api.newUser({ tier: 'pro', credits });
const getJob = async (key: string, id: string) => (await api.call('GET', `/bd/jobs/${id}`, { key })).body;

/** Delivers one pipeline message straight to the worker, `times` copies in one batch (as SQS may redeliver). */
async function deliver(body: object, times = 1) {
  const record = (i: number) =>
    ({
      messageId: `manual-${i}`,
      receiptHandle: 'r',
      body: JSON.stringify(body),
      attributes: {},
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn',
      awsRegion: 'local',
    }) as unknown as SQSRecord;
  return (await workerHandler())({ Records: Array.from({ length: times }, (_, i) => record(i)) });
}

describe('POST /bd/jobs validation and guards', () => {
  const cases: [string, unknown][] = [
    [
      'preset and capabilities together',
      { preset: 'full_pipeline', requested_capabilities: ['qualification'], input_assets: { companies: [NEBULA] } },
    ],
    ['neither preset nor capabilities', { input_assets: { companies: [NEBULA] } }],
    ['an unknown preset', { preset: 'everything', input_assets: { companies: [NEBULA] } }],
    ['an unknown capability', { requested_capabilities: ['mind_reading'], input_assets: { companies: [NEBULA] } }],
    [
      'a company without website or domain',
      { preset: 'full_pipeline', input_assets: { companies: [{ company_name: 'Nameless' }] } },
    ],
    ['a company without company_name', { preset: 'full_pipeline', input_assets: { companies: [{ domain: 'x.io' }] } }],
    [
      'a domain that is not a host name',
      { preset: 'full_pipeline', input_assets: { companies: [{ company_name: 'Bad', website: 'http://' }] } },
    ],
    ['more than 1,000 companies', { preset: 'full_pipeline', input_assets: { companies: manyCompanies(1001) } }],
    [
      'more than 5,000 contacts',
      {
        preset: 'verify_existing_emails',
        input_assets: { contacts: Array.from({ length: 5001 }, (_, i) => ({ email: `p${i}@x.io` })) },
      },
    ],
    ['no inputs', { preset: 'full_pipeline', input_assets: {} }],
    [
      'company capabilities with contacts only',
      { requested_capabilities: ['company_size'], input_assets: { contacts: [{ email: 'a@x.io' }] } },
    ],
    ['an unknown property', { preset: 'full_pipeline', input_assets: { companies: [NEBULA] }, priority: 'high' }],
    [
      'an unknown icp_gate',
      { preset: 'full_pipeline', input_assets: { companies: [NEBULA] }, execution_options: { icp_gate: 'maybe' } },
    ],
  ];
  for (const [name, body] of cases) {
    it(`400 for ${name}, nothing created or reserved`, async () => {
      const { key, user } = await proUser(1000);
      const res = await api.call('POST', '/bd/jobs', { key, body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect((await api.call('GET', '/bd/jobs', { key })).body.total).toBe(0);
      expect((await getBalance(user.id)).available).toBe(1000);
    });
  }

  it('403 subscription_required for a developer account', async () => {
    const { key } = await api.newUser({ credits: 1000 });
    const res = await api.call('POST', '/bd/jobs', {
      key,
      body: { preset: 'full_pipeline', input_assets: { companies: [NEBULA] } },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('subscription_required');
  });

  it('402 insufficient_credits when the estimate exceeds the balance: nothing created, nothing queued', async () => {
    const { key, user } = await proUser(20);
    const sent = queue.sentCount;
    const res = await api.call('POST', '/bd/jobs', {
      key,
      body: { preset: 'full_pipeline', input_assets: { companies: [NEBULA] } },
    });
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({ code: 'insufficient_credits', details: { required: 32, available: 20 } });
    expect((await api.call('GET', '/bd/jobs', { key })).body.total).toBe(0);
    expect((await getBalance(user.id)).available).toBe(20);
    expect(queue.sentCount).toBe(sent);
  });

  it('Idempotency-Key: the same request again returns the same job, created and reserved once', async () => {
    const { key, user } = await proUser(1000);
    const body = { preset: 'full_pipeline', input_assets: { companies: [NEBULA] } };
    const headers = { 'idempotency-key': `job-${user.id}` };
    const first = await api.call('POST', '/bd/jobs', { key, body, headers });
    const again = await api.call('POST', '/bd/jobs', { key, body, headers });
    expect(again.status).toBe(202);
    expect(again.body.job_id).toBe(first.body.job_id);
    expect((await api.call('GET', '/bd/jobs', { key })).body.total).toBe(1);
    await queue.drained();
    const job = await getJob(key, first.body.job_id);
    expect((await getBalance(user.id)).available).toBe(1000 - job.credits_charged);
    const conflict = await api.call('POST', '/bd/jobs', {
      key,
      body: { ...body, preset: 'enrich_contacts_from_companies' },
      headers,
    });
    expect(conflict.status).toBe(409);
  });

  it('503 service_unavailable with Retry-After when the queue refuses the job: it is failed, nothing charged; the same Idempotency-Key then starts it', async () => {
    const { key, user } = await proUser(1000);
    const body = { preset: 'full_pipeline', input_assets: { companies: [NEBULA] } };
    const headers = { 'idempotency-key': `refused-${user.id}` };
    const send = vi
      .spyOn(queue, 'send')
      .mockRejectedValueOnce(new Error('SQS refused 1 of 1 messages: ServiceUnavailable'));
    const refused = await api.call('POST', '/bd/jobs', { key, body, headers });
    send.mockRestore();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.body.error).toEqual({
      code: 'service_unavailable',
      message: expect.stringMatching(/nothing was charged/),
    });
    expect(JSON.stringify(refused.body)).not.toMatch(/SQS/);
    const [failed] = (await api.call('GET', '/bd/jobs', { key })).body.items;
    expect(failed).toMatchObject({ status: 'failed', credits_charged: 0 });
    expect((await getBalance(user.id)).available).toBe(1000);

    const retried = await api.call('POST', '/bd/jobs', { key, body, headers });
    expect(retried.status).toBe(202);
    expect(retried.body.job_id).not.toBe(failed.job_id);
    await queue.drained();
    expect((await getJob(key, retried.body.job_id)).status).toBe('completed');
  });

  it("404 for a chat_id that is not the caller's", async () => {
    const other = await proUser();
    const chat = await api.call('POST', '/chats', { key: other.key, body: {} });
    const { key } = await proUser();
    const res = await api.call('POST', '/bd/jobs', {
      key,
      body: { preset: 'full_pipeline', input_assets: { companies: [NEBULA] }, chat_id: chat.body.id },
    });
    expect(res.status).toBe(404);
  });
});

describe('planning, listing and ownership', () => {
  it('custom capabilities: the planner adds what they need and says so; the job links to its chat', async () => {
    const { key } = await proUser();
    const chat = await api.call('POST', '/chats', { key, body: { title: 'Prospects' } });
    const res = await api.call('POST', '/bd/jobs', {
      key,
      body: { requested_capabilities: ['email_verify'], input_assets: { companies: [NEBULA] }, chat_id: chat.body.id },
    });
    expect(res.status).toBe(202);
    expect(res.body.preset).toBe('custom');
    expect(res.body.requested_capabilities).toEqual([
      'contact_discovery',
      'email_lookup',
      'email_verify',
      'deliverable_finalize',
    ]);
    expect(res.body.warnings).toHaveLength(2);
    expect(res.body.chat_id).toBe(chat.body.id);
    await queue.drained();
    const job = await getJob(key, res.body.job_id);
    expect(job.status).toBe('completed');
    const results = await api.call('GET', `/results?chat_id=${chat.body.id}&tool_name=bd_job`, { key });
    expect(results.body.items.map((r: { id: string }) => r.id)).toEqual([job.result_id]);
  });

  it('icp_gate apply drops unqualified companies from later stages and from the charge', async () => {
    const { key } = await proUser();
    const res = await api.call('POST', '/bd/jobs', {
      key,
      body: {
        preset: 'full_pipeline',
        input_assets: { companies: [NEBULA, QUIET] },
        icp_config: { industries: ['defi'] },
        execution_options: { icp_gate: 'apply' },
      },
    });
    await queue.drained();
    const job = await getJob(key, res.body.job_id);
    expect(job.status).toBe('completed');
    expect(job.stats).toMatchObject({ companies_qualified: 1, companies_dropped: 1 });
    // Quiet Protocol (privacy) is dropped: only Nebula is sized and searched.
    expect(job.stats.units).toEqual({
      qualification: 2,
      company_size: 1,
      contact_discovery: 5,
      email_lookup: 5,
      email_verify: 5,
    });
    const rows = (await api.call('GET', `/bd/jobs/${job.job_id}/export`, { key })).body.rows;
    expect(new Set(rows.map((r: { domain: string }) => r.domain))).toEqual(new Set(['nebulalabs.io']));
    expect(rows[0]).toMatchObject({ icp_score: 100, icp_qualified: true });
  });

  it('deliverable_finalize alone delivers the inputs deduplicated, free of charge', async () => {
    const { key } = await proUser(10);
    const contacts = [
      { full_name: 'Ada Park', email: 'ada.park@nebulalabs.io' },
      { full_name: 'Ada Park', email: 'ADA.PARK@nebulalabs.io', title: 'CEO' },
      { full_name: 'Liam Chen', domain: 'nebulalabs.io' },
    ];
    const res = await api.call('POST', '/bd/jobs', {
      key,
      body: { requested_capabilities: ['deliverable_finalize'], input_assets: { contacts } },
    });
    expect(res.body).toMatchObject({
      requested_capabilities: ['deliverable_finalize'],
      credits_reserved: 0,
      warnings: [],
    });
    await queue.drained();
    const job = await getJob(key, res.body.job_id);
    expect(job).toMatchObject({
      status: 'completed',
      credits_charged: 0,
      stats: { rows_delivered: 2, duplicates_removed: 1 },
    });
    const rows = (await api.call('GET', `/bd/jobs/${job.job_id}/export`, { key })).body.rows;
    expect(rows.map((r: { full_name: string; title: string | null }) => [r.full_name, r.title])).toEqual([
      ['Ada Park', 'CEO'],
      ['Liam Chen', null],
    ]);
  });

  it('verify_existing_emails flags a throwaway-mailbox address as disposable (the list read from its data file) and passes a company one', async () => {
    const { key } = await proUser(100);
    const contacts = [
      { email: 'x@mailinator.com' },
      { email: 'someone@anything.33m.co' },
      { email: 'ada.park@nebulalabs.io' },
    ];
    const res = await api.call('POST', '/bd/jobs', {
      key,
      body: { preset: 'verify_existing_emails', input_assets: { contacts } },
    });
    expect(res.status).toBe(202);
    await queue.drained();
    expect(await getJob(key, res.body.job_id)).toMatchObject({ status: 'completed' });
    const rows: { email: string; email_status: string; email_reasons: string[] }[] = (
      await api.call('GET', `/bd/jobs/${res.body.job_id}/export?format=json`, { key })
    ).body.rows;
    const byEmail = Object.fromEntries(rows.map((r) => [r.email, r]));
    expect(byEmail['x@mailinator.com']).toMatchObject({
      email_status: 'undeliverable',
      email_reasons: expect.arrayContaining(['disposable']),
    });
    expect(byEmail['someone@anything.33m.co']).toMatchObject({
      email_status: 'undeliverable',
      email_reasons: expect.arrayContaining(['disposable']),
    });
    expect(byEmail['ada.park@nebulalabs.io'].email_reasons).not.toContain('disposable');
  });

  it("lists the caller's jobs newest first with paging and filters; another user sees none of them", async () => {
    const { key } = await proUser();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (
          await api.call('POST', '/bd/jobs', {
            key,
            body: { preset: 'verify_existing_emails', input_assets: { contacts: [{ email: `p${i}@nebulalabs.io` }] } },
          })
        ).body.job_id,
      );
    await queue.drained();
    const page = await api.call('GET', '/bd/jobs?limit=2', { key });
    expect(page.body).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(page.body.items.map((j: { job_id: string }) => j.job_id)).toEqual([ids[2], ids[1]]);
    expect((await api.call('GET', '/bd/jobs?sort_order=asc&offset=2', { key })).body.items[0].job_id).toBe(ids[2]);
    expect((await api.call('GET', '/bd/jobs?status=completed', { key })).body.total).toBe(3);
    expect((await api.call('GET', '/bd/jobs?status=failed', { key })).body.total).toBe(0);
    expect((await api.call('GET', '/bd/jobs?limit=101', { key })).status).toBe(400);

    const other = await proUser();
    expect((await api.call('GET', '/bd/jobs', { key: other.key })).body.total).toBe(0);
    for (const [method, path] of [
      ['GET', `/bd/jobs/${ids[0]}`],
      ['POST', `/bd/jobs/${ids[0]}/cancel`],
      ['GET', `/bd/jobs/${ids[0]}/export`],
    ] as const) {
      const res = await api.call(method, path, { key: other.key });
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });
});

describe('cancel', () => {
  it('cancels a queued job: 202, nothing consumed, everything released; queued work is dropped; a second cancel is 422', async () => {
    const { key, user } = await proUser(1000);
    queue.stop();
    const created = await api.call('POST', '/bd/jobs', {
      key,
      body: { preset: 'full_pipeline', input_assets: { companies: [NEBULA, QUIET] } },
    });
    expect((await getBalance(user.id)).available).toBe(1000 - created.body.credits_reserved);
    const cancelled = await api.call('POST', `/bd/jobs/${created.body.job_id}/cancel`, { key });
    expect(cancelled.status).toBe(202);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', credits_charged: 0, result_id: null });
    expect(cancelled.body.completed_at).not.toBeNull();
    expect((await getBalance(user.id)).available).toBe(1000);
    // The bus hears of it when the closing's outbox event is dispatched.
    await api.ports.webhookQueue.settled();
    expect(api.ports.events.published).toContainEqual({
      type: 'job.cancelled',
      detail: expect.objectContaining({
        job_id: created.body.job_id,
        credits_charged: 0,
        event_id: expect.any(String),
      }),
    });

    resumeQueue();
    await queue.drained();
    const after = await getJob(key, created.body.job_id);
    expect(after).toMatchObject({ status: 'cancelled', credits_charged: 0 });
    expect(after.stats.units.qualification).toBe(0);
    const again = await api.call('POST', `/bd/jobs/${created.body.job_id}/cancel`, { key });
    expect(again.status).toBe(422);
    expect(again.body.error.code).toBe('invalid_state');
    expect((await api.call('GET', `/bd/jobs/${created.body.job_id}/export`, { key })).status).toBe(422);
  });

  it('a job cancelled part way is charged only what it consumed', async () => {
    const { key, user } = await proUser(1000);
    queue.stop();
    const created = await api.call('POST', '/bd/jobs', {
      key,
      body: { preset: 'full_pipeline', input_assets: { companies: manyCompanies(30) } },
    });
    expect(created.body.stats.batches).toBe(2);
    await deliver({
      kind: 'bd_job.stage',
      user_id: user.id,
      job_id: created.body.job_id,
      batch_no: 0,
      step: 0,
      capability: 'qualification',
    });
    const running = await getJob(key, created.body.job_id);
    expect(running.status).toBe('running');
    expect(running.progress_message).toBe('Qualification (stage 1 of 5): 25 of 30 rows');
    const cancelled = await api.call('POST', `/bd/jobs/${created.body.job_id}/cancel`, { key });
    expect(cancelled.body).toMatchObject({ status: 'cancelled', credits_charged: 25 });
    expect((await getBalance(user.id)).available).toBe(1000 - 25);
    resumeQueue();
    await queue.drained();
    expect((await getJob(key, created.body.job_id)).credits_charged).toBe(25);
    expect((await getBalance(user.id)).available).toBe(1000 - 25);
  });
});

describe('cancel while the pipeline is busy', () => {
  it('stops a running job at once: units freeze at the cancel and only they are charged', async () => {
    const { key, user } = await proUser(50_000);
    const created = await api.call('POST', '/bd/jobs', {
      key,
      body: { preset: 'full_pipeline', input_assets: { companies: manyCompanies(600) } },
    });
    expect(created.status).toBe(202);
    await new Promise((r) => setTimeout(r, 50));
    const cancelled = await api.call('POST', `/bd/jobs/${created.body.job_id}/cancel`, { key });
    expect(cancelled.status).toBe(202);
    expect(cancelled.body.status).toBe('cancelled');
    expect(cancelled.body.progress_percent).toBeLessThan(100);
    await queue.drained();
    const after = await getJob(key, created.body.job_id);
    expect(after.stats.units).toEqual(cancelled.body.stats.units);
    expect(after.credits_charged).toBe(cancelled.body.credits_charged);
    expect((await getBalance(user.id)).available).toBe(50_000 - cancelled.body.credits_charged);
  });
});

describe('redelivery and poison messages', () => {
  it('a redelivered stage message (in sequence and in parallel) neither double-counts progress nor double-charges', async () => {
    const { key, user } = await proUser(1000);
    queue.stop();
    const created = await api.call('POST', '/bd/jobs', {
      key,
      body: { preset: 'full_pipeline', input_assets: { companies: [NEBULA, QUIET] } },
    });
    const first = {
      kind: 'bd_job.stage',
      user_id: user.id,
      job_id: created.body.job_id,
      batch_no: 0,
      step: 0,
      capability: 'qualification',
    };
    expect((await deliver(first)).batchItemFailures).toEqual([]);
    const once = await getJob(key, created.body.job_id);
    expect((await deliver(first, 3)).batchItemFailures).toEqual([]);
    const again = await getJob(key, created.body.job_id);
    expect(again.stats.units.qualification).toBe(2);
    expect(again.progress_percent).toBe(once.progress_percent);

    // Step 1 delivered three times at once: one commit wins, the others find it done.
    const second = { ...first, step: 1, capability: 'company_size' };
    await deliver(second, 3);
    expect((await getJob(key, created.body.job_id)).stats.units.company_size).toBe(1);

    resumeQueue();
    await queue.drained();
    const done = await getJob(key, created.body.job_id);
    expect(done.status).toBe('completed');
    expect(done.stats.units).toEqual({
      qualification: 2,
      company_size: 1,
      contact_discovery: 8,
      email_lookup: 8,
      email_verify: 8,
    });
    expect(done.credits_charged).toBe(2 + 1 + 16 + 24 + 8);
    expect((await getBalance(user.id)).available).toBe(1000 - done.credits_charged);
    // The finalisation redelivered after completion changes nothing.
    await deliver({ kind: 'bd_job.finalize', user_id: user.id, job_id: created.body.job_id });
    expect((await getBalance(user.id)).available).toBe(1000 - done.credits_charged);
  });

  it('a message that keeps failing ends in the dead-letter list and fails the job with a clear error_message, charging only what was consumed', async () => {
    const { key, user } = await proUser(1000);
    const dns = ports().dns;
    const brokenDns: DnsPort = {
      resolveMx: async (domain) => {
        if (domain === 'poisoned-dns.example.org') throw new Error('resolver crashed');
        return dns.resolveMx(domain);
      },
    };
    installPorts({ dns: brokenDns });
    try {
      const deadBefore = queue.deadLetters.length;
      const created = await api.call('POST', '/bd/jobs', {
        key,
        body: {
          preset: 'verify_existing_emails',
          input_assets: { contacts: [{ email: 'ada@poisoned-dns.example.org' }, { email: 'ada.park@nebulalabs.io' }] },
        },
      });
      await queue.drained();
      const job = await getJob(key, created.body.job_id);
      expect(job.status).toBe('failed');
      expect(job.error_message).toBe(
        'E-mail verification failed repeatedly for contacts 1-2 (batch 1 of 1): resolver crashed',
      );
      expect(job.progress_message).toBe(`Failed: ${job.error_message}`);
      expect(job.completed_at).not.toBeNull();
      expect(job.credits_charged).toBe(0);
      expect((await getBalance(user.id)).available).toBe(1000);
      expect(queue.deadLetters.length).toBe(deadBefore + 1);
      expect(JSON.parse(queue.deadLetters.at(-1)!.body)).toMatchObject({
        job_id: created.body.job_id,
        capability: 'email_verify',
      });
    } finally {
      installPorts({ dns });
    }
  });

  it('a malformed message is reported failed (so it is not lost) without touching any job', async () => {
    const res = await (await workerHandler())({
      Records: [
        { messageId: 'bad-1', body: '{"kind":"nope"}' } as SQSRecord,
        { messageId: 'bad-2', body: 'not json' } as SQSRecord,
      ],
    });
    expect(res.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['bad-1', 'bad-2']);
  });
});
