import { describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '#test/support/api';

const api: TestApi = await startTestApi();

/** Two curated companies (one with people, one without) and one the curated data does not know. */
const CSV =
  'Company,Website\nNebula Labs,https://nebulalabs.io\nQuiet Protocol,quietprotocol.xyz\nNowhere Widgets,nowhere-widgets-growth.com\n';
const GOAL = 'Find the work emails of the team at these companies';

const balanceOf = async (key: string): Promise<number> =>
  (await api.call('GET', '/subscriptions/status', { key })).body.credits_total;

async function quoted(key: string, options: { chat_id?: string; input_text?: string } = {}) {
  const resolve = await api.call('POST', '/growth/resolve', {
    key,
    body: { goal_text: GOAL, input_text: options.input_text ?? CSV },
  });
  expect(resolve.status).toBe(200);
  const quote = await api.call('POST', '/growth/quote', {
    key,
    body: { goal_plan: resolve.body.goal_plan, ...(options.chat_id ? { chat_id: options.chat_id } : {}) },
  });
  expect(quote.body.ok).toBe(true);
  return { resolve: resolve.body, quote: quote.body };
}

async function finished(key: string, runId: string) {
  await api.ports.queue.drained();
  for (let i = 0; i < 50; i++) {
    const res = await api.call('GET', `/growth/runs/${runId}`, { key });
    expect(res.status).toBe(200);
    if (['completed', 'failed', 'cancelled'].includes(res.body.status)) return res.body;
    await new Promise((r) => setTimeout(r, 100));
    await api.ports.queue.drained();
  }
  throw new Error('run did not finish');
}

describe('a growth run from a pasted CSV to a downloaded result', () => {
  it('runs the quoted plan to completion, charges what it consumed, rebates the rest and stores the result under the chat', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 5_000 });
    const chat = (await api.call('POST', '/chats', { key, body: { title: 'Growth' } })).body;
    const { resolve, quote } = await quoted(key, { chat_id: chat.id });
    expect(resolve.coverage_mode).toBe('partial');
    const before = await balanceOf(key);

    const started = await api.call('POST', '/growth/run', {
      key,
      body: { quote_token: quote.quote_token, goal_plan: quote.goal_plan },
    });
    expect(started.status).toBe(202);
    expect(started.body).toEqual({ run_id: expect.any(String), status: 'pending' });

    const run = await finished(key, started.body.run_id);
    expect(run.status).toBe('completed');
    expect(run.progress).toEqual({ percent: 100, message: expect.any(String) });
    expect(Object.keys(run.stage_status)).toEqual(quote.goal_plan.capabilities);
    for (const s of Object.values(run.stage_status)) expect(['completed', 'skipped']).toContain(s);

    const { quoted_credits, charged_credits, rebate_credits } = run.preview.pricing;
    expect(quoted_credits).toBe(quote.credits_total);
    expect(charged_credits).toBeGreaterThan(0);
    expect(charged_credits).toBeLessThanOrEqual(quoted_credits);
    expect(rebate_credits).toBe(quoted_credits - charged_credits);
    expect(await balanceOf(key)).toBe(before - charged_credits);

    const usage = (await api.call('GET', '/credits/usage', { key })).body;
    expect(usage.by_tool).toContainEqual({ tool_name: 'growth_run', credits: charged_credits });

    expect(run.preview.delivered_counts.rows).toBeGreaterThan(0);
    expect(run.preview.delivered_counts.companies).toBe(3);
    expect(run.preview.rows.length).toBe(Math.min(5, run.preview.delivered_counts.rows));
    expect(Object.keys(run.preview.rows[0])).toEqual(quote.goal_plan.output.required_fields);
    expect(run.data_source_mix.enriched_records).toBeGreaterThan(0);
    expect(run.gap_report.unresolved_count).toBeGreaterThan(0);
    expect(run.gap_report.reasons.no_contact_found).toBeGreaterThan(0);
    expect(run.gap_report.unresolved[0]).toEqual({
      row: expect.any(Number),
      label: expect.any(String),
      reason: expect.any(String),
    });

    const [handle] = run.result_handles;
    expect(handle).toEqual({
      result_id: expect.any(String),
      tool_name: 'growth_plan',
      records_count: run.preview.delivered_counts.rows,
    });
    expect(run.artifact_handles).toEqual([{ asset_id: handle.result_id, label: expect.any(String), kind: 'dataset' }]);
    const stored = await api.call('GET', `/results/${handle.result_id}`, { key });
    expect(stored.body).toMatchObject({ tool_name: 'growth_plan', chat_id: chat.id, chat_title: 'Growth' });
    expect(stored.body.result_data.pricing).toEqual(run.preview.pricing);
    const listed = await api.call('GET', `/results?tool_name=growth_plan&chat_id=${chat.id}`, { key });
    expect(listed.body.total).toBe(1);

    expect(run.export_handles.map((h: any) => h.format)).toEqual(['csv', 'json']);
    const json = await api.call('GET', run.export_handles[1].url, { key });
    expect(json.status).toBe(200);
    expect(json.body.rows).toHaveLength(run.preview.delivered_counts.rows);
    const csv = await api.call('GET', run.export_handles[0].url, { key });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = csv.text.trim().split(/\r?\n/);
    expect(lines[0].split(',')).toEqual(expect.arrayContaining(['company_name', 'domain', 'email', 'email_status']));
    expect(lines).toHaveLength(json.body.rows.length + 1);

    // Reading again changes nothing: the outcome and the stored result were fixed once.
    const again = (await api.call('GET', `/growth/runs/${run.run_id}`, { key })).body;
    expect(again.result_handles).toEqual(run.result_handles);
    expect(again.progress).toEqual(run.progress);
    expect(again.stage_status).toEqual(run.stage_status);
    expect(await balanceOf(key)).toBe(before - charged_credits);
  });
});

