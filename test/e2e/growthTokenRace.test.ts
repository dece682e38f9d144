import { describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '#test/support/api';
import { grantCredits, ledgerBetween } from '#shared/domain/credits/credits';

const api: TestApi = await startTestApi();

const balanceOf = async (key: string): Promise<number> =>
  (await api.call('GET', '/subscriptions/status', { key })).body.credits_total;

describe('parallel reuse of one growth quote token on a balance that covers one run', () => {
  it('answers one 202 and 409 quote_token_used to every other request (never 402), and moves the balance once', async () => {
    // Prepare: a balance of exactly the quoted amount, so every loser also fails the balance check.
    const { key, user } = await api.newUser({ tier: 'pro', credits: 0 });
    const resolve = await api.call('POST', '/growth/resolve', {
      key,
      body: { goal_text: 'Find the work emails of the team at these companies', input_text: 'nebulalabs.io' },
    });
    const quote = (await api.call('POST', '/growth/quote', { key, body: { goal_plan: resolve.body.goal_plan } })).body;
    expect(quote.ok).toBe(true);
    const start = await balanceOf(key);
    await grantCredits({
      userId: user.id,
      grantId: 'race-top-up',
      amount: quote.credits_total - start,
      source: 'operator',
    });
    expect(await balanceOf(key)).toBe(quote.credits_total);

    // Act
    const body = { quote_token: quote.quote_token, goal_plan: quote.goal_plan };
    // Staggered, so that some losers read the token before the winner's write and the wallet after it
    // (the interleaving that answered 402: the balance check failed before the token was looked at again).
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        new Promise((r) => setTimeout(r, i * 2)).then(() => api.call('POST', '/growth/run', { key, body })),
      ),
    );

    // Assess
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([202, ...Array(23).fill(409)]);
    for (const loser of answers.filter((a) => a.status === 409)) expect(loser.body.error.code).toBe('quote_token_used');
    expect(await balanceOf(key)).toBe(0);
    await api.ports.queue.drained();
    const runId = answers.find((a) => a.status === 202)!.body.run_id;
    let run: any;
    for (let i = 0; i < 50; i++) {
      run = (await api.call('GET', `/growth/runs/${runId}`, { key })).body;
      if (['completed', 'failed', 'cancelled'].includes(run.status)) break;
      await new Promise((r) => setTimeout(r, 100));
      await api.ports.queue.drained();
    }
    expect(run.status).toBe('completed');
    const charged = run.preview.pricing.charged_credits;
    expect(await balanceOf(key)).toBe(quote.credits_total - charged);
    const growthEntries = (await ledgerBetween(user.id, '2000-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z')).filter(
      (e) => e.tool_name === 'growth_run',
    );
    expect(growthEntries.map((e) => e.credits)).toEqual(charged > 0 ? [charged] : []);
  });
});
