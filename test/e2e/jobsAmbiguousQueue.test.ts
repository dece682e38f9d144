import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QueueMessage } from '#shared/adapters/queue';
import { getBalance } from '#shared/domain/credits/credits';
import { getJob } from '#shared/store/jobsRepo';
import { ddb } from '#shared/store/client';
import { startTestApi } from '#test/support/api';

// A send that fails after the queue took the messages (a timeout once SQS had accepted them, a later chunk of ten
// refused): the worker may already be running the job when the create hears the error.
const api = await startTestApi();
const queue = api.ports.queue;
afterEach(() => vi.restoreAllMocks());

const BODY = {
  preset: 'full_pipeline',
  input_assets: {
    companies: [
      { company_name: 'Nebula Labs', domain: 'nebulalabs.io' },
      { company_name: 'Quiet Protocol', domain: 'quietprotocol.xyz' },
    ],
  },
};
const CSV = 'Company,Website\nNebula Labs,https://nebulalabs.io\nQuiet Protocol,quietprotocol.xyz\n';
const GOAL = 'Find the work emails of the team at these companies';

/** The next send delivers its messages, waits until the worker started their job, then reports a failure. */
function deliverThenFail() {
  const send = queue.send.bind(queue);
  vi.spyOn(queue, 'send').mockImplementationOnce(async (messages: QueueMessage[]) => {
    await send(messages);
    const { user_id, job_id } = JSON.parse(messages[0].body);
    for (let i = 0; i < 200; i++) {
      if ((await getJob(user_id, job_id, true))?.status !== 'pending') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('SQS request timed out');
  });
}

const available = async (userId: string) => (await getBalance(userId)).available;

describe('a create whose messages reached the pipeline although the send failed', () => {
  it('answers the job it started, the quote stays used, and the credits move for one job only', async () => {
    const { user, key } = await api.newUser({ tier: 'pro', credits: 10_000 });
    const quote = (await api.call('POST', '/bd/jobs/quote', { key, body: BODY })).body;
    const body = { ...BODY, quote_token: quote.quote_token };

    deliverThenFail();
    const first = await api.call('POST', '/bd/jobs', { key, body });
    expect(first.status, first.text).toBe(202);
    const again = await api.call('POST', '/bd/jobs', { key, body });
    expect(again.status, again.text).toBe(409);
    expect(again.body.error.code).toBe('quote_token_used');

    await queue.drained();
    const jobs = (await api.call('GET', '/bd/jobs', { key })).body.items;
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ job_id: first.body.job_id, status: 'completed' });
    expect(jobs[0].credits_charged).toBeLessThanOrEqual(quote.credits);
    expect(await available(user.id)).toBe(10_000 - jobs[0].credits_charged);
  });

  it('a growth run: started once, its token used, its reservation settled by its job alone', async () => {
    const { user, key } = await api.newUser({ tier: 'pro', credits: 10_000 });
    const resolved = await api.call('POST', '/growth/resolve', { key, body: { goal_text: GOAL, input_text: CSV } });
    const quote = (await api.call('POST', '/growth/quote', { key, body: { goal_plan: resolved.body.goal_plan } })).body;
    const body = { quote_token: quote.quote_token, goal_plan: quote.goal_plan };

    deliverThenFail();
    const first = await api.call('POST', '/growth/run', { key, body });
    expect(first.status, first.text).toBe(202);
    const again = await api.call('POST', '/growth/run', { key, body });
    expect(again.status, again.text).toBe(409);

    await queue.drained();
    const run = (await api.call('GET', `/growth/runs/${first.body.run_id}`, { key })).body;
    expect(run.status).toBe('completed');
    const charged = run.preview.pricing.charged_credits;
    expect(charged).toBeGreaterThan(0);
    expect(charged).toBeLessThanOrEqual(quote.credits_total);
    expect(await available(user.id)).toBe(10_000 - charged);
  });

  it('a create whose reserving write was applied although it reported an error: the job goes on, charged once', async () => {
    const { user, key } = await api.newUser({ tier: 'pro', credits: 10_000 });
    const quote = (await api.call('POST', '/bd/jobs/quote', { key, body: BODY })).body;
    const body = { ...BODY, quote_token: quote.quote_token };
    // The transaction that writes the job with its reservation is applied, then reports a timeout.
    const client = ddb();
    const send = client.send.bind(client) as (c: unknown) => Promise<unknown>;
    const spy = vi.spyOn(client, 'send').mockImplementation((async (command: { input: any }) => {
      const items: any[] = command.input?.TransactItems ?? [];
      if (items.length > 1 && items.some((t) => String(t.Put?.Item?.sk ?? '').startsWith('JOB#'))) {
        spy.mockRestore();
        await send(command);
        throw Object.assign(new Error('Socket timed out'), { name: 'TimeoutError' });
      }
      return send(command);
    }) as never);

    const created = await api.call('POST', '/bd/jobs', { key, body });
    vi.restoreAllMocks();
    expect(created.status, created.text).toBe(202);
    expect(created.headers.get('x-credits-charged')).toBe(String(quote.credits));
    expect(created.headers.get('x-credits-remaining')).toBe(String(10_000 - quote.credits));
    const again = await api.call('POST', '/bd/jobs', { key, body });
    expect(again.status, again.text).toBe(409);
    await queue.drained();
    const jobs = (await api.call('GET', '/bd/jobs', { key })).body.items;
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ job_id: created.body.job_id, status: 'completed' });
    expect(await available(user.id)).toBe(10_000 - jobs[0].credits_charged);
  });
});