describe('a lead generation run from a goal that names a sector', () => {
  it('sources companies from the curated data, gates them by the ICP and runs the full pipeline preset', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 5_000 });
    const resolve = await api.call('POST', '/growth/resolve', {
      key,
      body: { goal_text: 'Generate qualified leads in DeFi', constraints: { count: 3 }, icp_config: { min_score: 10 } },
    });
    expect(resolve.body).toMatchObject({
      goal_type: 'lead_generation',
      quotable: true,
      goal_plan: { preset: 'full_pipeline', execution_options: { icp_gate: 'apply', niche: 'DeFi' } },
    });
    const quote = (await api.call('POST', '/growth/quote', { key, body: { goal_plan: resolve.body.goal_plan } })).body;
    const started = await api.call('POST', '/growth/run', {
      key,
      body: { quote_token: quote.quote_token, goal_plan: quote.goal_plan },
    });
    const run = await finished(key, started.body.run_id);
    expect(run.status).toBe('completed');
    expect(run.preview.pricing.rebate_credits).toBe(quote.credits_total - run.preview.pricing.charged_credits);
    const job = await api.call('GET', `/bd/jobs/${run.job_id}`, { key });
    expect(job.body).toMatchObject({ preset: 'full_pipeline', origin: `growth_run:${run.run_id}` });
    expect(job.body.credits_charged).toBe(run.preview.pricing.charged_credits);
  });
});

