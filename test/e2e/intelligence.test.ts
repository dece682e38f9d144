import { describe, expect, it } from 'vitest';
import { startTestApi } from '#test/support/api';
import { ManualClock } from '#shared/adapters/clock';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from '#shared/store/client';

const clock = new ManualClock();
const api = await startTestApi({ clock });

const VC = { sector_focus: 'DeFi', stage: 'seed' };
const pro = (credits = 10_000) => api.newUser({ tier: 'pro', credits });
const balance = async (key: string) =>
  (await api.call('GET', '/users/me', { key })).body.permanent_credit_balance as number;
const quote = async (key: string, body: Record<string, unknown>) => {
  const res = await api.call('POST', '/intelligence/quote', { key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const execute = (key: string, body: Record<string, unknown>) =>
  api.call('POST', '/intelligence/execute', { key, body });
async function run(
  key: string,
  package_id: string,
  slots: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  const q = await quote(key, { package_id, slots, ...extra });
  const res = await execute(key, {
    package_id,
    slots,
    quote_token: q.quote_token,
    ...(extra.output_fields ? { output_fields: extra.output_fields } : {}),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { quote: q, result: res.body };
}
const expansionScope = (parent: string, type: string, params: Record<string, unknown>) => ({
  parent_result_id: parent,
  expansion_type: type,
  expansion_params: params,
});
async function expand(key: string, package_id: string, parent: string, type: string, params: Record<string, unknown>) {
  const q = await quote(key, { package_id, expansion_scope: expansionScope(parent, type, params) });
  const res = await api.call('POST', '/intelligence/expand', {
    key,
    body: { parent_result_id: parent, expansion_type: type, expansion_params: params, quote_token: q.quote_token },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { quote: q, result: res.body };
}

describe('POST /intelligence/resolve', () => {
  it('fills slots from request_text, lets explicit slots win, and reports coverage from real candidates', async () => {
    const { key } = await pro();
    const res = await api.call('POST', '/intelligence/resolve', {
      key,
      body: {
        package_id: 'vc-shortlist-v1',
        request_text: 'Find 5 seed-stage DeFi VCs writing $250k-$1M cheques',
        slots: { limit: 3 },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      intent_status: 'ready_for_quote',
      package_id: 'vc-shortlist-v1',
      package_name: 'Curated VC Shortlist',
      missing_slots: [],
      clarification_questions: [],
      filled_slots: {
        sector_focus: 'defi',
        stage: 'seed',
        limit: 3,
        min_investment: 250_000,
        max_investment: 1_000_000,
      },
    });
    expect(res.body.coverage).toMatchObject({
      status: 'sufficient',
      note: null,
      alternative_route: null,
      fallback_allowed: true,
    });
    expect(res.body.coverage.candidate_count).toBeGreaterThanOrEqual(3);
  });

  it('asks for missing required slots, with coverage null', async () => {
    const { key } = await pro();
    const res = await api.call('POST', '/intelligence/resolve', {
      key,
      body: { package_id: 'vc-shortlist-v1', request_text: 'some good investors please' },
    });
    expect(res.body).toMatchObject({
      intent_status: 'needs_clarification',
      missing_slots: ['sector_focus', 'stage'],
      coverage: null,
      filled_slots: { limit: 10 },
    });
    expect(res.body.clarification_questions).toHaveLength(2);
    const unclear = await api.call('POST', '/intelligence/resolve', {
      key,
      body: { package_id: 'kol-discovery-v1', slots: { sector_focus: 'knitting' } },
    });
    expect(unclear.body.intent_status).toBe('needs_clarification');
    expect(unclear.body.clarification_questions[0]).toMatch(/knitting/);
  });

  it('reports limited and none coverage with an alternative route', async () => {
    const { key } = await pro();
    const limited = await api.call('POST', '/intelligence/resolve', {
      key,
      body: { package_id: 'company-people-discovery-v1', slots: { company_name: 'Quiet Protocol', limit: 10 } },
    });
    expect(limited.body.coverage).toMatchObject({ status: 'limited', candidate_count: 3, fallback_allowed: true });
    expect(limited.body.coverage.note).toMatch(/Only 3/);
    const none = await api.call('POST', '/intelligence/resolve', {
      key,
      body: { package_id: 'kol-discovery-v1', slots: { sector_focus: 'defi', min_followers: '50M' } },
    });
    expect(none.body.coverage).toMatchObject({ status: 'none', candidate_count: 0, fallback_allowed: false });
    expect(none.body.coverage.alternative_route).toMatchObject({
      package_id: 'kol-discovery-v1',
      slots: { sector_focus: 'defi', limit: 10 },
    });
    expect(none.body.coverage.alternative_route.reason).toMatch(/Without min_followers/);
    const unknown = await api.call('POST', '/intelligence/resolve', {
      key,
      body: { package_id: 'warm-intro-paths-v1', slots: { target_fund_name: 'Nonexistent Capital' } },
    });
    expect(unknown.body.coverage).toMatchObject({ status: 'none', candidate_count: 0 });
    expect(unknown.body.coverage.note).toMatch(/No fund named "Nonexistent Capital"/);
  });

  it('rejects unknown slots, wrong types, out-of-range limits and unknown packages with 400', async () => {
    const { key } = await pro();
    for (const body of [
      { package_id: 'vc-shortlist-v1', slots: { sektor: 'defi' } },
      { package_id: 'vc-shortlist-v1', slots: { sector_focus: 7 } },
      { package_id: 'vc-shortlist-v1', slots: { limit: 101 } },
      { package_id: 'company-people-discovery-v1', slots: { company_name: 'Nebula Labs', limit: 51 } },
      { package_id: 'vc-shortlist-v9' },
      { package_id: 'vc-shortlist-v1', extra: true },
    ]) {
      const res = await api.call('POST', '/intelligence/resolve', { key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
    }
  });
});

describe('POST /intelligence/quote', () => {
  it('prices from the table, binds 15 minutes, and echoes the canonical request', async () => {
    const { key } = await pro();
    const q = await quote(key, { package_id: 'vc-shortlist-v1', slots: VC });
    expect(q.credits).toBe(200);
    expect(q.quote_token).toMatch(/^qt_/);
    expect(Date.parse(q.expiry) - clock.now().getTime()).toBe(15 * 60 * 1000);
    expect(q.filled_slots).toEqual({ sector_focus: 'defi', stage: 'seed', limit: 10 });
    expect(q.output_projection_summary).toMatch(/100 \+ 10 per record/);
  });

  it('refuses missing required slots and fields the package does not have with 400', async () => {
    const { key } = await pro();
    for (const body of [
      { package_id: 'vc-shortlist-v1', slots: { stage: 'seed' } },
      { package_id: 'vc-shortlist-v1', slots: VC, output_fields: ['name', 'followers_count'] },
      { package_id: 'vc-shortlist-v1', slots: { ...VC, sector_focus: 'knitting' } },
      {
        package_id: 'warm-intro-paths-v1',
        slots: { target_fund_name: 'Polaris Ventures' },
        request_text: 'no text on quotes',
      },
    ]) {
      const res = await api.call('POST', '/intelligence/quote', { key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('answers 404 for a chat or a parent result of another user', async () => {
    const a = await pro();
    const b = await pro();
    const chat = await api.call('POST', '/chats', { key: a.key, body: { title: 'Mine' } });
    expect(
      (
        await api.call('POST', '/intelligence/quote', {
          key: b.key,
          body: { package_id: 'vc-shortlist-v1', slots: VC, chat_id: chat.body.id },
        })
      ).status,
    ).toBe(404);
    const { result } = await run(a.key, 'vc-shortlist-v1', VC);
    const res = await api.call('POST', '/intelligence/quote', {
      key: b.key,
      body: {
        package_id: 'vc-shortlist-v1',
        expansion_scope: expansionScope(result.result_id, 'increase_limit', { blocks: 1 }),
      },
    });
    expect(res.status).toBe(404);
  });
});

describe('POST /intelligence/execute', () => {
  it('charges base + per record returned, stores the result under the same id in the quoted chat, and ledgers it', async () => {
    const { key, user } = await pro();
    const chat = await api.call('POST', '/chats', { key, body: { title: 'Fundraise' } });
    const { result } = await run(key, 'vc-shortlist-v1', { ...VC, limit: 5 }, { chat_id: chat.body.id });
    expect(result).toMatchObject({ records_count: 5, credits_charged: 150 });
    expect(result.summary).toMatch(/^5 seed-stage DeFi investors/);
    expect(await balance(key)).toBe(10_000 - 150);
    const stored = await api.call('GET', `/results/${result.result_id}`, { key });
    expect(stored.body).toMatchObject({
      id: result.result_id,
      user_id: user.id,
      tool_name: 'vc-shortlist-v1',
      chat_id: chat.body.id,
      chat_title: 'Fundraise',
    });
    expect(stored.body.result_data).toMatchObject({
      package_id: 'vc-shortlist-v1',
      records_count: 5,
      summary: result.summary,
    });
    const usage = await api.call('GET', '/credits/usage', { key });
    expect(usage.body.by_tool).toEqual([{ tool_name: 'vc-shortlist-v1', credits: 150 }]);
  });

  it('charges only for the records returned when coverage is limited', async () => {
    const { key } = await pro();
    const { quote: q, result } = await run(key, 'company-people-discovery-v1', { company_name: 'Quiet Protocol' });
    expect(q.credits).toBe(75);
    expect(result).toMatchObject({ records_count: 3, credits_charged: 65 });
    expect(await balance(key)).toBe(10_000 - 65);
  });

  it('returns the selected Tier 1 fields with record_id, ranked with a rationale citing the data', async () => {
    const { key } = await pro();
    const { result } = await run(key, 'vc-shortlist-v1', VC, { output_fields: ['name', 'rationale'] });
    const read = await api.call('GET', `/intelligence/results/${result.result_id}`, { key });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      result_id: result.result_id,
      package_id: 'vc-shortlist-v1',
      records_count: 10,
      parent_result_id: null,
      expansion_type: null,
    });
    expect(Object.keys(read.body.records[0]).sort()).toEqual(['name', 'rationale', 'record_id']);
    expect(read.body.records[0]).toMatchObject({ record_id: 'fund-polaris', name: 'Polaris Ventures' });
    expect(read.body.records[0].rationale).toMatch(/^Led \d+ DeFi seed rounds .*latest: .*\$[\d.]+[kM] in \w{3} \d{4}/);
    expect(new Set(read.body.records.map((r: { record_id: string }) => r.record_id)).size).toBe(10);
    expect(read.body.available_expansions.map((e: { type: string }) => e.type).sort()).toEqual([
      'contact_unlock',
      'increase_limit',
      'network_depth',
    ]);
    expect(
      read.body.available_expansions.find((e: { type: string }) => e.type === 'network_depth').estimated_credits,
    ).toBe(200);
  });

  it('checks the token: 409 when used, 410 when expired, 422 when the request differs or the token is not yours', async () => {
    const { key } = await pro();
    const q = await quote(key, { package_id: 'vc-shortlist-v1', slots: VC });
    const mismatch = await execute(key, {
      package_id: 'vc-shortlist-v1',
      slots: { ...VC, limit: 11 },
      quote_token: q.quote_token,
    });
    expect([mismatch.status, mismatch.body.error.code]).toEqual([422, 'quote_mismatch']);
    const fields = await execute(key, {
      package_id: 'vc-shortlist-v1',
      slots: VC,
      output_fields: ['name'],
      quote_token: q.quote_token,
    });
    expect(fields.status).toBe(422);
    const other = await pro();
    expect(
      (await execute(other.key, { package_id: 'vc-shortlist-v1', slots: VC, quote_token: q.quote_token })).body.error
        .code,
    ).toBe('quote_mismatch');
    // Synonyms are the same request: "decentralized finance" is the DeFi that was quoted.
    expect(
      (
        await execute(key, {
          package_id: 'vc-shortlist-v1',
          slots: { ...VC, sector_focus: 'decentralized finance' },
          quote_token: q.quote_token,
        })
      ).status,
    ).toBe(200);
    const reused = await execute(key, { package_id: 'vc-shortlist-v1', slots: VC, quote_token: q.quote_token });
    expect([reused.status, reused.body.error.code]).toEqual([409, 'quote_token_used']);

    const late = await quote(key, { package_id: 'kol-discovery-v1', slots: { sector_focus: 'defi' } });
    clock.advance(15 * 60 * 1000 + 1);
    try {
      const expired = await execute(key, {
        package_id: 'kol-discovery-v1',
        slots: { sector_focus: 'defi' },
        quote_token: late.quote_token,
      });
      expect([expired.status, expired.body.error.code]).toEqual([410, 'quote_expired']);
    } finally {
      clock.set(new Date());
    }
  });

  it('answers 403 for a developer account and 402 (nothing written, token still usable) when credits are short', async () => {
    const dev = await api.newUser({ credits: 10_000 });
    const q = await quote(dev.key, { package_id: 'vc-shortlist-v1', slots: VC });
    expect(
      (await execute(dev.key, { package_id: 'vc-shortlist-v1', slots: VC, quote_token: q.quote_token })).status,
    ).toBe(403);

    const poor = await pro(150);
    const pq = await quote(poor.key, { package_id: 'vc-shortlist-v1', slots: VC });
    const short = await execute(poor.key, { package_id: 'vc-shortlist-v1', slots: VC, quote_token: pq.quote_token });
    expect([short.status, short.body.error.code, short.body.error.details]).toEqual([
      402,
      'insufficient_credits',
      { required: 200, available: 150 },
    ]);
    expect((await api.call('GET', '/results', { key: poor.key })).body.total).toBe(0);
    const smaller = { ...VC, limit: 5 };
    const ok = await quote(poor.key, { package_id: 'vc-shortlist-v1', slots: smaller });
    expect(
      (await execute(poor.key, { package_id: 'vc-shortlist-v1', slots: smaller, quote_token: ok.quote_token })).body
        .credits_charged,
    ).toBe(150);
    expect(await balance(poor.key)).toBe(0);
  });

  it('returns the earlier result at zero cost for an identical query, and still uses up the token', async () => {
    const { key } = await pro();
    const first = await run(key, 'kol-discovery-v1', { sector_focus: 'defi', limit: 4 });
    const again = await run(key, 'kol-discovery-v1', { sector_focus: 'DeFi', limit: 4 });
    expect(again.quote.output_projection_summary).toMatch(/already ran this exact query/);
    expect(again.result).toMatchObject({ result_id: first.result.result_id, credits_charged: 0, records_count: 4 });
    expect(await balance(key)).toBe(10_000 - 140);
    const reuse = await execute(key, {
      package_id: 'kol-discovery-v1',
      slots: { sector_focus: 'DeFi', limit: 4 },
      quote_token: again.quote.quote_token,
    });
    expect(reuse.status).toBe(409);
    // Other fields are another query, charged again.
    const narrower = await run(
      key,
      'kol-discovery-v1',
      { sector_focus: 'defi', limit: 4 },
      { output_fields: ['name'] },
    );
    expect(narrower.result.result_id).not.toBe(first.result.result_id);
    expect(narrower.result.credits_charged).toBe(140);
  });

  it('lets exactly one of many parallel executes with one token through, with one charge', async () => {
    const { key } = await pro();
    const slots = { ...VC, limit: 7 };
    const q = await quote(key, { package_id: 'vc-shortlist-v1', slots });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        execute(key, { package_id: 'vc-shortlist-v1', slots, quote_token: q.quote_token }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
    expect(await balance(key)).toBe(10_000 - 170);
    const usage = await api.call('GET', '/credits/usage', { key });
    expect(usage.body.by_tool).toEqual([{ tool_name: 'vc-shortlist-v1', credits: 170 }]);
    expect((await api.call('GET', '/results', { key })).body.total).toBe(1);
  });

  it('replays the first answer for a repeated Idempotency-Key instead of failing on the used token', async () => {
    const { key } = await pro();
    const q = await quote(key, { package_id: 'hackathon-builder-v1', slots: { ecosystem: 'base', limit: 3 } });
    const body = {
      package_id: 'hackathon-builder-v1',
      slots: { ecosystem: 'base', limit: 3 },
      quote_token: q.quote_token,
    };
    const headers = { 'idempotency-key': `exec-${q.quote_token}` };
    const first = await api.call('POST', '/intelligence/execute', { key, body, headers });
    const again = await api.call('POST', '/intelligence/execute', { key, body, headers });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await balance(key)).toBe(10_000 - first.body.credits_charged);
  });

  it('runs every package end to end with records that read as curated', async () => {
    const { key } = await pro();
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['builder-discovery-v1', { category: 'smart contract engineer' }, /commits in the last 90 days/],
      [
        'company-people-discovery-v1',
        { company_name: 'nebulalabs.io', role_focus: 'engineering' },
        /matching your engineering focus/,
      ],
      [
        'warm-intro-paths-v1',
        { target_fund_name: 'Polaris Ventures', sector_focus: 'defi' },
        /^Polaris Ventures (led|joined) its \$[\d.]+[kM] /,
      ],
      ['kol-discovery-v1', { sector_focus: 'defi', min_followers: '5k' }, /GM Score \d+ with \d+ smart followers/],
      ['user-prospect-v1', { sector_interest: 'DeFi power users' }, /^Engagement 0\.\d+ in DeFi communities/],
      ['hackathon-builder-v1', { ecosystem: 'ethereum' }, /(Won \d+ of \d+ hackathons|Shipped \d+ hackathon)/],
    ];
    for (const [packageId, slots, rationale] of cases) {
      const { result } = await run(key, packageId, slots);
      expect(result.records_count, packageId).toBeGreaterThan(0);
      const read = await api.call('GET', `/intelligence/results/${result.result_id}`, { key });
      expect(read.body.records[0].rationale, packageId).toMatch(rationale);
      expect(read.body.records[0].record_id).toBeTruthy();
    }
  });
});

describe('POST /intelligence/expand', () => {
  it('unlocks contacts by tier, never charges twice, charges tier differences, and stores the expansion', async () => {
    const { key } = await pro();
    const { result } = await run(key, 'company-people-discovery-v1', { company_name: 'Nebula Labs', limit: 6 });
    const first = await expand(key, 'company-people-discovery-v1', result.result_id, 'contact_unlock', {
      selection: { mode: 'top_n', n: 2 },
      contact_tier: 'email',
    });
    expect(first.quote.credits).toBe(200);
    expect(first.result).toMatchObject({
      parent_result_id: result.result_id,
      expansion_type: 'contact_unlock',
      records_count: 2,
      credits_charged: 200,
    });
    const ada = first.result.records.find((r: { record_id: string }) => r.record_id === 'per-nebula-1');
    expect(ada).toMatchObject({
      contact_tier: 'email',
      email: 'ada.park@nebulalabs.io',
      X_URL: 'https://x.com/adapark',
      GitHub_URL: null,
    });
    expect(ada).not.toHaveProperty('phone');
    expect(ada).not.toHaveProperty('telegram_handle');

    const all = await expand(key, 'company-people-discovery-v1', result.result_id, 'contact_unlock', {
      selection: { mode: 'all' },
      contact_tier: 'email',
    });
    // Four more contacts; Ethan Brooks (per-nebula-6) has no e-mail address, so he costs the social tier only.
    expect(all.result.credits_charged).toBe(3 * 100 + 50);
    const upgrade = await expand(key, 'company-people-discovery-v1', result.result_id, 'contact_unlock', {
      selection: { mode: 'ids', record_ids: ['per-nebula-1'] },
      contact_tier: 'phone',
    });
    expect(upgrade.result.credits_charged).toBe(500);
    expect(upgrade.result.records[0]).toMatchObject({
      contact_tier: 'phone',
      phone: '+49 30 5550 1201',
      telegram_handle: '@adapark',
      Telegram_URL: 'https://t.me/adapark',
    });
    const free = await expand(key, 'company-people-discovery-v1', result.result_id, 'contact_unlock', {
      selection: { mode: 'top_n', n: 1 },
      contact_tier: 'social',
    });
    expect(free.quote.credits).toBe(0);
    expect(free.result.credits_charged).toBe(0);
    expect(free.result.records[0].contact_tier).toBe('phone');

    expect(await balance(key)).toBe(10_000 - 80 - 200 - 350 - 500);
    const usage = await api.call('GET', '/credits/usage', { key });
    expect(usage.body.by_tool).toContainEqual({ tool_name: 'contact_unlock', credits: 1050 });
    const stored = await api.call('GET', `/results/${first.result.result_id}`, { key });
    expect(stored.body).toMatchObject({
      tool_name: 'intelligence_result',
      metadata: { expansion_type: 'contact_unlock', parent_result_id: result.result_id },
    });
    const read = await api.call('GET', `/intelligence/results/${first.result.result_id}`, { key });
    expect(read.body).toMatchObject({
      parent_result_id: result.result_id,
      expansion_type: 'contact_unlock',
      records_count: 2,
    });
  });

  it('charges only for what an unlock delivers: a record with nothing at the tier costs at most the tier below that has a value, and says so', async () => {
    const { key } = await pro();
    const { result } = await run(key, 'company-people-discovery-v1', { company_name: 'Nebula Labs', limit: 6 });
    const spent = await balance(key);
    const byId = (records: Record<string, unknown>[]) => new Map(records.map((r) => [r.record_id as string, r]));
    const paid = (credits: number, tier: string) => ({ credits, tier, reason: 'charged' });

    // Ethan Brooks has no e-mail address: the e-mail tier delivers him nothing, his X and LinkedIn (the social tier) do.
    const email = await expand(key, 'company-people-discovery-v1', result.result_id, 'contact_unlock', {
      selection: { mode: 'all' },
      contact_tier: 'email',
    });
    expect(email.quote.credits).toBe(5 * 100 + 50);
    expect(email.result.credits_charged).toBe(5 * 100 + 50);
    const unlocked = byId(email.result.records);
    expect(unlocked.get('per-nebula-1')).toMatchObject({
      email: 'ada.park@nebulalabs.io',
      unlock_charge: paid(100, 'email'),
    });
    expect(unlocked.get('per-nebula-6')).toMatchObject({
      contact_tier: 'email',
      email: null,
      X_URL: 'https://x.com/ethanbrooks',
      unlock_charge: { credits: 50, tier: 'social', reason: 'charged_lower_tier' },
    });

    // Again at the e-mail tier: nothing more to deliver, nothing charged, and each record says why.
    const again = await expand(key, 'company-people-discovery-v1', result.result_id, 'contact_unlock', {
      selection: { mode: 'ids', record_ids: ['per-nebula-1', 'per-nebula-6'] },
      contact_tier: 'email',
    });
    expect([again.quote.credits, again.result.credits_charged]).toEqual([0, 0]);
    expect(byId(again.result.records).get('per-nebula-1')).toMatchObject({
      unlock_charge: { credits: 0, tier: null, reason: 'already_unlocked' },
    });
    expect(byId(again.result.records).get('per-nebula-6')).toMatchObject({
      unlock_charge: { credits: 0, tier: null, reason: 'no_contact_at_tier' },
    });

    // The telegram tier: Ada, Sofia and Maya have a handle (the difference from e-mail, 200 each); Liam, Noah
    // and Ethan have none and nothing new below it, so they cost nothing.
    const telegram = await expand(key, 'company-people-discovery-v1', result.result_id, 'contact_unlock', {
      selection: { mode: 'all' },
      contact_tier: 'telegram',
    });
    expect(telegram.quote.credits).toBe(3 * 200);
    expect(telegram.result.credits_charged).toBe(3 * 200);
    const upgraded = byId(telegram.result.records);
    expect(upgraded.get('per-nebula-3')).toMatchObject({
      telegram_handle: '@sofia_rossi',
      unlock_charge: paid(200, 'telegram'),
    });
    for (const id of ['per-nebula-2', 'per-nebula-4', 'per-nebula-6'])
      expect(upgraded.get(id), id).toMatchObject({
        telegram_handle: null,
        unlock_charge: { credits: 0, tier: null, reason: 'no_contact_at_tier' },
      });

    expect(await balance(key)).toBe(spent - 550 - 600);
    const stored = await api.call('GET', `/intelligence/results/${email.result.result_id}`, { key });
    expect(byId(stored.body.records).get('per-nebula-6')).toMatchObject({ unlock_charge: { credits: 50 } });
  });

  it('charges nothing for records with no contact at all, and remembers nothing of them', async () => {
    const { key, user } = await pro();
    // The top three DeFi KOLs of the curated data have no e-mail, LinkedIn, Telegram or phone on record.
    const { result } = await run(key, 'kol-discovery-v1', { sector_focus: 'defi', limit: 3 });
    const spent = await balance(key);
    const unlocked = await expand(key, 'kol-discovery-v1', result.result_id, 'contact_unlock', {
      selection: { mode: 'all' },
      contact_tier: 'phone',
    });
    expect([unlocked.quote.credits, unlocked.result.credits_charged]).toEqual([0, 0]);
    expect(unlocked.quote.output_projection_summary).toContain('3 with nothing new at this tier (free)');
    expect(unlocked.result.records).toHaveLength(3);
    for (const record of unlocked.result.records)
      expect(record).toMatchObject({
        email: null,
        phone: null,
        unlock_charge: { credits: 0, tier: null, reason: 'no_contact_at_tier' },
      });
    expect(await balance(key)).toBe(spent);
    const { Items = [] } = await ddb().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :unlocks)',
        ExpressionAttributeValues: { ':pk': `USER#${user.id}`, ':unlocks': 'UNLOCKS#' },
        ConsistentRead: true,
      }),
    );
    expect(Items.flatMap((item) => Object.keys(item.tiers ?? {}))).toEqual([]);
  });

  it('never charges twice for one person: a company founder unlocked through warm intro paths or through its people', async () => {
    const { key } = await pro(100_000);
    const { result: routes } = await run(key, 'warm-intro-paths-v1', {
      target_fund_name: 'Polaris Ventures',
      limit: 2,
    });
    const read = await api.call('GET', `/intelligence/results/${routes.result_id}`, { key });
    const [first, second] = read.body.records as { record_id: string; name: string }[];
    const email = { contact_tier: 'email' };
    const peopleOf = async (company: string) =>
      (await run(key, 'company-people-discovery-v1', { company_name: company, limit: 20 })).result.result_id;

    // The founder through the route first, then the same person among the company's people: free.
    const viaRoute = await expand(key, 'warm-intro-paths-v1', routes.result_id, 'contact_unlock', {
      selection: { mode: 'ids', record_ids: [first.record_id] },
      ...email,
    });
    expect(viaRoute.result.credits_charged).toBe(100);
    const founder = viaRoute.result.records[0];
    const people = await peopleOf(first.name);
    const listed = (await api.call('GET', `/intelligence/results/${people}`, { key })).body.records as {
      record_id: string;
      name: string;
    }[];
    const same = listed.find((r) => r.name === founder.contact_name);
    expect(same, founder.contact_name).toBeDefined();
    const again = await expand(key, 'company-people-discovery-v1', people, 'contact_unlock', {
      selection: { mode: 'ids', record_ids: [same?.record_id] },
      ...email,
    });
    expect([again.quote.credits, again.result.credits_charged]).toEqual([0, 0]);
    expect(again.result.records[0].email).toBe(founder.email);

    // The other way round: every person of the second company, then its route's founder: free.
    const secondPeople = await peopleOf(second.name);
    await expand(key, 'company-people-discovery-v1', secondPeople, 'contact_unlock', {
      selection: { mode: 'all' },
      ...email,
    });
    const later = await expand(key, 'warm-intro-paths-v1', routes.result_id, 'contact_unlock', {
      selection: { mode: 'ids', record_ids: [second.record_id] },
      ...email,
    });
    expect([later.quote.credits, later.result.credits_charged]).toEqual([0, 0]);
  });

  it('keeps unlocking past what one item holds: an account whose single unlock item is nearly 400 KB still unlocks, and its earlier unlocks stay free', async () => {
    const { key, user } = await pro();
    const { result } = await run(key, 'company-people-discovery-v1', { company_name: 'Nebula Labs', limit: 6 });
    // An account from before the buckets: one item per kind, as full as DynamoDB takes (some 9,500 unlocked
    // people; one more entry would not fit), Ada among them at the phone tier.
    const singleItem = (entries: number) => {
      const tiers: Record<string, string> = { 'per-nebula-1': 'phone' };
      for (let i = 0; i < entries; i++) tiers[`per-earlier-${String(i).padStart(8, '0')}-0123456789abcdef`] = 'email';
      return new PutCommand({
        TableName: table(),
        Item: { pk: `USER#${user.id}`, sk: 'UNLOCKS#person', entity: 'unlockMemory', version: 41, tiers },
      });
    };
    let [fits, tooMany] = [9_000, 10_000];
    while (tooMany - fits > 1) {
      const middle = Math.floor((fits + tooMany) / 2);
      const accepted = await ddb()
        .send(singleItem(middle))
        .then(
          () => true,
          () => false,
        );
      [fits, tooMany] = accepted ? [middle, tooMany] : [fits, middle];
    }
    await ddb().send(singleItem(fits));

    const all = await expand(key, 'company-people-discovery-v1', result.result_id, 'contact_unlock', {
      selection: { mode: 'all' },
      contact_tier: 'email',
    });
    const ids: string[] = all.result.records.map((r: { record_id: string }) => r.record_id);
    expect(ids).toHaveLength(6);
    // Ethan Brooks has no e-mail address: the social tier is all he is charged.
    expect(all.result.credits_charged).toBe(100 * 4 + 50);
    expect(all.result.records.find((r: { record_id: string }) => r.record_id === 'per-nebula-1')).toMatchObject({
      contact_tier: 'phone',
      phone: '+49 30 5550 1201',
    });
    const again = await quote(key, {
      package_id: 'company-people-discovery-v1',
      expansion_scope: expansionScope(result.result_id, 'contact_unlock', {
        selection: { mode: 'all' },
        contact_tier: 'email',
      }),
    });
    expect(again.credits).toBe(0);

    const { Items = [] } = await ddb().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :unlocks)',
        ExpressionAttributeValues: { ':pk': `USER#${user.id}`, ':unlocks': 'UNLOCKS#person' },
        ConsistentRead: true,
      }),
    );
    const single = Items.find((item) => item.sk === 'UNLOCKS#person');
    expect(single?.version).toBe(41);
    const buckets = Items.filter((item) => item.sk !== 'UNLOCKS#person');
    expect(buckets.flatMap((b) => Object.keys(b.tiers)).sort()).toEqual(
      ids.filter((id) => id !== 'per-nebula-1').sort(),
    );
  });

  it('limits channels to the package: a fund unlock shows its partner, never GitHub; phone is not offered for hackathon builders', async () => {
    const { key } = await pro();
    const { result } = await run(key, 'vc-shortlist-v1', { ...VC, limit: 2 });
    const { result: unlocked } = await expand(key, 'vc-shortlist-v1', result.result_id, 'contact_unlock', {
      selection: { mode: 'ids', record_ids: ['fund-polaris'] },
      contact_tier: 'phone',
    });
    expect(unlocked.records[0]).toMatchObject({
      contact_name: 'Helena Vance',
      email: 'helena@polaris.vc',
      phone: '+1 415 555 0142',
    });
    expect(unlocked.records[0]).not.toHaveProperty('GitHub_URL');
    const hack = await run(key, 'hackathon-builder-v1', { ecosystem: 'ethereum', limit: 2 });
    const refused = await api.call('POST', '/intelligence/quote', {
      key,
      body: {
        package_id: 'hackathon-builder-v1',
        expansion_scope: expansionScope(hack.result.result_id, 'contact_unlock', {
          selection: { mode: 'all' },
          contact_tier: 'phone',
        }),
      },
    });
    expect(refused.status).toBe(400);
    const unknownId = await api.call('POST', '/intelligence/quote', {
      key,
      body: {
        package_id: 'vc-shortlist-v1',
        expansion_scope: expansionScope(result.result_id, 'contact_unlock', {
          selection: { mode: 'ids', record_ids: ['fund-nope'] },
          contact_tier: 'email',
        }),
      },
    });
    expect(unknownId.status).toBe(400);
  });

  it('increase_limit continues the ranking in blocks of 10 without repeats; refused for warm intro paths', async () => {
    const { key } = await pro();
    const { result } = await run(key, 'vc-shortlist-v1', { ...VC, limit: 3 });
    const parent = await api.call('GET', `/intelligence/results/${result.result_id}`, { key });
    const more = await expand(key, 'vc-shortlist-v1', result.result_id, 'increase_limit', { blocks: 1 });
    expect(more.quote.credits).toBe(more.result.records_count * 10);
    const again = await expand(key, 'vc-shortlist-v1', more.result.result_id, 'increase_limit', { blocks: 1 });
    const ids = [...parent.body.records, ...more.result.records, ...again.result.records].map(
      (r: { record_id: string }) => r.record_id,
    );
    expect(new Set(ids).size).toBe(ids.length);
    expect(more.result.records_count).toBe(10);
    expect(more.result.credits_charged).toBe(100);
    expect(Object.keys(more.result.records[0]).sort()).toEqual(Object.keys(parent.body.records[0]).sort());

    const intro = await run(key, 'warm-intro-paths-v1', { target_fund_name: 'Polaris Ventures', limit: 2 });
    const refused = await api.call('POST', '/intelligence/quote', {
      key,
      body: {
        package_id: 'warm-intro-paths-v1',
        expansion_scope: expansionScope(intro.result.result_id, 'increase_limit', { blocks: 1 }),
      },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/funding-round evidence/);
  });

  it('network_depth names co-investors with counts, shared companies and strength, at 20 credits a fund', async () => {
    const { key } = await pro();
    const { result } = await run(key, 'vc-shortlist-v1', { ...VC, limit: 3 });
    const net = await expand(key, 'vc-shortlist-v1', result.result_id, 'network_depth', {
      selection: { mode: 'ids', record_ids: ['fund-polaris'] },
    });
    expect(net.result.credits_charged).toBe(20);
    const polaris = net.result.records[0];
    expect(polaris.co_investors[0]).toMatchObject({
      fund_id: 'fund-lattice',
      name: 'Lattice Capital',
      relationship_strength: 'strong',
    });
    expect(polaris.co_investors[0].shared_rounds).toBeGreaterThan(3);
    expect(polaris.shared_portfolio_companies.length).toBeGreaterThan(0);
    const people = await run(key, 'company-people-discovery-v1', { company_name: 'Nebula Labs' });
    const refused = await api.call('POST', '/intelligence/quote', {
      key,
      body: {
        package_id: 'company-people-discovery-v1',
        expansion_scope: expansionScope(people.result.result_id, 'network_depth', { selection: { mode: 'all' } }),
      },
    });
    expect(refused.status).toBe(400);
  });

  it('binds the expansion token to its parameters and uses it once', async () => {
    const { key } = await pro();
    // The top DeFi KOLs of the curated data have no contact details at all (an unlock of them is free): funds.
    const { result } = await run(key, 'vc-shortlist-v1', { ...VC, limit: 3 });
    const params = { selection: { mode: 'all' }, contact_tier: 'email' };
    const q = await quote(key, {
      package_id: 'vc-shortlist-v1',
      expansion_scope: expansionScope(result.result_id, 'contact_unlock', params),
    });
    expect(q.credits).toBeGreaterThan(0);
    const body = {
      parent_result_id: result.result_id,
      expansion_type: 'contact_unlock',
      expansion_params: params,
      quote_token: q.quote_token,
    };
    const other = await api.call('POST', '/intelligence/expand', {
      key,
      body: { ...body, expansion_params: { ...params, contact_tier: 'social' } },
    });
    expect([other.status, other.body.error.code]).toEqual([422, 'quote_mismatch']);
    const both = await Promise.all([1, 2, 3].map(() => api.call('POST', '/intelligence/expand', { key, body })));
    expect(both.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    // Charged what was quoted, once.
    expect(both.find((r) => r.status === 200)?.body.credits_charged).toBe(q.credits);
    expect(await balance(key)).toBe(10_000 - 130 - q.credits);
  });
});

describe('expansion quotes follow what the parent offers', () => {
  it('refuses a malformed slot beside expansion_scope (400) and an expansion the parent does not offer (422)', async () => {
    const { key } = await pro(50_000);
    const { result } = await run(key, 'vc-shortlist-v1', { ...VC, limit: 5 });
    const scope = expansionScope(result.result_id, 'contact_unlock', {
      selection: { mode: 'top_n', n: 1 },
      contact_tier: 'social',
    });
    const withSlots = await api.call('POST', '/intelligence/quote', {
      key,
      body: { package_id: 'vc-shortlist-v1', slots: { sector_focus: 'x' }, expansion_scope: scope },
    });
    expect(withSlots.status).toBe(400);
    expect(withSlots.body.error.code).toBe('validation_error');

    const unlocked = await expand(key, 'vc-shortlist-v1', result.result_id, 'contact_unlock', {
      selection: { mode: 'top_n', n: 1 },
      contact_tier: 'social',
    });
    const offered = (
      await api.call('GET', `/intelligence/results/${unlocked.result.result_id}`, { key })
    ).body.available_expansions.map((e: { type: string }) => e.type);
    expect(offered).not.toContain('increase_limit');
    const refused = await api.call('POST', '/intelligence/quote', {
      key,
      body: {
        package_id: 'vc-shortlist-v1',
        expansion_scope: expansionScope(unlocked.result.result_id, 'increase_limit', { blocks: 1 }),
      },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('invalid_state');
  });
});

describe('parallel expansions of one result', () => {
  it('answer 200 or a 409 with the error body, never 5xx, and charge exactly what the 200s report', async () => {
    const { key } = await pro(100_000);
    const { result } = await run(key, 'vc-shortlist-v1', { ...VC, limit: 10 });
    const before = await balance(key);
    const requests = Array.from({ length: 16 }, (_, i) => {
      const [type, params] =
        i % 2 === 0
          ? ['contact_unlock', { selection: { mode: 'top_n', n: (i % 10) + 1 }, contact_tier: 'email' }]
          : ['increase_limit', { blocks: 1 }];
      return { type, params };
    });
    const quoted = await Promise.all(
      requests.map(async (r) => ({
        ...r,
        q: await quote(key, {
          package_id: 'vc-shortlist-v1',
          expansion_scope: expansionScope(result.result_id, r.type, r.params),
        }),
      })),
    );
    const answers = await Promise.all(
      quoted.map((r) =>
        api.call('POST', '/intelligence/expand', {
          key,
          body: {
            parent_result_id: result.result_id,
            expansion_type: r.type,
            expansion_params: r.params,
            quote_token: r.q.quote_token,
          },
        }),
      ),
    );
    let charged = 0;
    for (const res of answers) {
      expect([200, 409], JSON.stringify(res.body)).toContain(res.status);
      if (res.status === 200) charged += res.body.credits_charged;
      else expect(res.body).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
    }
    expect(await balance(key)).toBe(before - charged);
  });
});
