import { afterEach, describe, expect, it, vi } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '#shared/store/client';
import { jobKey } from '#shared/store/keys';
import { streamJobEvents } from '#shared/domain/jobs/eventStream';
import { EventSource } from 'eventsource';
import { startTestApi } from '#test/support/api';
import { sseEventViolation } from '#test/support/contract';
import { workerHandler } from '#bin/local/handlers';
import { getBalance } from '#shared/domain/credits/credits';
import { reloadConfig } from '#shared/config/config';

// The SSE handler polls the store every JOB_EVENTS_POLL_MS (2 s in production); fast here.
process.env.JOB_EVENTS_POLL_MS = '40';

const api = await startTestApi();
const queue = api.ports.queue;
const resumeQueue = () => queue.setConsumer(async (event) => (await workerHandler())(event));
afterEach(() => resumeQueue());

const NEBULA = { company_name: 'Nebula Labs', website: 'https://www.NebulaLabs.io/about' };
const QUIET = { company_name: 'Quiet Protocol', domain: 'quietprotocol.xyz' };
const UNKNOWN = { company_name: 'Unknown Startup', domain: 'unknown-startup-e2e.io' };

async function proUser(credits = 10_000) {
  return api.newUser({ tier: 'pro', credits });
}

async function waitForJob(key: string, jobId: string) {
  await queue.drained();
  return (await api.call('GET', `/bd/jobs/${jobId}`, { key })).body;
}

interface SseEvent {
  type: string;
  id: string;
  data: { job_id: string; status: string; progress_percent: number; progress_message: string; updated_at: string };
}

/** Follows a job's stream with a real SSE client until `complete`; `onFirstEvent` runs once the first event arrived. */
function followJob(key: string, jobId: string, onFirstEvent: () => void = () => undefined): Promise<SseEvent[]> {
  return new Promise((resolve, reject) => {
    const events: SseEvent[] = [];
    const es = new EventSource(`${api.baseUrl}/bd/jobs/${jobId}/events`, {
      fetch: (url, init) => fetch(url, { ...init, headers: { ...init?.headers, authorization: `Bearer ${key}` } }),
    });
    const timer = setTimeout(() => {
      es.close();
      reject(new Error(`no complete event; got ${JSON.stringify(events)}`));
    }, 20_000);
    for (const type of ['progress', 'complete']) {
      es.addEventListener(type, (e) => {
        const violation = sseEventViolation(`/api/v1/bd/jobs/${jobId}/events`, type, e.data);
        if (violation) {
          clearTimeout(timer);
          es.close();
          reject(new Error(`SSE event breaks the OpenAPI document: ${violation}`));
          return;
        }
        events.push({ type, id: e.lastEventId, data: JSON.parse(e.data) });
        if (events.length === 1) onFirstEvent();
        if (type === 'complete') {
          clearTimeout(timer);
          es.close();
          resolve(events);
        }
      });
    }
    es.addEventListener('error', (e) => {
      if ((e as { code?: number }).code && (e as { code?: number }).code! >= 400) {
        clearTimeout(timer);
        es.close();
        reject(new Error(`SSE error ${(e as { code?: number }).code}`));
      }
    });
  });
}

