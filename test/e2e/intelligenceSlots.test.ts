/**
 * through the HTTP API: everyday words in taxonomy slots (resolve, quote,
 * execute), and expansion quotes that repeat their parent's request.
 */
import { describe, expect, it } from 'vitest';
import { startTestApi } from '#test/support/api';
import { ManualClock } from '#shared/adapters/clock';

const api = await startTestApi({ clock: new ManualClock() });
const pro = (credits = 50_000) => api.newUser({ tier: 'pro', credits });
const ENGINEERS = ['smart-contract-engineer', 'protocol-engineer', 'full-stack-dapp', 'zk-engineer', 'data-engineer'];
const ENGINEER_LABELS = [
  'Smart contract engineer',
  'Protocol engineer',
  'Full-stack dApp developer',
  'ZK engineer',
  'On-chain data engineer',
];

const resolve = (key: string, body: Record<string, unknown>) =>
  api.call('POST', '/intelligence/resolve', { key, body });
const quote = (key: string, body: Record<string, unknown>) => api.call('POST', '/intelligence/quote', { key, body });
const balance = async (key: string) =>
  (await api.call('GET', '/users/me', { key })).body.permanent_credit_balance as number;

async function run(key: string, package_id: string, slots: Record<string, unknown>, output_fields?: string[]) {
  const q = await quote(key, { package_id, slots, ...(output_fields ? { output_fields } : {}) });
  expect(q.status, JSON.stringify(q.body)).toBe(200);
  const res = await api.call('POST', '/intelligence/execute', {
    key,
    body: { package_id, slots, quote_token: q.body.quote_token, ...(output_fields ? { output_fields } : {}) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const stored = await api.call('GET', `/intelligence/results/${res.body.result_id}`, { key });
  return { quote: q.body, result: res.body, records: stored.body.records as Record<string, unknown>[] };
}

describe('everyday words in taxonomy slots', () => {
  it('resolves "developer" to every engineering builder type and executes over all of them', async () => {
    const { key } = await pro();
    const resolved = await resolve(key, {
      package_id: 'builder-discovery-v1',
      slots: { category: 'Developers', limit: 30 },
    });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({
      intent_status: 'ready_for_quote',
      filled_slots: { category: ENGINEERS.join(', ') },
    });
    const { quote: q, records } = await run(key, 'builder-discovery-v1', { category: 'developer', limit: 30 });
    expect(q.filled_slots.category).toBe(ENGINEERS.join(', '));
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((r) => ENGINEER_LABELS.includes(r.category as string))).toBe(true);
    expect(new Set(records.map((r) => r.category)).size).toBeGreaterThan(1);
  });

  it.each([
    ['solidity dev', 'smart-contract-engineer', 'Smart contract engineer'],
    ['Designers', 'full-stack-dapp', 'Full-stack dApp developer'],
    ['web3 marketer', 'devrel', 'Developer relations'],
  ])('quotes and executes category "%s" as %s', async (word, id, label) => {
    const { key } = await pro();
    const { quote: q, records } = await run(key, 'builder-discovery-v1', { category: word, limit: 5 });
    expect(q.filled_slots.category).toBe(id);
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((r) => r.category === label)).toBe(true);
  });

  it('reads the other taxonomy slots in everyday words (role, platform, stage, ecosystem, sector)', async () => {
    const { key } = await pro();
    const people = await quote(key, {
      package_id: 'company-people-discovery-v1',
      slots: { company_name: 'Nebula Labs', role_focus: 'developers and designers' },
    });
    expect(people.body.filled_slots.role_focus).toBe('engineering, product');
    const kols = await quote(key, {
      package_id: 'kol-discovery-v1',
      slots: { sector_focus: 'Real-World Assets', platform: 'Twitter' },
    });
    expect(kols.body.filled_slots).toMatchObject({ sector_focus: 'rwa', platform: 'x' });
    const vcs = await quote(key, {
      package_id: 'vc-shortlist-v1',
      slots: { sector_focus: 'DEXes', stage: 'Pre Seed' },
    });
    expect(vcs.body.filled_slots).toMatchObject({ sector_focus: 'defi', stage: 'pre-seed' });
    const hack = await quote(key, { package_id: 'hackathon-builder-v1', slots: { ecosystem: 'Ether' } });
    expect(hack.body.filled_slots.ecosystem).toBe('ethereum');
  });

  it('asks again in resolve, and refuses in quote with suggestions, a word that maps to nothing', async () => {
    const { key } = await pro();
    const asked = await resolve(key, {
      package_id: 'builder-discovery-v1',
      slots: { category: 'secruity researcher' },
    });
    expect(asked.body).toMatchObject({
      intent_status: 'needs_clarification',
      missing_slots: ['category'],
      coverage: null,
    });
    expect(asked.body.clarification_questions[0]).toMatch(
      /"secruity researcher" is not a value we know; did you mean security-researcher/,
    );
    const before = await balance(key);
    const refused = await quote(key, { package_id: 'builder-discovery-v1', slots: { category: 'banana' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('validation_error');
    expect(refused.body.error.details).toEqual([
      {
        path: 'slots.category',
        message: expect.any(String),
        suggestions: expect.arrayContaining([expect.any(String)]),
      },
    ]);
    const roles = await quote(key, {
      package_id: 'company-people-discovery-v1',
      slots: { company_name: 'Nebula Labs', role_focus: 'constructor' },
    });
    expect(roles.status).toBe(400);
    expect(roles.body.error.details[0]).toMatchObject({ path: 'slots.role_focus', suggestions: expect.any(Array) });
    expect(await balance(key)).toBe(before);
  });

  it('asks which one when a word names several values of a slot that holds one', async () => {
    const { key } = await pro();
    const asked = await resolve(key, {
      package_id: 'vc-shortlist-v1',
      slots: { sector_focus: 'defi', stage: 'early stage' },
    });
    expect(asked.body.intent_status).toBe('needs_clarification');
    expect(asked.body.clarification_questions[0]).toMatch(/did you mean pre-seed, seed\?/);
    const refused = await quote(key, {
      package_id: 'vc-shortlist-v1',
      slots: { sector_focus: 'defi', stage: 'early stage' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([
      expect.objectContaining({ path: 'slots.stage', suggestions: ['pre-seed', 'seed'] }),
    ]);
  });
});

describe('expansion quotes that repeat the parent request', () => {
  const VC = { sector_focus: 'DeFi', stage: 'seed', limit: 5 };
  const FIELDS = ['name', 'website', 'rationale'];
  const scope = (parent: string) => ({
    parent_result_id: parent,
    expansion_type: 'increase_limit',
    expansion_params: { blocks: 1 },
  });

  it('accepts package_id, slots and output_fields equal to the parent (in any spelling) and expands', async () => {
    const { key } = await pro();
    const { result } = await run(key, 'vc-shortlist-v1', VC, FIELDS);
    const q = await quote(key, {
      package_id: 'vc-shortlist-v1',
      slots: { sector_focus: 'decentralized finance', stage: 'Seed', limit: 5 },
      output_fields: ['rationale', 'name', 'website'],
      expansion_scope: scope(result.result_id),
    });
    expect(q.status, JSON.stringify(q.body)).toBe(200);
    expect(q.body).toMatchObject({
      filled_slots: { sector_focus: 'defi', stage: 'seed', limit: 5 },
      output_fields: FIELDS,
      expansion_scope: scope(result.result_id),
    });
    const partial = await quote(key, {
      package_id: 'vc-shortlist-v1',
      slots: { stage: 'seed' },
      output_fields: ['name'],
      expansion_scope: scope(result.result_id),
    });
    expect(partial.status, JSON.stringify(partial.body)).toBe(200);
    const expanded = await api.call('POST', '/intelligence/expand', {
      key,
      body: { ...scope(result.result_id), quote_token: q.body.quote_token },
    });
    expect(expanded.status, JSON.stringify(expanded.body)).toBe(200);
    expect(Object.keys(expanded.body.records[0]).sort()).toEqual(['record_id', ...FIELDS].sort());
  });

  it('answers 422 quote_mismatch naming each field that contradicts the parent, and charges nothing', async () => {
    const { key } = await pro();
    const { result } = await run(key, 'vc-shortlist-v1', VC, FIELDS);
    const before = await balance(key);
    const mismatch = await quote(key, {
      package_id: 'vc-shortlist-v1',
      slots: { sector_focus: 'defi', stage: 'Series A', tier: 1 },
      output_fields: ['name', 'tagline'],
      expansion_scope: scope(result.result_id),
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.error.code).toBe('quote_mismatch');
    expect(mismatch.body.error.details.map((d: { path: string }) => d.path)).toEqual([
      'slots.stage',
      'slots.tier',
      'output_fields',
    ]);
    const otherPackage = await quote(key, { package_id: 'kol-discovery-v1', expansion_scope: scope(result.result_id) });
    expect(otherPackage.status).toBe(422);
    expect(otherPackage.body.error).toMatchObject({
      code: 'quote_mismatch',
      details: [expect.objectContaining({ path: 'package_id' })],
    });
    const malformed = await quote(key, {
      package_id: 'vc-shortlist-v1',
      slots: { stage: 'banana' },
      expansion_scope: scope(result.result_id),
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.details[0]).toMatchObject({ path: 'slots.stage', suggestions: expect.any(Array) });
    expect(await balance(key)).toBe(before);
  });
});
