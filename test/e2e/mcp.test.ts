import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Client } from '@modelcontextprotocol/client';
import { ManualClock } from '#shared/adapters/clock';
import { getBalance } from '#shared/domain/credits/credits';
import { startTestApi } from '#test/support/api';
import { readGuidePage, shellBlocks } from '#test/support/guide';
import { mcpClient, REVISIONS } from '#test/support/mcpClient';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { identifyCaller } from '#shared/domain/accounts/callerIdentity';
import { nextStepFor } from '#shared/mcp/toolResults';
import { handler as mcpHandler, mcpHandler as mcpHandlerFor, ROUTES } from '#functions/mcp/handler';

// The clock moves by hand only to expire a quote; the pipeline queue runs as on `npm start`.
const clock = new ManualClock(new Date());
const api = await startTestApi({ clock });

const TOOL_NAMES = [
  'get_account',
  'get_credit_usage',
  'list_packages',
  'resolve_package',
  'quote_package',
  'execute_package',
  'get_intelligence_result',
  'expand_result',
  'list_results',
  'get_result',
  'resolve_growth_goal',
  'quote_growth_plan',
  'start_growth_run',
  'get_growth_run',
  'quote_enrichment_job',
  'start_enrichment_job',
  'get_job',
  'list_jobs',
  'cancel_job',
  'list_communities',
  'get_moderation_status',
];
const SPENDING = ['execute_package', 'expand_result', 'start_growth_run', 'start_enrichment_job'];

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

type ToolResult = {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, any>;
  isError?: boolean;
  _meta?: Record<string, any>;
};

/** Output schemas by tool, as tools/list publishes them, compiled once (calls in flight together wait for the same). */
let outputChecks: Promise<Map<string, ReturnType<typeof ajv.compile>>> | undefined;
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  outputChecks ??= client
    .listTools()
    .then(({ tools }) => new Map(tools.map((tool) => [tool.name, ajv.compile(tool.outputSchema!)])));
  const outputCheck = await outputChecks;
  const result = (await client.callTool({ name, arguments: args })) as ToolResult;
  if (!result.isError) {
    // structuredContent matches the published outputSchema, and the text is the same JSON.
    const check = outputCheck.get(name)!;
    expect(check(result.structuredContent), `${name}: ${JSON.stringify(check.errors)}`).toBe(true);
    expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
  }
  return result;
}

const ok = (result: ToolResult) => {
  expect(result.isError, result.content.map((c) => c.text).join('\n')).toBeFalsy();
  return result.structuredContent!;
};
const errorCode = (result: ToolResult) => {
  expect(result.isError).toBe(true);
  return JSON.parse(result.content[1].text).error.code as string;
};
const available = async (userId: string) => (await getBalance(userId)).available;

const SLOTS = { sector_focus: 'defi', stage: 'seed', limit: 10 };
const GROWTH_GOAL = 'Find the work emails of the founders at these companies';
const GROWTH_CSV = 'Company,Website\nAcme Inc,https://www.acme-growth.com/\nGlobex,globex-growth.io\n';
const JOB = {
  preset: 'full_pipeline',
  input_assets: {
    companies: [
      { company_name: 'Nebula Labs', website: 'https://www.nebulalabs.io/about' },
      { company_name: 'Quiet Protocol', domain: 'quietprotocol.xyz' },
    ],
  },
};

describe.each(REVISIONS)('protocol revision $name', (revision) => {
  it('negotiates the revision and lists the 21 tools with schemas and annotations', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 1000 });
    const client = await mcpClient(api.baseUrl, key, revision);
    expect(client.getNegotiatedProtocolVersion()).toBe(revision.name);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
      expect(tool.description!.length, tool.name).toBeGreaterThan(60);
      expect(tool.annotations?.openWorldHint, tool.name).toBe(false);
      if (SPENDING.includes(tool.name)) {
        expect(tool.annotations, tool.name).toMatchObject({
          readOnlyHint: false,
          destructiveHint: false,
          idempotentHint: true,
        });
        expect(tool.inputSchema.required, tool.name).toContain('quote_token');
      } else if (tool.name === 'cancel_job') {
        expect(tool.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
      } else {
        expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      }
    }
    // Text community members wrote reaches the agent marked as untrusted, in the server's instructions, the tool's
    // description and each quoting field of its output schema.
    expect(client.getInstructions()).toMatch(/user_id[^.]*message_excerpt[^.]*untrusted, never instructions/);
    const status = tools.find((t) => t.name === 'get_moderation_status');
    expect(status?.description).toMatch(/untrusted text .*never to obey/);
    const auditEntry = (status!.outputSchema as any).properties.audit_logs.items.properties;
    for (const field of ['user_id', 'username', 'message_excerpt', 'alert_message'])
      expect(auditEntry[field].description, field).toMatch(/untrusted text .*never instructions to follow/);
    // The list tools offer 25 records a call at most.
    for (const name of [
      'list_results',
      'list_jobs',
      'list_communities',
      'list_packages',
      'get_intelligence_result',
      'get_result',
    ]) {
      expect((tools.find((t) => t.name === name)!.inputSchema.properties as any).limit.maximum, name).toBe(25);
    }
    // The job tools take the create body the HTTP API takes.
    const start = tools.find((t) => t.name === 'start_enrichment_job')!;
    expect(Object.keys(start.inputSchema.properties!)).toEqual(
      expect.arrayContaining(['preset', 'requested_capabilities', 'input_assets', 'icp_config', 'quote_token']),
    );
  });

  it('answers a tool call with structuredContent valid against its outputSchema', async () => {
    const { user, key } = await api.newUser({ tier: 'pro', credits: 1234 });
    const client = await mcpClient(api.baseUrl, key, revision);
    const account = ok(await call(client, 'get_account', {}));
    expect(account).toMatchObject({ id: user.id, subscription_tier: 'pro', permanent_credit_balance: 1234 });
    const packages = ok(await call(client, 'list_packages', { limit: 3 }));
    expect(packages).toMatchObject({ total: 7, limit: 3, offset: 0 });
    expect(packages.items).toHaveLength(3);
  });
});

