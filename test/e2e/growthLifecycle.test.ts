import { describe, expect, it, vi } from 'vitest';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from '#shared/store/client';
import { ManualClock } from '#shared/adapters/clock';
import { startTestApi } from '#test/support/api';
import { interruptedGrowthRun } from '#test/support/interruptedRun';

// The clock is moved by hand, and the pipeline queue is stopped: runs stay where the test puts them.
const clock = new ManualClock(new Date());
const api = await startTestApi({ clock });
api.ports.queue.stop();

const balanceOf = async (key: string): Promise<number> =>
  (await api.call('GET', '/subscriptions/status', { key })).body.credits_total;

async function resolved(key: string, input_text = 'nebulalabs.io\nquietprotocol.xyz') {
  const res = await api.call('POST', '/growth/resolve', {
    key,
    body: { goal_text: 'Find emails of the people at these companies', input_text },
  });
  expect(res.status).toBe(200);
  return res.body;
}

async function quoted(key: string) {
  const quote = await api.call('POST', '/growth/quote', { key, body: { goal_plan: (await resolved(key)).goal_plan } });
  expect(quote.body.ok).toBe(true);
  return quote.body;
}

describe('quote lifetime', () => {
  it('answers 410 quote_expired after 15 minutes, and the token is not consumed by the refusal', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 5_000 });
    const quote = await quoted(key);
    clock.advance(15 * 60 * 1000 + 1);
    const res = await api.call('POST', '/growth/run', {
      key,
      body: { quote_token: quote.quote_token, goal_plan: quote.goal_plan },
    });
    expect(res.status).toBe(410);
    expect(res.body.error.code).toBe('quote_expired');
    expect(await balanceOf(key)).toBe(5_000);
  });

  it('does not quote a plan issued more than a day ago (quote_validation_failed)', async () => {
    const { key } = await api.newUser();
    const plan = (await resolved(key)).goal_plan;
    clock.advance(24 * 3600 * 1000 + 1);
    const res = await api.call('POST', '/growth/quote', { key, body: { goal_plan: plan } });
    expect(res.body).toMatchObject({ ok: false, error_code: 'quote_validation_failed' });
  });
});

describe('a quote whose chat was deleted', () => {
  it('answers 404 before anything is reserved or consumed', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 5_000 });
    const chat = (await api.call('POST', '/chats', { key, body: {} })).body;
    const plan = (await resolved(key)).goal_plan;
    const quote = (await api.call('POST', '/growth/quote', { key, body: { goal_plan: plan, chat_id: chat.id } })).body;
    expect(quote.ok).toBe(true);
    expect((await api.call('DELETE', `/chats/${chat.id}`, { key })).status).toBe(204);
    const res = await api.call('POST', '/growth/run', {
      key,
      body: { quote_token: quote.quote_token, goal_plan: quote.goal_plan },
    });
    expect(res.status).toBe(404);
    expect(await balanceOf(key)).toBe(5_000);
  });
});