describe('POST /growth/run guards', () => {
  it('uses a token once: 409 quote_token_used on reuse, and the balance moves once', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 5_000 });
    const { quote } = await quoted(key, { input_text: 'nebulalabs.io' });
    const body = { quote_token: quote.quote_token, goal_plan: quote.goal_plan };
    const [a, b] = await Promise.all([
      api.call('POST', '/growth/run', { key, body }),
      api.call('POST', '/growth/run', { key, body }),
    ]);
    expect([a.status, b.status].sort()).toEqual([202, 409]);
    expect([a, b].find((r) => r.status === 409)!.body.error.code).toBe('quote_token_used');
    const again = await api.call('POST', '/growth/run', { key, body });
    expect(again.status).toBe(409);
    const run = await finished(key, [a, b].find((r) => r.status === 202)!.body.run_id);
    expect(await balanceOf(key)).toBe(5_000 - run.preview.pricing.charged_credits);
  });

  it('replays the first answer for the same Idempotency-Key', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 5_000 });
    const { quote } = await quoted(key, { input_text: 'nebulalabs.io' });
    const body = { quote_token: quote.quote_token, goal_plan: quote.goal_plan };
    const headers = { 'idempotency-key': 'growth-run-once' };
    const first = await api.call('POST', '/growth/run', { key, body, headers });
    const second = await api.call('POST', '/growth/run', { key, body, headers });
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.body.run_id).toBe(first.body.run_id);
    await api.ports.queue.drained();
  });

  it('accepts only the normalised plan that was quoted: 422 quote_mismatch otherwise, token kept', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 5_000 });
    const { quote } = await quoted(key, { input_text: 'nebulalabs.io' });
    const other = (await quoted(key, { input_text: 'quietprotocol.xyz' })).quote;
    for (const goal_plan of [
      other.goal_plan,
      { ...quote.goal_plan, output: { ...quote.goal_plan.output, preview_rows: 50 } },
      { nonsense: true },
    ]) {
      const res = await api.call('POST', '/growth/run', { key, body: { quote_token: quote.quote_token, goal_plan } });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('quote_mismatch');
    }
    const ok = await api.call('POST', '/growth/run', {
      key,
      body: { quote_token: quote.quote_token, goal_plan: quote.goal_plan },
    });
    expect(ok.status).toBe(202);
    await api.ports.queue.drained();
  });

  it("refuses another user's token with 422 and an unknown token the same way", async () => {
    const alice = await api.newUser({ tier: 'pro', credits: 5_000 });
    const bob = await api.newUser({ tier: 'pro', credits: 5_000 });
    const { quote } = await quoted(alice.key, { input_text: 'nebulalabs.io' });
    for (const token of [quote.quote_token, 'gq_unknown']) {
      const res = await api.call('POST', '/growth/run', {
        key: bob.key,
        body: { quote_token: token, goal_plan: quote.goal_plan },
      });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('quote_mismatch');
    }
  });

  it('answers 402 when the balance cannot cover the quote, creating nothing and keeping the token', async () => {
    const { key, user } = await api.newUser({ tier: 'pro', credits: 0 });
    const { quote } = await quoted(key);
    const available = await balanceOf(key);
    if (available >= quote.credits_total)
      throw new Error(`test needs a balance below ${quote.credits_total}, has ${available}`);
    const res = await api.call('POST', '/growth/run', {
      key,
      body: { quote_token: quote.quote_token, goal_plan: quote.goal_plan },
    });
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({
      code: 'insufficient_credits',
      details: { required: quote.credits_total, available },
    });
    expect(await balanceOf(key)).toBe(available);
    expect(user.id).toBeTruthy();
  });

  it('needs a pro subscription to run and to read runs (403)', async () => {
    const { key } = await api.newUser({ credits: 5_000 });
    const { quote } = await quoted(key, { input_text: 'nebulalabs.io' });
    const run = await api.call('POST', '/growth/run', {
      key,
      body: { quote_token: quote.quote_token, goal_plan: quote.goal_plan },
    });
    expect(run.status).toBe(403);
    expect(run.body.error.code).toBe('subscription_required');
    expect((await api.call('GET', '/growth/runs/01938a6e-0000-7000-8000-000000000000', { key })).status).toBe(403);
  });

  it("answers 404 for an unknown run and for another user's run", async () => {
    const alice = await api.newUser({ tier: 'pro', credits: 5_000 });
    const bob = await api.newUser({ tier: 'pro', credits: 5_000 });
    const { quote } = await quoted(alice.key, { input_text: 'nebulalabs.io' });
    const started = await api.call('POST', '/growth/run', {
      key: alice.key,
      body: { quote_token: quote.quote_token, goal_plan: quote.goal_plan },
    });
    for (const path of [
      `/growth/runs/${started.body.run_id}`,
      `/growth/runs/${started.body.run_id}/export?format=csv`,
    ]) {
      const res = await api.call('GET', path, { key: bob.key });
      expect(res.status).toBe(404);
    }
    expect((await api.call('POST', `/growth/runs/${started.body.run_id}/cancel`, { key: bob.key })).status).toBe(404);
    expect((await api.call('GET', '/growth/runs/not-a-uuid', { key: alice.key })).status).toBe(400);
    await api.ports.queue.drained();
  });
});