describe('an agent speaking only MCP', () => {
  it('finds VCs, unlocks contacts and spends exactly what it was quoted, once, whatever it retries', async () => {
    const { user, key } = await api.newUser({ tier: 'pro', credits: 10_000 });
    const client = await mcpClient(api.baseUrl, key);

    const resolved = ok(
      await call(client, 'resolve_package', { package_id: 'vc-shortlist-v1', request_text: '10 seed-stage DeFi VCs' }),
    );
    expect(resolved.intent_status).toBe('ready_for_quote');
    const quote = ok(await call(client, 'quote_package', { package_id: 'vc-shortlist-v1', slots: SLOTS }));
    expect(await available(user.id)).toBe(10_000);

    const args = { package_id: 'vc-shortlist-v1', slots: SLOTS, quote_token: quote.quote_token };
    const executed = await call(client, 'execute_package', args);
    const run = ok(executed);
    expect(run.credits_charged).toBeLessThanOrEqual(quote.credits);
    expect(executed._meta?.credits).toEqual({ charged: run.credits_charged, remaining: 10_000 - run.credits_charged });
    expect(await available(user.id)).toBe(10_000 - run.credits_charged);

    // The agent's client retries (a lost answer): the first result again, nothing more charged.
    const retried = await call(client, 'execute_package', args);
    expect(ok(retried)).toEqual(run);
    expect(retried._meta?.credits).toEqual({ charged: 0, remaining: 10_000 - run.credits_charged });
    expect(await available(user.id)).toBe(10_000 - run.credits_charged);

    // Records come 25 at most a call, whole, with what is left in _meta.page.
    const first = await call(client, 'get_intelligence_result', { result_id: run.result_id, limit: 4 });
    expect(ok(first).records).toHaveLength(4);
    expect(first._meta?.page).toEqual({ offset: 0, limit: 4, returned: 4, total: run.records_count, next_offset: 4 });
    const rest = await call(client, 'get_intelligence_result', { result_id: run.result_id, limit: 25, offset: 4 });
    expect(ok(rest).records).toHaveLength(run.records_count - 4);
    expect(rest._meta?.page.next_offset).toBeNull();
    expect([...ok(first).records, ...ok(rest).records].map((r: { record_id: string }) => r.record_id)).toHaveLength(
      new Set([...ok(first).records, ...ok(rest).records].map((r: { record_id: string }) => r.record_id)).size,
    );

    const params = { selection: { mode: 'top_n', n: 2 }, contact_tier: 'email' };
    const unlockQuote = ok(
      await call(client, 'quote_package', {
        package_id: 'vc-shortlist-v1',
        expansion_scope: {
          parent_result_id: run.result_id,
          expansion_type: 'contact_unlock',
          expansion_params: params,
        },
      }),
    );
    const before = await available(user.id);
    const unlocked = await call(client, 'expand_result', {
      parent_result_id: run.result_id,
      expansion_type: 'contact_unlock',
      expansion_params: params,
      quote_token: unlockQuote.quote_token,
    });
    expect(ok(unlocked).credits_charged).toBe(unlockQuote.credits);
    expect(unlocked._meta?.credits).toEqual({ charged: unlockQuote.credits, remaining: before - unlockQuote.credits });
    expect(await available(user.id)).toBe(before - unlockQuote.credits);
  });

  it('runs an enrichment job from a quote and follows it; a retry starts nothing more', async () => {
    const { user, key } = await api.newUser({ tier: 'pro', credits: 10_000 });
    const client = await mcpClient(api.baseUrl, key, REVISIONS[0]);
    const quote = ok(await call(client, 'quote_enrichment_job', JOB));
    expect(quote.breakdown.reduce((s: number, l: { credits: number }) => s + l.credits, 0)).toBe(quote.credits);

    const started = await call(client, 'start_enrichment_job', { ...JOB, quote_token: quote.quote_token });
    const job = ok(started);
    expect(job.credits_reserved).toBe(quote.credits);
    expect(started._meta?.credits).toEqual({ charged: quote.credits, remaining: 10_000 - quote.credits });
    const again = await call(client, 'start_enrichment_job', { ...JOB, quote_token: quote.quote_token });
    expect(ok(again).job_id).toBe(job.job_id);
    expect(again._meta?.credits.charged).toBe(0);

    await api.ports.queue.drained();
    const done = ok(await call(client, 'get_job', { job_id: job.job_id }));
    expect(done.status).toBe('completed');
    expect(done.credits_charged).toBeLessThanOrEqual(quote.credits);
    expect(await available(user.id)).toBe(10_000 - done.credits_charged);
    const jobs = ok(await call(client, 'list_jobs', {}));
    expect(jobs).toMatchObject({ total: 1, limit: 25 });
    const stored = await call(client, 'get_result', { result_id: done.result_id, limit: 2 });
    expect(ok(stored).id).toBe(done.result_id);
    expect(ok(stored).result_data.rows).toHaveLength(2);
    expect(stored._meta?.page).toMatchObject({ offset: 0, limit: 2, returned: 2, total: done.stats.rows_delivered });

    // A finished job cannot be cancelled: an isError result naming the code and what to do next.
    const cancelled = await call(client, 'cancel_job', { job_id: job.job_id });
    expect(errorCode(cancelled)).toBe('invalid_state');
    expect(cancelled.content[0].text).toMatch(/^Error invalid_state: .*Next step: /);
  });

  it('a bad, used or expired token is an isError result and charges nothing', async () => {
    const { user, key } = await api.newUser({ tier: 'pro', credits: 10_000 });
    const client = await mcpClient(api.baseUrl, key);
    const missing = await call(client, 'start_enrichment_job', JOB);
    expect(errorCode(missing)).toBe('validation_error');
    expect(missing.content[0].text).toMatch(/quote_enrichment_job/);

    const bogus = await call(client, 'execute_package', {
      package_id: 'vc-shortlist-v1',
      slots: SLOTS,
      quote_token: 'qt_bogus',
    });
    expect(errorCode(bogus)).toBe('quote_mismatch');

    // Used over HTTP first (no Idempotency-Key there): the tool's call is a different request.
    const used = ok(await call(client, 'quote_enrichment_job', JOB));
    expect((await api.call('POST', '/bd/jobs', { key, body: { ...JOB, quote_token: used.quote_token } })).status).toBe(
      202,
    );
    await api.ports.queue.drained();
    const spent = await available(user.id);
    const reused = await call(client, 'start_enrichment_job', { ...JOB, quote_token: used.quote_token });
    expect(errorCode(reused)).toBe('quote_token_used');
    expect(reused.content[0].text).toMatch(/quote again/);

    const late = ok(await call(client, 'quote_enrichment_job', JOB));
    clock.advance(15 * 60 * 1000 + 1);
    const expired = await call(client, 'start_enrichment_job', { ...JOB, quote_token: late.quote_token });
    expect(errorCode(expired)).toBe('quote_expired');

    // Arguments other than the quoted ones: the route's quote_mismatch.
    const other = ok(await call(client, 'quote_enrichment_job', JOB));
    const changed = await call(client, 'start_enrichment_job', {
      ...JOB,
      preset: 'company_size_and_email_verify',
      quote_token: other.quote_token,
    });
    expect(errorCode(changed)).toBe('quote_mismatch');
    expect(await available(user.id)).toBe(spent);
    // The mistaken call does not hold the token: the quoted arguments then go through, once.
    const corrected = await call(client, 'start_enrichment_job', { ...JOB, quote_token: other.quote_token });
    expect(ok(corrected).credits_reserved).toBe(other.credits);
    expect(await available(user.id)).toBe(spent - other.credits);
    await api.ports.queue.drained();
  });

  it('a retry sent while the first call still runs waits for it: the first result, charged once', async () => {
    const { user, key } = await api.newUser({ tier: 'pro', credits: 10_000 });
    const client = await mcpClient(api.baseUrl, key);
    const jobQuote = ok(await call(client, 'quote_enrichment_job', JOB));
    const startArgs = { ...JOB, quote_token: jobQuote.quote_token };
    const starts = await Promise.all([1, 2, 3].map(() => call(client, 'start_enrichment_job', startArgs)));
    const jobIds = new Set(starts.map((r) => ok(r).job_id));
    expect(jobIds.size).toBe(1);
    expect(starts.map((r) => r._meta?.credits.charged).sort()).toEqual([0, 0, jobQuote.credits]);
    await api.ports.queue.drained();
    const job = ok(await call(client, 'get_job', { job_id: [...jobIds][0] }));
    expect(ok(await call(client, 'list_jobs', {})).total).toBe(1);
    expect(await available(user.id)).toBe(10_000 - job.credits_charged);

    const quote = ok(await call(client, 'quote_package', { package_id: 'vc-shortlist-v1', slots: SLOTS }));
    const args = { package_id: 'vc-shortlist-v1', slots: SLOTS, quote_token: quote.quote_token };
    const runs = await Promise.all([1, 2, 3].map(() => call(client, 'execute_package', args)));
    const [first] = runs.map(ok);
    for (const run of runs) expect(ok(run)).toEqual(first);
    expect(runs.map((r) => r._meta?.credits.charged).sort((x, y) => x - y)).toEqual([0, 0, first.credits_charged]);
    expect(await available(user.id)).toBe(10_000 - job.credits_charged - first.credits_charged);
  });

  it('a retry whose arguments differ in form only is quote_token_used, telling the agent where the first result is rather than to buy it again', async () => {
    const { user, key } = await api.newUser({ tier: 'pro', credits: 10_000 });
    const client = await mcpClient(api.baseUrl, key);
    const quote = ok(await call(client, 'quote_package', { package_id: 'vc-shortlist-v1', slots: SLOTS }));
    const run = ok(
      await call(client, 'execute_package', {
        package_id: 'vc-shortlist-v1',
        slots: SLOTS,
        quote_token: quote.quote_token,
      }),
    );
    // The same purchase as the route reads it (slots compare in canonical form), but other arguments.
    const retried = await call(client, 'execute_package', {
      package_id: 'vc-shortlist-v1',
      slots: { ...SLOTS, sector_focus: 'DeFi', stage: 'Seed' },
      quote_token: quote.quote_token,
    });
    expect(errorCode(retried)).toBe('quote_token_used');
    expect(retried.content[0].text).toMatch(/list_results/);
    expect(retried.content[0].text).toMatch(/do not quote again for the same purchase/);
    expect(ok(await call(client, 'list_results', {})).items.map((r: { id: string }) => r.id)).toEqual([run.result_id]);
    expect(await available(user.id)).toBe(10_000 - run.credits_charged);
  });

  it('a spend the pipeline would not take (service_unavailable, nothing charged) goes through when called again as told', async () => {
    const { user, key } = await api.newUser({ tier: 'pro', credits: 10_000 });
    const client = await mcpClient(api.baseUrl, key);
    const refuseOnce = () =>
      vi.spyOn(api.ports.queue, 'send').mockRejectedValueOnce(new Error('SQS refused 1 of 1 messages'));

    const jobQuote = ok(await call(client, 'quote_enrichment_job', JOB));
    const jobArgs = { ...JOB, quote_token: jobQuote.quote_token };
    const refusedSend = refuseOnce();
    const refused = await call(client, 'start_enrichment_job', jobArgs);
    refusedSend.mockRestore();
    expect(errorCode(refused)).toBe('service_unavailable');
    expect(refused.content[0].text).toMatch(/call again with the same arguments/);
    expect(await available(user.id)).toBe(10_000);
    const started = await call(client, 'start_enrichment_job', jobArgs);
    expect(ok(started).credits_reserved).toBe(jobQuote.credits);
    expect(started._meta?.credits.charged).toBe(jobQuote.credits);
    // The job's own stage messages must not meet the refusal meant for the run's.
    await api.ports.queue.drained();

    const resolved = ok(await call(client, 'resolve_growth_goal', { goal_text: GROWTH_GOAL, input_text: GROWTH_CSV }));
    const growthQuote = ok(await call(client, 'quote_growth_plan', { goal_plan: resolved.goal_plan }));
    const runArgs = { goal_plan: growthQuote.goal_plan, quote_token: growthQuote.quote_token };
    const refusedRunSend = refuseOnce();
    const refusedRun = await call(client, 'start_growth_run', runArgs);
    refusedRunSend.mockRestore();
    expect(errorCode(refusedRun)).toBe('service_unavailable');
    const run = await call(client, 'start_growth_run', runArgs);
    expect(ok(run).status).toBe('pending');
    expect(run._meta?.credits.charged).toBe(growthQuote.credits_total);
    await api.ports.queue.drained();
  });

  it('out of credits: insufficient_credits, telling the agent to get credits and quote again', async () => {
    const { user, key } = await api.newUser({ tier: 'pro', credits: 20 });
    const client = await mcpClient(api.baseUrl, key);
    const quote = ok(await call(client, 'quote_package', { package_id: 'vc-shortlist-v1', slots: SLOTS }));
    const refused = await call(client, 'execute_package', {
      package_id: 'vc-shortlist-v1',
      slots: SLOTS,
      quote_token: quote.quote_token,
    });
    expect(errorCode(refused)).toBe('insufficient_credits');
    expect(JSON.parse(refused.content[1].text).error.details).toMatchObject({ available: 20 });
    expect(refused.content[0].text).toMatch(/add credits.*quote again/i);
    expect(await available(user.id)).toBe(20);
  });

  it('every error code a tool’s route can answer has a next step of its own', () => {
    const fallback = nextStepFor('no_such_code');
    for (const code of [
      'validation_error',
      'unauthorized',
      'insufficient_credits',
      'subscription_required',
      'not_found',
      'quote_token_used',
      'idempotency_conflict',
      'concurrent_update',
      'quote_expired',
      'quote_mismatch',
      'invalid_state',
      'payload_too_large',
      'rate_limited',
      'dataset_loading',
      'service_unavailable',
      'internal_error',
    ])
      expect(nextStepFor(code), code).not.toBe(fallback);
  });

  it('a developer-tier key on a pro tool: subscription_required, and no tool starts a checkout', async () => {
    const { key } = await api.newUser({ tier: 'developer', credits: 10_000 });
    const client = await mcpClient(api.baseUrl, key);
    const quote = ok(await call(client, 'quote_package', { package_id: 'vc-shortlist-v1', slots: SLOTS }));
    const refused = await call(client, 'execute_package', {
      package_id: 'vc-shortlist-v1',
      slots: SLOTS,
      quote_token: quote.quote_token,
    });
    expect(errorCode(refused)).toBe('subscription_required');
    expect(refused.content[0].text).toMatch(/ask a person to upgrade/);
  });

  it('list_communities never shows an activation token (whoever holds it can bind the community)', async () => {
    const { key } = await api.newUser({ credits: 1000 });
    const created = await api.call('POST', '/api/v1/integrations/moderation/communities', {
      key,
      body: { name: 'c', project_name: 'Acme', type: 'telegram' },
    });
    expect(created.body.activation_token).toEqual(expect.any(String));
    const client = await mcpClient(api.baseUrl, key);
    const result = await call(client, 'list_communities', {});
    expect(ok(result)).toMatchObject({ items: [{ id: created.body.id, activation_token: null }], total: 1 });
    expect(JSON.stringify(result)).not.toContain(created.body.activation_token);
  });

  it('lists 25 records a call at most: more is a validation error, not a cut', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 10 });
    const client = await mcpClient(api.baseUrl, key);
    expect(errorCode(await call(client, 'list_results', { limit: 26 }))).toBe('validation_error');
    expect(errorCode(await call(client, 'get_moderation_status', { include_logs: 50 }))).toBe('validation_error');
    expect(ok(await call(client, 'list_results', { limit: 25 }))).toMatchObject({ limit: 25, offset: 0 });
    // The routes read query text as numbers: a count sent as text (which their own maximum of 100 would let
    // through) is held to the same 25.
    for (const name of ['list_results', 'list_jobs', 'list_communities'])
      expect(errorCode(await call(client, name, { limit: '100' })), name).toBe('validation_error');
    expect(errorCode(await call(client, 'get_moderation_status', { include_logs: '50' }))).toBe('validation_error');
    expect(ok(await call(client, 'list_results', { limit: '10' }))).toMatchObject({ limit: 10 });
    // Empty text is "not given" to a route, whose own default (50) would pass the cap: here it is the cap.
    // Spaces are a value the route refuses, and so does the tool.
    for (const name of ['list_results', 'list_jobs']) {
      expect(ok(await call(client, name, { limit: '' })), name).toMatchObject({ limit: 25 });
      expect(errorCode(await call(client, name, { limit: '  ' })), name).toBe('validation_error');
      const overHttp = await api.call('GET', `/api/v1/${name === 'list_jobs' ? 'bd/jobs' : 'results'}?limit=%20%20`, {
        key,
      });
      expect(overHttp.status, name).toBe(400);
    }
  });

  it('an argument the tool does not take is a validation error, never passed over (a typo must not pass silently)', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 10_000 });
    const client = await mcpClient(api.baseUrl, key);
    const quote = ok(await call(client, 'quote_package', { package_id: 'vc-shortlist-v1', slots: SLOTS }));
    const run = ok(
      await call(client, 'execute_package', {
        package_id: 'vc-shortlist-v1',
        slots: SLOTS,
        quote_token: quote.quote_token,
      }),
    );
    const jobQuote = ok(await call(client, 'quote_enrichment_job', JOB));
    const job = ok(await call(client, 'start_enrichment_job', { ...JOB, quote_token: jobQuote.quote_token }));
    const refused = async (name: string, args: Record<string, unknown>, typo: string) => {
      const result = await call(client, name, args);
      expect(errorCode(result), name).toBe('validation_error');
      expect(JSON.parse(result.content[1].text).error.details, name).toEqual([expect.objectContaining({ path: typo })]);
    };
    // "ofset" for offset would otherwise answer the first page again, as if it were the next.
    await refused('get_intelligence_result', { result_id: run.result_id, limit: 5, ofset: 5 }, 'ofset');
    await refused('get_result', { result_id: run.result_id, ofset: 5 }, 'ofset');
    await refused('list_packages', { ofset: 5 }, 'ofset');
    await refused('get_account', { user_id: 'someone-else' }, 'user_id');
    await refused('get_job', { job_id: job.job_id, include: 'rows' }, 'include');
    await refused('get_growth_run', { run_id: job.job_id, verbose: true }, 'verbose');
    // A destructive tool does nothing on arguments it does not understand.
    await refused('cancel_job', { job_id: job.job_id, reason: 'typo' }, 'reason');
    await api.ports.queue.drained();
    expect(ok(await call(client, 'get_job', { job_id: job.job_id })).status).toBe('completed');
  });

  it('pages an expansion’s records 25 at a time; a later page is a replay that charges nothing', async () => {
    const { user, key } = await api.newUser({ tier: 'pro', credits: 100_000 });
    const client = await mcpClient(api.baseUrl, key);
    const package_id = 'builder-discovery-v1';
    const slots = { category: 'smart-contract-engineer', limit: 50 };
    const quote = ok(await call(client, 'quote_package', { package_id, slots }));
    const run = ok(await call(client, 'execute_package', { package_id, slots, quote_token: quote.quote_token }));
    expect(run.records_count).toBeGreaterThan(25);
    const expansion = {
      parent_result_id: run.result_id,
      expansion_type: 'contact_unlock',
      expansion_params: { selection: { mode: 'top_n', n: run.records_count }, contact_tier: 'email' },
    };
    const unlockQuote = ok(await call(client, 'quote_package', { package_id, expansion_scope: expansion }));
    const spend = { ...expansion, quote_token: unlockQuote.quote_token };
    const first = await call(client, 'expand_result', spend);
    expect(ok(first).records).toHaveLength(25);
    expect(first._meta?.page).toEqual({
      offset: 0,
      limit: 25,
      returned: 25,
      total: run.records_count,
      next_offset: 25,
    });
    expect(first._meta?.credits.charged).toBe(unlockQuote.credits);
    const rest = await call(client, 'expand_result', { ...spend, offset: 25 });
    expect(ok(rest).records).toHaveLength(run.records_count - 25);
    expect(rest._meta?.credits.charged).toBe(0);
    const ids = [...ok(first).records, ...ok(rest).records].map((r: { record_id: string }) => r.record_id);
    expect(new Set(ids).size).toBe(run.records_count);
    expect(await available(user.id)).toBe(100_000 - run.credits_charged - unlockQuote.credits);
  });
});