describe('POST /bd/jobs then a real SSE client to completion', () => {
  it('runs full_pipeline over curated companies: live progress, complete, rows, stored result and an exact charge', async () => {
    const { key, user } = await proUser();
    queue.stop();
    const created = await api.call('POST', '/bd/jobs', {
      key,
      body: { preset: 'full_pipeline', input_assets: { companies: [NEBULA, QUIET, UNKNOWN] } },
    });
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({
      status: 'pending',
      progress_percent: 0,
      preset: 'full_pipeline',
      requested_capabilities: [
        'qualification',
        'company_size',
        'contact_discovery',
        'email_lookup',
        'email_verify',
        'deliverable_finalize',
      ],
      warnings: [],
      error_message: null,
      result_id: null,
      started_at: null,
      completed_at: null,
      origin: 'api',
      credits_charged: 0,
    });
    // Reserved: the expected cost, what the curated data and rules deliver (charged below), not the most
    // the job could cost (3 + 3 + 2*15 + 3*15 + 15 = 96 with five contacts a company).
    expect(created.body.credits_reserved).toBe(3 + 1 + 16 + 24 + 8);
    expect((await getBalance(user.id)).available).toBe(10_000 - 52);

    const events = await followJob(key, created.body.job_id, resumeQueue);
    const progress = events.filter((e) => e.type === 'progress');
    expect(progress[0].data).toMatchObject({ job_id: created.body.job_id, status: 'pending', progress_percent: 0 });
    expect(progress.length).toBeGreaterThan(1);
    expect(events.at(-1)!.type).toBe('complete');
    expect(events.filter((e) => e.type === 'complete')).toHaveLength(1);
    expect(progress.every((e) => e.data.status !== 'completed')).toBe(true);
    expect(events.at(-1)!.data).toMatchObject({ status: 'completed', progress_percent: 100 });
    // Ids grow, and no payload is sent twice.
    const ids = events.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(events.map((e) => JSON.stringify(e.data))).size).toBe(events.length);
    expect(progress.some((e) => /stage \d of 5/.test(e.data.progress_message))).toBe(true);

    const job = (await api.call('GET', `/bd/jobs/${created.body.job_id}`, { key })).body;
    expect(job).toMatchObject({ status: 'completed', progress_percent: 100, error_message: null });
    expect(job.started_at).not.toBeNull();
    expect(job.completed_at >= job.started_at).toBe(true);
    // Nebula: 5 of 6 people (most senior first), Quiet: 3; Ethan Brooks' address comes from Nebula's first.last pattern.
    expect(job.stats.units).toEqual({
      qualification: 3,
      company_size: 1,
      contact_discovery: 8,
      email_lookup: 8,
      email_verify: 8,
    });
    expect(job.credits_charged).toBe(3 + 1 + 16 + 24 + 8);
    expect(job.stats.rows_delivered).toBe(9);
    expect((await getBalance(user.id)).available).toBe(10_000 - job.credits_charged);

    const exported = await api.call('GET', `/bd/jobs/${job.job_id}/export?format=json`, { key });
    expect(exported.body.rows).toHaveLength(9);
    const ethan = exported.body.rows.find((r: { full_name: string }) => r.full_name === 'Ethan Brooks');
    expect(ethan).toMatchObject({
      domain: 'nebulalabs.io',
      employee_count: 42,
      email: 'ethan.brooks@nebulalabs.io',
      email_source: 'pattern',
      email_status: 'deliverable',
      contact_source: 'contact_discovery',
    });
    expect(exported.body.rows.find((r: { domain: string }) => r.domain === 'unknown-startup-e2e.io')).toMatchObject({
      full_name: null,
      company_size_status: 'unresolved',
    });

    const csv = await api.call('GET', `/bd/jobs/${job.job_id}/export?format=csv`, { key });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0].split(',').slice(0, 3)).toEqual(['company_name', 'domain', 'website']);
    expect(lines).toHaveLength(10);

    const stored = await api.call('GET', `/results/${job.result_id}`, { key });
    expect(stored.body).toMatchObject({
      tool_name: 'bd_job',
      result_data: { job_id: job.job_id, stats: { rows_delivered: 9 } },
    });
    expect(stored.body.result_data.rows).toEqual(exported.body.rows);

    const usage = await api.call('GET', '/credits/usage', { key });
    expect(usage.body.by_tool).toEqual([{ tool_name: 'bd_job', credits: job.credits_charged }]);
  });

  it('a job already finished gets only the complete event', async () => {
    const { key } = await proUser();
    const created = await api.call('POST', '/bd/jobs', {
      key,
      body: { preset: 'verify_existing_emails', input_assets: { contacts: [{ email: 'ada.park@nebulalabs.io' }] } },
    });
    await waitForJob(key, created.body.job_id);
    const events = await followJob(key, created.body.job_id);
    expect(events.map((e) => e.type)).toEqual(['complete']);
    expect(events[0].data.status).toBe('completed');
  });
});