describe('cancelling a run', () => {
  it('cancels a run that has not finished: nothing charged, the whole quote rebated, no export', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 5_000 });
    const quote = await quoted(key);
    const started = await api.call('POST', '/growth/run', {
      key,
      body: { quote_token: quote.quote_token, goal_plan: quote.goal_plan },
    });
    expect(started.status).toBe(202);
    expect(await balanceOf(key)).toBe(5_000 - quote.credits_total);

    const pending = await api.call('GET', `/growth/runs/${started.body.run_id}`, { key });
    expect(pending.body).toMatchObject({
      status: 'pending',
      progress: { percent: 0 },
      result_handles: [],
      export_handles: [],
    });
    expect(pending.body.preview.pricing).toEqual({
      quoted_credits: quote.credits_total,
      charged_credits: null,
      rebate_credits: null,
    });
    expect(Object.values(pending.body.stage_status).every((s) => s === 'pending')).toBe(true);
    const early = await api.call('GET', `/growth/runs/${started.body.run_id}/export?format=json`, { key });
    expect(early.status).toBe(422);
    expect(early.body.error.code).toBe('invalid_state');

    const cancelled = await api.call('POST', `/growth/runs/${started.body.run_id}/cancel`, { key });
    expect(cancelled.status).toBe(202);
    expect(cancelled.body.status).toBe('cancelled');
    expect(cancelled.body.preview.pricing).toEqual({
      quoted_credits: quote.credits_total,
      charged_credits: 0,
      rebate_credits: quote.credits_total,
    });
    expect(Object.values(cancelled.body.stage_status).every((s) => s === 'cancelled')).toBe(true);
    expect(await balanceOf(key)).toBe(5_000);

    const twice = await api.call('POST', `/growth/runs/${started.body.run_id}/cancel`, { key });
    expect(twice.status).toBe(422);
    const read = (await api.call('GET', `/growth/runs/${started.body.run_id}`, { key })).body;
    expect(read).toMatchObject({
      status: 'cancelled',
      progress: cancelled.body.progress,
      stage_status: cancelled.body.stage_status,
    });
    expect(read.progress.message).toMatch(/^Cancelled/);
    expect(twice.body.error.code).toBe('invalid_state');
    expect((await api.call('GET', `/growth/runs/${started.body.run_id}/export?format=csv`, { key })).status).toBe(422);
  });
});

describe('a run interrupted between its reservation and its job', () => {
  it('stays pending for a while, then is failed and its reservation released on the next read', async () => {
    const { key, user } = await api.newUser({ tier: 'pro', credits: 1_000 });
    const run = await interruptedGrowthRun(user.id, clock.now().toISOString(), 30);
    const runId = run.runId;
    expect(await balanceOf(key)).toBe(970);

    expect((await api.call('GET', `/growth/runs/${runId}`, { key })).body.status).toBe('pending');
    clock.advance(3 * 60 * 1000);
    const read = await api.call('GET', `/growth/runs/${runId}`, { key });
    expect(read.body).toMatchObject({ status: 'failed', error_message: expect.stringMatching(/interrupted/) });
    expect(read.body.preview.pricing).toEqual({ quoted_credits: 30, charged_credits: 0, rebate_credits: 30 });
    expect(await balanceOf(key)).toBe(1_000);
  });
});

describe('a run whose job could not be queued', () => {
  it('answers 503 service_unavailable; the run is failed with its reservation released, and growth_run.failed is in the outbox once', async () => {
    const { key, user } = await api.newUser({ tier: 'pro', credits: 5_000 });
    const quote = await quoted(key);
    // The job is created, then sending its first messages fails: the job closes as failed (releasing the
    // run's reservation and reporting job.failed and growth_run.failed), then the start fails the run.
    const send = vi.spyOn(api.ports.queue, 'send').mockRejectedValueOnce(new Error('queue unavailable'));
    const started = await api.call('POST', '/growth/run', {
      key,
      body: { quote_token: quote.quote_token, goal_plan: quote.goal_plan },
    });
    send.mockRestore();
    expect(started.status).toBe(503);
    expect(started.headers.get('retry-after')).toBe('5');
    expect(started.body.error.code).toBe('service_unavailable');
    expect(await balanceOf(key)).toBe(5_000);
    const { Items = [] } = await ddb().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :events)',
        ExpressionAttributeValues: { ':pk': `USER#${user.id}`, ':events': 'WHEVENT#' },
        ConsistentRead: true,
      }),
    );
    const runEvents = Items.filter((e) => e.type === 'growth_run.failed');
    expect(Items.filter((e) => e.type === 'job.failed')).toHaveLength(1);
    expect(runEvents).toHaveLength(1);
    const runId = runEvents[0].subject.id as string;
    expect((await api.call('GET', `/growth/runs/${runId}`, { key })).body.status).toBe('failed');
  });
});