describe('requests served side by side (one server entry and tool list per process, a server per request)', () => {
  it('never mixes callers: interleaved calls of two keys see only their own account, quotes and replays', async () => {
    const a = await api.newUser({ tier: 'pro', credits: 5_000 });
    const b = await api.newUser({ tier: 'pro', credits: 7_000 });
    const credits = new Map([
      [a.user.id, 5_000],
      [b.user.id, 7_000],
    ]);
    // Each key over a 2025 revision (the stateless transport) and over 2026-07-28 (the SDK's entry).
    const [a25, a26, b25, b26] = await Promise.all(
      [a, b].flatMap((u) => [REVISIONS[1], REVISIONS[2]].map((r) => mcpClient(api.baseUrl, u.key, r))),
    );
    // The output schemas compiled before the calls that run together.
    ok(await call(a25, 'get_account', {}));
    const clients = [
      { id: a.user.id, client: a25 },
      { id: b.user.id, client: b26 },
      { id: a.user.id, client: a26 },
      { id: b.user.id, client: b25 },
    ];
    const reads = await Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        const { id, client } = clients[i % clients.length];
        return { id, account: ok(await call(client, 'get_account', {})) };
      }),
    );
    for (const { id, account } of reads)
      expect(account).toMatchObject({ id, permanent_credit_balance: credits.get(id) });

    const [quoteA, quoteB] = (
      await Promise.all(
        [a26, b26].map((c) => call(c, 'quote_package', { package_id: 'vc-shortlist-v1', slots: SLOTS })),
      )
    ).map(ok);
    const argsA = { package_id: 'vc-shortlist-v1', slots: SLOTS, quote_token: quoteA.quote_token };
    const argsB = { package_id: 'vc-shortlist-v1', slots: SLOTS, quote_token: quoteB.quote_token };
    // B sending A's token with A's arguments sends A's Idempotency-Key: it must stay A's, under A's caller.
    const [runA, runB, stolen] = await Promise.all([
      call(a26, 'execute_package', argsA),
      call(b25, 'execute_package', argsB),
      call(b26, 'execute_package', argsA),
    ]);
    expect(errorCode(stolen)).toBe('quote_mismatch');
    expect(ok(runA).result_id).not.toBe(ok(runB).result_id);
    expect(runA._meta?.credits).toEqual({
      charged: ok(runA).credits_charged,
      remaining: 5_000 - ok(runA).credits_charged,
    });
    expect(runB._meta?.credits).toEqual({
      charged: ok(runB).credits_charged,
      remaining: 7_000 - ok(runB).credits_charged,
    });

    // Retries taken side by side, each over the caller's other revision: each replays its own first answer.
    const [againA, againB, stolenAgain] = await Promise.all([
      call(a25, 'execute_package', argsA),
      call(b26, 'execute_package', argsB),
      call(b25, 'execute_package', argsA),
    ]);
    expect(ok(againA)).toEqual(ok(runA));
    expect(ok(againB)).toEqual(ok(runB));
    expect(againA._meta?.credits).toEqual({ charged: 0, remaining: 5_000 - ok(runA).credits_charged });
    expect(againB._meta?.credits).toEqual({ charged: 0, remaining: 7_000 - ok(runB).credits_charged });
    expect(errorCode(stolenAgain)).toBe('quote_mismatch');
    expect(errorCode(await call(b26, 'get_intelligence_result', { result_id: ok(runA).result_id }))).toBe('not_found');
    expect(await available(a.user.id)).toBe(5_000 - ok(runA).credits_charged);
    expect(await available(b.user.id)).toBe(7_000 - ok(runB).credits_charged);
  }, 90_000);
});

