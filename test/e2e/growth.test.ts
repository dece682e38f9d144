import { describe, expect, it } from 'vitest';
import { startTestApi } from '#test/support/api';

const api = await startTestApi();

const CSV =
  'Company,Website\nAcme Inc,https://www.acme-growth.com/\nGlobex,globex-growth.io\nacme inc,acme-growth.com\n';

async function resolved(
  key: string,
  body: Record<string, unknown> = {
    goal_text: 'Find the work emails of the founders at these companies',
    input_text: CSV,
  },
) {
  const res = await api.call('POST', '/growth/resolve', { key, body });
  expect(res.status).toBe(200);
  return res.body;
}

describe('POST /growth/resolve', () => {
  it('turns a pasted CSV and a goal in plain words into a normalised, quotable plan', async () => {
    const { key } = await api.newUser();
    const body = await resolved(key);
    expect(body.goal_type).toBe('email_discovery');
    expect(body.quotable).toBe(true);
    expect(body.missing_requirements).toEqual([]);
    expect(['sufficient', 'partial', 'needs_enrichment']).toContain(body.coverage_mode);
    expect(body.normalized_input_assets.companies).toEqual([
      // The website as the caller wrote it is kept for the export.
      { company_name: 'Acme Inc', domain: 'acme-growth.com', website: 'https://www.acme-growth.com/' },
      { company_name: 'Globex', domain: 'globex-growth.io', website: 'globex-growth.io' },
    ]);
    expect(body.input_report.input_text_format).toBe('csv');
    expect(body.input_report.duplicates_removed.companies).toBe(1);
    expect(body.goal_plan).toMatchObject({
      pipeline_id: 'growth.email_discovery.v1',
      preset: 'custom',
      output: { preview_rows: 5 },
      input_assets: body.normalized_input_assets,
    });
    expect(body.goal_plan.output.required_fields).toContain('email');
    expect(body.fallback_capabilities).toEqual(body.goal_plan.fallback_capabilities);
  });

  it('merges input_assets with input_text and de-duplicates across both', async () => {
    const { key } = await api.newUser();
    const body = await resolved(key, {
      goal_text: 'verify these addresses',
      input_assets: { contacts: [{ email: 'Ada@Acme-Growth.com', full_name: 'Ada Lovelace' }] },
      input_text: 'ada@acme-growth.com\nbob@initech-growth.com',
    });
    expect(body.goal_type).toBe('email_verification');
    expect(body.normalized_input_assets.contacts).toEqual([
      {
        email: 'ada@acme-growth.com',
        full_name: 'Ada Lovelace',
        first_name: 'Ada',
        last_name: 'Lovelace',
        domain: 'acme-growth.com',
      },
      { email: 'bob@initech-growth.com', domain: 'initech-growth.com' },
    ]);
  });

  it('says what is missing when there is nothing to work on', async () => {
    const { key } = await api.newUser();
    const body = await resolved(key, {
      goal_text: 'Research companies that sell garden furniture',
      constraints: { count: 20 },
    });
    expect(body.goal_type).toBe('company_research');
    expect(body.quotable).toBe(false);
    expect(body.missing_requirements).toEqual(['input_assets.companies']);
    expect(body.suggested_next_action).toMatch(/resolve again/);
  });

  it('measures coverage against the curated data and picks the path from it', async () => {
    const { key } = await api.newUser();
    const goal_text = 'find emails at these companies';
    const known = await resolved(key, { goal_text, input_text: 'nebulalabs.io\nhttps://quietprotocol.xyz/' });
    expect(known).toMatchObject({
      coverage_mode: 'sufficient',
      recommended_path: 'enrichment_only',
      fallback_capabilities: [],
    });
    const mixed = await resolved(key, { goal_text, input_text: 'nebulalabs.io\nunknown-growth-co.com' });
    expect(mixed).toMatchObject({
      coverage_mode: 'partial',
      recommended_path: 'enrichment_plus_fallback',
      fallback_capabilities: ['email_lookup', 'email_verify'],
    });
    const unknown = await resolved(key, { goal_text, input_text: 'unknown-growth-co.com' });
    expect(unknown.coverage_mode).toBe('needs_enrichment');
  });

  it('finds the domain of a company given by name only in the curated data, and reports the ones it cannot place', async () => {
    const { key } = await api.newUser();
    const body = await resolved(key, {
      goal_text: 'research these companies',
      input_assets: { companies: [{ company_name: 'nebula labs' }, { company_name: 'Nobody Knows Ltd' }] },
    });
    expect(body.normalized_input_assets.companies).toEqual([{ company_name: 'nebula labs', domain: 'nebulalabs.io' }]);
    expect(body.input_report.rejected).toEqual([
      { kind: 'company', input: '{"company_name":"Nobody Knows Ltd"}', reason: 'no_domain' },
    ]);
  });

  it('takes companies from the curated data when the goal names a sector instead of pasting companies', async () => {
    const { key } = await api.newUser();
    const body = await resolved(key, {
      goal_text: 'Generate qualified leads in decentralized finance',
      constraints: { count: 8 },
    });
    expect(body.goal_type).toBe('lead_generation');
    expect(body.input_report.sourced_companies).toEqual({
      sector: 'defi',
      companies: body.normalized_input_assets.companies.length,
    });
    expect(body.normalized_input_assets.companies.length).toBeGreaterThan(0);
    expect(body.normalized_input_assets.companies.length).toBeLessThanOrEqual(8);
    expect(body).toMatchObject({ quotable: true, coverage_mode: 'sufficient' });
    expect(body.goal_plan.constraints).toEqual({ count: 8, niche: 'DeFi' });
    expect(body.goal_plan.execution_options.niche).toBe('DeFi');
    const quote = await api.call('POST', '/growth/quote', { key, body: { goal_plan: body.goal_plan } });
    expect(quote.body.ok).toBe(true);
  });

  it('keeps the companies one run takes (1000) and reports the rest as over_limit', async () => {
    const { key } = await api.newUser();
    const companies = Array.from({ length: 1001 }, (_, i) => ({ domain: `limit-${i}.growth-test.com` }));
    const body = await resolved(key, { goal_text: 'research these companies', input_assets: { companies } });
    expect(body.normalized_input_assets.companies).toHaveLength(1000);
    expect(body.input_report.rejected).toEqual([
      { kind: 'company', input: '{"domain":"limit-1000.growth-test.com"}', reason: 'over_limit' },
    ]);
    expect((await api.call('POST', '/growth/quote', { key, body: { goal_plan: body.goal_plan } })).body.ok).toBe(true);
  });

  it('enforces the documented field limits and rejects unknown properties', async () => {
    const { key } = await api.newUser();
    const cases = [
      { goal_text: 'ab' },
      { goal_text: 'x'.repeat(2001) },
      { goal_text: 'find emails', input_text: 'a'.repeat(50_001) },
      { goal_text: 'find emails', constraints: { count: 0 } },
      { goal_text: 'find emails', constraints: { count: 1001 } },
      { goal_text: 'find emails', icp_config: { min_score: 101 } },
      { goal_text: 'find emails', goal: 'typo' },
      { goal_text: 'find emails', input_assets: { companies: [{ name: 'x' }] } },
    ];
    for (const body of cases) {
      const res = await api.call('POST', '/growth/resolve', { key, body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
    }
    const limit = await api.call('POST', '/growth/resolve', {
      key,
      body: { goal_text: 'abc', input_text: 'acme.com\n'.repeat(5000).slice(0, 50_000) },
    });
    expect(limit.status).toBe(200);
  });
});

describe('POST /growth/quote', () => {
  it('prices the plan per capability, marks external spend and issues a 15-minute token', async () => {
    const { key } = await api.newUser();
    const plan = (await resolved(key)).goal_plan;
    const res = await api.call('POST', '/growth/quote', { key, body: { goal_plan: plan } });
    expect(res.status).toBe(200);
    const q = res.body;
    expect(q).toMatchObject({ ok: true, quotable: true, error_code: null, detail: null, missing_inputs: [] });
    expect(q.quote_token).toMatch(/^gq_/);
    expect(Date.parse(q.expires_at) - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(Date.parse(q.expires_at) - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    expect(q.breakdown.map((l: any) => [l.capability, l.external])).toEqual([
      ['contact_discovery', false],
      ['email_lookup', true],
      ['email_verify', true],
      ['deliverable_finalize', false],
    ]);
    for (const l of q.breakdown) expect(l.credits).toBe(l.units * l.unit_credits);
    expect(q.credits_total).toBe(q.breakdown.reduce((s: number, l: any) => s + l.credits, 0));
    expect(q.estimated_delivered.companies).toBe(2);
    expect(q.output_preview).toMatchObject({ preview_rows: 5, required_fields: plan.output.required_fields });
    expect(q.goal_plan).toEqual(plan);
    expect(q.next_step).toMatch(/POST \/growth\/run/);
  });

  it('accepts the same plan with keys and capabilities reordered (it is the same plan)', async () => {
    const { key } = await api.newUser();
    const plan = (await resolved(key)).goal_plan;
    const reordered = Object.fromEntries(
      Object.entries({ ...plan, capabilities: [...plan.capabilities].reverse() }).reverse(),
    );
    const res = await api.call('POST', '/growth/quote', { key, body: { goal_plan: reordered } });
    expect(res.body.ok).toBe(true);
    expect(res.body.goal_plan.capabilities).toEqual(plan.capabilities);
  });

  it('answers invalid_goal_plan (200, ok false) for an object that is not a plan', async () => {
    const { key } = await api.newUser();
    for (const goal_plan of [
      {},
      { pipeline_id: 'x' },
      { ...(await resolved(key)).goal_plan, capabilities: ['teleport'] },
    ]) {
      const res = await api.call('POST', '/growth/quote', { key, body: { goal_plan } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        ok: false,
        quotable: false,
        quote_token: null,
        error_code: 'invalid_goal_plan',
      });
      expect(res.body.detail).toMatch(/goal_plan/);
    }
  });

  it('answers quote_validation_failed for a tampered plan and for a plan issued to someone else', async () => {
    const alice = await api.newUser();
    const mallory = await api.newUser();
    const plan = (await resolved(alice.key)).goal_plan;
    const tampered = {
      ...plan,
      input_assets: {
        ...plan.input_assets,
        companies: [...plan.input_assets.companies, { domain: 'extra-growth.com' }],
      },
    };
    const cheaper = { ...plan, capabilities: ['deliverable_finalize'] };
    for (const [key, goal_plan] of [
      [alice.key, tampered],
      [alice.key, cheaper],
      [mallory.key, plan],
    ] as const) {
      const res = await api.call('POST', '/growth/quote', { key, body: { goal_plan } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        ok: false,
        quotable: false,
        quote_token: null,
        error_code: 'quote_validation_failed',
        goal_plan: null,
      });
    }
  });

  it('answers missing_input_assets with the missing inputs for a plan without inputs', async () => {
    const { key } = await api.newUser();
    const plan = (await resolved(key, { goal_text: 'verify my e-mail list' })).goal_plan;
    const res = await api.call('POST', '/growth/quote', { key, body: { goal_plan: plan } });
    expect(res.body).toMatchObject({
      ok: false,
      quotable: false,
      error_code: 'missing_input_assets',
      missing_inputs: ['input_assets.contacts[].email'],
    });
  });

  it('answers max_external_spend_too_low when the external capabilities cost more than the cap', async () => {
    const { key } = await api.newUser();
    const plan = (await resolved(key)).goal_plan;
    const priced = (await api.call('POST', '/growth/quote', { key, body: { goal_plan: plan } })).body;
    const external = priced.breakdown.filter((l: any) => l.external).reduce((s: number, l: any) => s + l.credits, 0);
    const low = await api.call('POST', '/growth/quote', {
      key,
      body: { goal_plan: plan, max_external_spend_credits: external - 1 },
    });
    expect(low.body).toMatchObject({
      ok: false,
      quotable: false,
      quote_token: null,
      error_code: 'max_external_spend_too_low',
    });
    expect(low.body.detail).toContain(String(external));
    const enough = await api.call('POST', '/growth/quote', {
      key,
      body: { goal_plan: plan, max_external_spend_credits: external },
    });
    expect(enough.body.ok).toBe(true);
  });

  it('checks the chat and the body shape: 404 for a foreign chat, 400 for a non-object plan or negative cap', async () => {
    const alice = await api.newUser();
    const bob = await api.newUser();
    const plan = (await resolved(alice.key)).goal_plan;
    const bobsChat = (await api.call('POST', '/chats', { key: bob.key, body: {} })).body;
    expect(
      (await api.call('POST', '/growth/quote', { key: alice.key, body: { goal_plan: plan, chat_id: bobsChat.id } }))
        .status,
    ).toBe(404);
    for (const body of [
      { goal_plan: 'plan' },
      { goal_plan: plan, max_external_spend_credits: -1 },
      { goal_plan: plan, extra: 1 },
      {},
    ]) {
      const res = await api.call('POST', '/growth/quote', { key: alice.key, body });
      expect(res.status).toBe(400);
    }
  });
});
