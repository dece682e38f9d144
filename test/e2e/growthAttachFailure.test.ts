import { describe, expect, it, vi } from 'vitest';
import { startTestApi, type TestApi } from '#test/support/api';

// The run's attachJob fails once, as a write can (throttling, a lost connection), after its job has started.
const attach = vi.hoisted(() => ({ failuresLeft: 0 }));
vi.mock('#shared/store/growthRepo', async (importOriginal) => {
  const original = await importOriginal<typeof import('#shared/store/growthRepo')>();
  return {
    ...original,
    attachJob: async (...args: Parameters<typeof original.attachJob>) => {
      if (attach.failuresLeft > 0) {
        attach.failuresLeft -= 1;
        throw Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), {
          name: 'ThrottlingException',
        });
      }
      return original.attachJob(...args);
    },
  };
});

const api: TestApi = await startTestApi();

const balanceOf = async (key: string): Promise<number> =>
  (await api.call('GET', '/subscriptions/status', { key })).body.credits_total;

describe('a run whose job started but could not be attached at once', () => {
  it('is not failed while its job runs: the job is attached on a later read, and what it consumed is charged', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 5_000 });
    const resolve = await api.call('POST', '/growth/resolve', {
      key,
      body: {
        goal_text: 'Find the work emails of the team at these companies',
        input_text: 'nebulalabs.io\nquietprotocol.xyz',
      },
    });
    const quote = (await api.call('POST', '/growth/quote', { key, body: { goal_plan: resolve.body.goal_plan } })).body;
    expect(quote.ok).toBe(true);

    attach.failuresLeft = 1;
    const started = await api.call('POST', '/growth/run', {
      key,
      body: { quote_token: quote.quote_token, goal_plan: quote.goal_plan },
    });
    expect(attach.failuresLeft).toBe(0);
    expect(started.status).toBe(202);

    let run = { status: 'pending' } as {
      status: string;
      job_id: string | null;
      preview: { pricing: { charged_credits: number | null } };
    };
    for (let i = 0; i < 50 && !['completed', 'failed', 'cancelled'].includes(run.status); i++) {
      await api.ports.queue.drained();
      run = (await api.call('GET', `/growth/runs/${started.body.run_id}`, { key })).body;
      if (run.status === 'pending') await new Promise((r) => setTimeout(r, 100));
    }
    expect(run.status).toBe('completed');
    expect(run.job_id).toEqual(expect.any(String));
    const job = (await api.call('GET', `/bd/jobs/${run.job_id}`, { key })).body;
    expect(job.credits_charged).toBeGreaterThan(0);
    expect(run.preview.pricing.charged_credits).toBe(job.credits_charged);
    expect(await balanceOf(key)).toBe(5_000 - job.credits_charged);
  });
});