describe('the HTTP face of /api/v1/mcp', () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
  };
  const post = (headers: Record<string, string>, body: unknown = initialize) =>
    fetch(`${api.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });

  it('without a key: 401 with WWW-Authenticate: Bearer, and the SDK client cannot connect', async () => {
    const res = await post({});
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(((await res.json()) as any).error.code).toBe('unauthorized');
    await expect(mcpClient(api.baseUrl, 'oik_not-a-key')).rejects.toThrow();
  });

  it('refuses a browser Origin of another site, accepts its own', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 10 });
    const foreign = await post({ authorization: `Bearer ${key}`, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as any).error.code).toBe('origin_not_allowed');
    const own = await post({ authorization: `Bearer ${key}`, origin: api.origin });
    expect(own.status).toBe(200);
    expect(((await own.json()) as any).result.protocolVersion).toBe('2025-06-18');
    await expect(mcpClient(api.baseUrl, key, REVISIONS[2], { origin: 'http://attacker.test' })).rejects.toThrow();
  });

  it('ends a 2026-07-28 subscriptions/listen at once: no list of this server changes, so nothing stays open', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 10 });
    const revision = '2026-07-28';
    const res = await post(
      { authorization: `Bearer ${key}`, 'mcp-protocol-version': revision, 'mcp-method': 'subscriptions/listen' },
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'subscriptions/listen',
        params: {
          notifications: { toolsListChanged: true },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': revision,
            'io.modelcontextprotocol/clientInfo': { name: 'curl', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      },
    );
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(text).toContain('notifications/subscriptions/acknowledged');
    expect(text).toContain('"resultType":"complete"');
  });

  /** The event API Gateway hands the MCP function for one JSON-RPC message, its authorizer vouching for `key`. */
  async function lambdaEvent(key: string, headers: Record<string, string>, message: unknown) {
    const caller = await identifyCaller(`Bearer ${key}`);
    const sent: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${key}`,
      ...headers,
    };
    const path = '/api/v1/mcp';
    return {
      resource: path,
      path,
      httpMethod: 'POST',
      headers: sent,
      multiValueHeaders: Object.fromEntries(Object.entries(sent).map(([k, v]) => [k, [v]])),
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      pathParameters: null,
      stageVariables: null,
      body: JSON.stringify(message),
      isBase64Encoded: false,
      requestContext: {
        accountId: '000000000000',
        apiId: 'local',
        authorizer: { principalId: caller!.userId, ...caller },
        httpMethod: 'POST',
        identity: { sourceIp: '127.0.0.1', userAgent: null },
        path,
        protocol: 'HTTP/1.1',
        requestId: 'lambda-event',
        requestTimeEpoch: Date.now(),
        resourceId: 'local',
        resourcePath: path,
        stage: 'local',
        domainName: new URL(api.origin).host,
      },
    } as unknown as APIGatewayProxyEvent;
  }
  const lambdaContext = {
    functionName: 'mcp',
    awsRequestId: 'lambda-event',
    getRemainingTimeInMillis: () => 30_000,
  } as unknown as Context;
  const getAccountCall = {
    jsonrpc: '2.0',
    id: 9,
    method: 'tools/call',
    params: { name: 'get_account', arguments: {} },
  };

  it('a header the Fetch API cannot carry (API Gateway hands over UTF-8 values decoded) is passed over, not a 500', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 12 });
    const event = await lambdaEvent(
      key,
      // As a proxy in front adds it for a caller in Sriperumbudur: characters past 255 are no ByteString.
      { 'cf-ipcity': 'Srīperumbūdūr', 'x-agent-name': 'Agent – №1' },
      getAccountCall,
    );
    const res = await mcpHandler(event, lambdaContext);
    expect(res.statusCode, res.body).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({
      id: 9,
      result: { structuredContent: { permanent_credit_balance: 12 } },
    });
  });

  it('a tool failing outside its route (its function would not load) is an internal_error tool result that shows nothing of the cause', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 12 });
    const cause =
      'Cannot find module /var/task/functions/account/reads.mjs (AccessDeniedException: arn:aws:iam::123:role/x)';
    const broken = mcpHandlerFor({
      ...ROUTES,
      account: async () => {
        throw new Error(cause);
      },
    });
    const revision = '2026-07-28';
    const modern = {
      ...getAccountCall,
      params: {
        ...getAccountCall.params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': revision,
          'io.modelcontextprotocol/clientInfo': { name: 'curl', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    };
    for (const event of [
      await lambdaEvent(key, {}, getAccountCall),
      await lambdaEvent(
        key,
        { 'mcp-protocol-version': revision, 'mcp-method': 'tools/call', 'mcp-name': 'get_account' },
        modern,
      ),
    ]) {
      const res = await broken(event, lambdaContext);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).not.toContain('reads.mjs');
      expect(res.body).not.toContain('AccessDenied');
      const answer = JSON.parse(res.body);
      expect(answer, res.body).toMatchObject({ id: 9, result: { isError: true } });
      expect(JSON.parse(answer.result.content[1].text), res.body).toMatchObject({
        error: { code: 'internal_error' },
        request_id: res.headers?.['x-request-id'],
      });
    }
  });

  it('hostile argument values (__proto__ keys, numbers past a double, lone surrogates) are the tool’s validation_error, not a bare 400', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 10 });
    const toolCall = (id: number, name: string, args: string) =>
      fetch(`${api.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        // Raw text: JSON.stringify could not write these.
        body: `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`,
      });
    const cases = [
      ['quote_package', '{"package_id":"vc-shortlist-v1","slots":{"__proto__":{"limit":5}}}', 'slots.__proto__'],
      ['get_account', '{"__proto__":{"role":"admin"}}', '__proto__'],
      ['list_packages', '{"limit":1e400}', 'limit'],
      ['resolve_package', '{"package_id":"vc-shortlist-v1","request_text":"DeFi \\ud83d seed"}', 'request_text'],
    ] as const;
    for (const [i, [name, args, path]] of cases.entries()) {
      const res = await toolCall(i + 1, name, args);
      const text = await res.text();
      expect(res.status, text).toBe(200);
      const answer = JSON.parse(text);
      expect(answer, text).toMatchObject({ jsonrpc: '2.0', id: i + 1, result: { isError: true } });
      expect(JSON.parse(answer.result.content[1].text).error, text).toMatchObject({
        code: 'validation_error',
        details: [{ path }],
      });
    }
    // Outside the arguments it stays a 400, as JSON-RPC's invalid request: no tool is there to answer it.
    const outside = await fetch(`${api.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"get_account","arguments":{},"_meta":{"__proto__":{}}}}',
    });
    expect(outside.status).toBe(400);
    expect(((await outside.json()) as any).error).toMatchObject({ code: -32600, data: { code: 'validation_error' } });
  });

  it('answers one JSON-RPC call as JSON, as the README curl sends it, and GET with 405', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 10 });
    const res = await post(
      { authorization: `Bearer ${key}` },
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_account', arguments: {} } },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const answer = await res.json();
    expect(answer).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      result: { structuredContent: { permanent_credit_balance: 10 } },
    });
    const stream = await fetch(`${api.baseUrl}/mcp`, {
      headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(405);
    expect(stream.headers.get('allow')).toBe('POST');
  });
});

describe("the README's MCP curl", () => {
  it('runs as written against the local server and answers the account as a tool result', async () => {
    const block = shellBlocks(readGuidePage('12-mcp.md'))[0];
    expect(block).toMatch(/^curl .*\/mcp/);
    const { key } = await api.newUser({ tier: 'pro', credits: 77 });
    const { stdout } = await promisify(execFile)(
      'bash',
      ['-c', `export API=${api.baseUrl}\nexport KEY=${key}\n${block}`],
      { timeout: 30_000 },
    );
    const answer = JSON.parse(stdout);
    expect(answer).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { structuredContent: { permanent_credit_balance: 77 } },
    });
  });
});
