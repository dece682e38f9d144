import { afterEach, describe, expect, it, vi } from 'vitest';
import { getBalance } from '#shared/domain/credits/credits';
import { superviseJobs } from '#shared/domain/jobs/watchdog';
import { ddb } from '#shared/store/client';
import { getReservation } from '#shared/store/walletRepo';
import { getJob } from '#shared/store/jobsRepo';
import { useOwnTable } from '#test/support/ownTable';
import { startTestApi } from '#test/support/api';

// The queue refuses a new job's messages and the store then refuses the write that would fail the job (throttled
// past the SDK's retries): the job is neither queued nor failed. The watchdog runs here, so the table is our own.
await useOwnTable('outreach-unclosed');
const api = await startTestApi();
const queue = api.ports.queue;
afterEach(() => vi.restoreAllMocks());

const CSV = 'Company,Website\nNebula Labs,https://nebulalabs.io\nQuiet Protocol,quietprotocol.xyz\n';
const GOAL = 'Find the work emails of the team at these companies';
const BODY = {
  preset: 'full_pipeline',
  input_assets: { companies: [{ company_name: 'Nebula Labs', domain: 'nebulalabs.io' }] },
};

/**
 * The next queue send is refused, and so is the next transaction after it (the job's closing); with `landed`,
 * that transaction is written before its error is reported (a timeout after DynamoDB applied it).
 */
function refuseSendThenClose(landed = false) {
  const client = ddb();
  const send = client.send.bind(client) as (c: unknown) => Promise<unknown>;
  let refused = false;
  vi.spyOn(queue, 'send').mockImplementationOnce(async () => {
    refused = true;
    throw new Error('SQS refused 1 of 1 messages');
  });
  const spy = vi.spyOn(client, 'send').mockImplementation((async (command: { constructor: { name: string } }) => {
    if (refused && command.constructor.name === 'TransactWriteCommand') {
      spy.mockRestore();
      if (landed) await send(command);
      throw Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), {
        name: 'ProvisionedThroughputExceededException',
      });
    }
    return send(command);
  }) as never);
}

/** The run's job completes (by the queue); the run is completed and the balance moves by its charge alone. */
async function completedOnce(key: string, userId: string, runId: string) {
  await queue.drained();
  const run = (await api.call('GET', `/growth/runs/${runId}`, { key })).body;
  expect(run.status).toBe('completed');
  const charged = run.preview.pricing.charged_credits;
  expect(charged).toBeGreaterThan(0);
  expect((await getBalance(userId)).available).toBe(10_000 - charged);
}

describe('a create whose job could be neither queued nor failed', () => {
  it('answers the job (the watchdog starts it), keeps the quote used, and the job runs and is charged once', async () => {
    const { user, key } = await api.newUser({ tier: 'pro', credits: 10_000 });
    const quote = (await api.call('POST', '/bd/jobs/quote', { key, body: BODY })).body;
    const body = { ...BODY, quote_token: quote.quote_token };

    refuseSendThenClose();
    const created = await api.call('POST', '/bd/jobs', { key, body });
    vi.restoreAllMocks();
    // The job holds its reservation and will run: "nothing was charged, try again" would start a second one.
    expect(created.status, created.text).toBe(202);
    const job = (await getJob(user.id, created.body.job_id, true))!;
    expect(job.status).toBe('pending');
    expect((await getReservation(user.id, job.reservationId))?.amount).toBe(quote.credits);
    const again = await api.call('POST', '/bd/jobs', { key, body });
    expect(again.status, again.text).toBe(409);

    expect((await superviseJobs({ staleAfterMs: 0, maxRedrives: 3 })).redriven).toBe(1);
    await queue.drained();
    const done = (await api.call('GET', `/bd/jobs/${job.id}`, { key })).body;
    expect(done.status).toBe('completed');
    expect(done.credits_charged).toBeGreaterThan(0);
    expect((await getBalance(user.id)).available).toBe(10_000 - done.credits_charged);
    expect((await api.call('GET', '/bd/jobs', { key })).body.total).toBe(1);
  });

  it('a growth run: started once on that job, its token used, its reservation settled by the job (not released early)', async () => {
    const { user, key } = await api.newUser({ tier: 'pro', credits: 10_000 });
    const resolved = await api.call('POST', '/growth/resolve', { key, body: { goal_text: GOAL, input_text: CSV } });
    const quote = (await api.call('POST', '/growth/quote', { key, body: { goal_plan: resolved.body.goal_plan } })).body;
    const body = { quote_token: quote.quote_token, goal_plan: quote.goal_plan };

    refuseSendThenClose();
    const started = await api.call('POST', '/growth/run', { key, body });
    vi.restoreAllMocks();
    expect(started.status, started.text).toBe(202);
    expect((await getBalance(user.id)).available).toBe(10_000 - quote.credits_total);
    const again = await api.call('POST', '/growth/run', { key, body });
    expect(again.status, again.text).toBe(409);

    expect((await superviseJobs({ staleAfterMs: 0, maxRedrives: 3 })).redriven).toBe(1);
    await completedOnce(key, user.id, started.body.run_id);
  });

  it('a closing that was written although it reported an error: 503, nothing charged, the token given back', async () => {
    const { user, key } = await api.newUser({ tier: 'pro', credits: 10_000 });
    const quote = (await api.call('POST', '/bd/jobs/quote', { key, body: BODY })).body;
    const body = { ...BODY, quote_token: quote.quote_token };

    refuseSendThenClose(true);
    const refused = await api.call('POST', '/bd/jobs', { key, body });
    vi.restoreAllMocks();
    expect(refused.status, refused.text).toBe(503);
    expect((await getBalance(user.id)).available).toBe(10_000);
    const retried = await api.call('POST', '/bd/jobs', { key, body });
    expect(retried.status, retried.text).toBe(202);
    await queue.drained();
  });

  it('a growth run whose job was written although the write reported an error follows that job: not failed, its token kept', async () => {
    const { user, key } = await api.newUser({ tier: 'pro', credits: 10_000 });
    const resolved = await api.call('POST', '/growth/resolve', { key, body: { goal_text: GOAL, input_text: CSV } });
    const quote = (await api.call('POST', '/growth/quote', { key, body: { goal_plan: resolved.body.goal_plan } })).body;
    const body = { quote_token: quote.quote_token, goal_plan: quote.goal_plan };
    // The job's own write (a transaction of its record alone) is applied, then reports a timeout.
    const client = ddb();
    const send = client.send.bind(client) as (c: unknown) => Promise<unknown>;
    const spy = vi.spyOn(client, 'send').mockImplementation((async (command: {
      constructor: { name: string };
      input: any;
    }) => {
      const items = command.input?.TransactItems ?? [];
      if (items.length === 1 && String(items[0].Put?.Item?.sk ?? '').startsWith('JOB#')) {
        spy.mockRestore();
        await send(command);
        throw Object.assign(new Error('Socket timed out'), { name: 'TimeoutError' });
      }
      return send(command);
    }) as never);

    const started = await api.call('POST', '/growth/run', { key, body });
    vi.restoreAllMocks();
    expect(started.status, started.text).toBe(202);
    const again = await api.call('POST', '/growth/run', { key, body });
    expect(again.status, again.text).toBe(409);
    expect((await getBalance(user.id)).available).toBe(10_000 - quote.credits_total);

    // The create found its own job written and queued it, or else the watchdog re-drives it here: either way the
    // job runs once (which of the two depends on timing, so the re-drive count is not asserted).
    await superviseJobs({ staleAfterMs: 0, maxRedrives: 3 });
    await completedOnce(key, user.id, started.body.run_id);
  });
});