describe('hostile input rows', () => {
  it('a LinkedIn URL with malformed percent-encoding is one unmatched profile, not a failed job', async () => {
    const { key } = await proUser();
    const created = await api.call('POST', '/bd/jobs', {
      key,
      body: {
        requested_capabilities: ['linkedin_enrich'],
        input_assets: {
          contacts: [
            { linkedin_url: 'https://www.linkedin.com/in/%E0%A4%A' },
            { linkedin_url: 'https://www.linkedin.com/in/ada-park-1a' },
          ],
        },
      },
    });
    expect(created.status).toBe(202);
    const job = await waitForJob(key, created.body.job_id);
    expect(job).toMatchObject({ status: 'completed', error_message: null });
    const rows = (await api.call('GET', `/bd/jobs/${job.job_id}/export?format=json`, { key })).body.rows;
    expect(rows).toHaveLength(2);
    expect(rows.find((r: { linkedin_url: string }) => r.linkedin_url.includes('ada-park'))).toMatchObject({
      full_name: 'Ada Park',
      company_name: 'Nebula Labs',
    });
  });
});

describe('SSE endpoint guards (checked before the stream opens)', () => {
  it("401 without a key, 404 for another user's job, 406 when Accept excludes text/event-stream, 400 for a malformed id", async () => {
    const owner = await proUser();
    const other = await proUser();
    const created = await api.call('POST', '/bd/jobs', {
      key: owner.key,
      body: { preset: 'verify_existing_emails', input_assets: { contacts: [{ email: 'a@nebulalabs.io' }] } },
    });
    const path = `/bd/jobs/${created.body.job_id}/events`;
    expect((await api.call('GET', path, { headers: { accept: 'text/event-stream' } })).status).toBe(401);
    const notFound = await api.call('GET', path, { key: other.key, headers: { accept: 'text/event-stream' } });
    expect(notFound.status).toBe(404);
    expect(notFound.body.error.code).toBe('not_found');
    const notAcceptable = await api.call('GET', path, { key: owner.key, headers: { accept: 'application/json' } });
    expect(notAcceptable.status).toBe(406);
    expect(notAcceptable.body.error.code).toBe('not_acceptable');
    expect((await api.call('GET', '/bd/jobs/not-a-uuid/events', { key: owner.key })).status).toBe(400);
    await queue.drained();
  });

  it('streams text/event-stream with the current state first', async () => {
    const { key } = await proUser();
    const created = await api.call('POST', '/bd/jobs', {
      key,
      body: { preset: 'verify_existing_emails', input_assets: { contacts: [{ email: 'a@nebulalabs.io' }] } },
    });
    await queue.drained();
    const res = await fetch(`${api.baseUrl}/bd/jobs/${created.body.job_id}/events`, {
      headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await res.text();
    expect(text).toMatch(
      /^id: \d+\nevent: complete\ndata: \{"job_id":"[0-9a-f-]{36}","status":"completed","progress_percent":100,/,
    );
  });
});

describe('SSE keep-alive and cancellation', () => {
  it('an older version read after a newer one (an eventually consistent read on AWS) is passed over: ids never go back', async () => {
    const { key, user } = await proUser();
    const userId = user.id;
    queue.stop();
    const created = await api.call('POST', '/bd/jobs', {
      key,
      body: { preset: 'full_pipeline', input_assets: { companies: [NEBULA] } },
    });
    const jobId = created.body.job_id as string;
    const client = ddb();
    const send = client.send.bind(client) as (command: unknown) => Promise<{ Item?: Record<string, unknown> }>;
    const { sk } = jobKey(userId, jobId);
    let reads = 0;
    // The second read answers the item as it was a version before, as a replica behind the leader would.
    const spy = vi.spyOn(client, 'send').mockImplementation((async (command: unknown) => {
      const answer = await send(command);
      if (!(command instanceof GetCommand) || command.input.Key?.sk !== sk || !answer.Item) return answer;
      if (++reads === 2)
        return {
          ...answer,
          Item: { ...answer.Item, version: Number(answer.Item.version) - 1, updatedAt: '2026-01-01T00:00:00.000Z' },
        };
      if (reads === 4) await api.call('POST', `/bd/jobs/${jobId}/cancel`, { key });
      return answer;
    }) as never);
    const written: string[] = [];
    try {
      await streamJobEvents({
        userId,
        jobId,
        pollMs: 5,
        keepAliveMs: 60_000,
        sink: { write: (chunk) => written.push(chunk), closed: false, onClose: () => {} },
      });
    } finally {
      spy.mockRestore();
      resumeQueue();
    }
    const events = written.map((chunk) => ({
      id: Number(/^id: (\d+)/.exec(chunk)?.[1]),
      type: /event: (\w+)/.exec(chunk)?.[1],
    }));
    expect(events.map((e) => e.type)).toEqual(['progress', 'complete']);
    expect(events[1].id).toBeGreaterThan(events[0].id);
  });

  it('sends the keep-alive when it falls due, not at the next poll after', async () => {
    process.env.JOB_EVENTS_POLL_MS = '1000';
    process.env.JOB_EVENTS_KEEPALIVE_MS = '1100';
    reloadConfig();
    try {
      const { key } = await proUser();
      queue.stop();
      const created = await api.call('POST', '/bd/jobs', {
        key,
        body: { preset: 'full_pipeline', input_assets: { companies: [NEBULA] } },
      });
      const controller = new AbortController();
      const res = await fetch(`${api.baseUrl}/bd/jobs/${created.body.job_id}/events`, {
        headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' },
        signal: controller.signal,
      });
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      let firstEventAt = 0;
      while (!text.includes(': keep-alive')) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value);
        if (!firstEventAt && text.includes('event: progress')) firstEventAt = Date.now();
      }
      const gap = Date.now() - firstEventAt;
      controller.abort();
      expect(text).toContain(': keep-alive');
      // Due after 1.1 s of silence; a keep-alive checked only at each 1 s poll would come at 2 s.
      expect(gap).toBeLessThan(1700);
      await api.call('POST', `/bd/jobs/${created.body.job_id}/cancel`, { key });
    } finally {
      delete process.env.JOB_EVENTS_POLL_MS;
      delete process.env.JOB_EVENTS_KEEPALIVE_MS;
      reloadConfig();
      resumeQueue();
    }
  });

  it('sends `: keep-alive` while nothing changes, then the cancellation as the one complete event, and closes', async () => {
    process.env.JOB_EVENTS_KEEPALIVE_MS = '150';
    reloadConfig();
    try {
      const { key } = await proUser();
      queue.stop();
      const created = await api.call('POST', '/bd/jobs', {
        key,
        body: { preset: 'full_pipeline', input_assets: { companies: [NEBULA] } },
      });
      const res = await fetch(`${api.baseUrl}/bd/jobs/${created.body.job_id}/events`, {
        headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' },
      });
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      const readUntil = async (marker: string) => {
        while (!text.includes(marker)) {
          const { value, done } = await reader.read();
          if (done) return false;
          text += decoder.decode(value);
        }
        return true;
      };
      expect(await readUntil(': keep-alive\n\n')).toBe(true);
      expect(text.startsWith('id: ')).toBe(true);
      expect(text).toMatch(/event: progress\ndata: \{[^\n]*"status":"pending"/);
      expect((await api.call('POST', `/bd/jobs/${created.body.job_id}/cancel`, { key })).status).toBe(202);
      expect(await readUntil('event: complete')).toBe(true);
      expect(await readUntil('this marker never comes')).toBe(false); // the server ended the stream
      const events = text.split('\n\n').filter((block) => block.startsWith('id: '));
      expect(events.at(-1)).toMatch(/event: complete\ndata: \{[^\n]*"status":"cancelled"/);
      expect(events.filter((e) => e.includes('"status":"cancelled"'))).toHaveLength(1);
    } finally {
      delete process.env.JOB_EVENTS_KEEPALIVE_MS;
      reloadConfig();
    }
  });
});
