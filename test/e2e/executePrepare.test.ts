/**
 * POST /intelligence/execute of a package whose ranking is prepared (warm-intro-paths-v1: the fund's
 * lookup, then its shard read with the quote's token): a prepare that fails is looked at only once the
 * token is good, as a failed ranking always was. A bad token answers as it would without the failure,
 * an identical query is replayed without it, and a good token meets the failure unspent.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestApi } from '#test/support/api';
import { ENGINES } from '#shared/domain/intelligence/engines/index';

const api = await startTestApi();
const PACKAGE = 'warm-intro-paths-v1';
const SLOTS = { target_fund_name: 'Polaris Ventures', limit: 2 };
const engine = ENGINES[PACKAGE];

const pro = () => api.newUser({ tier: 'pro', credits: 10_000 });
const quote = async (key: string) => {
  const res = await api.call('POST', '/intelligence/quote', { key, body: { package_id: PACKAGE, slots: SLOTS } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.quote_token as string;
};
const execute = (key: string, token: string) =>
  api.call('POST', '/intelligence/execute', { key, body: { package_id: PACKAGE, slots: SLOTS, quote_token: token } });
const failPrepare = () => {
  expect(engine.prepare).toBeTypeOf('function');
  return vi.spyOn(engine, 'prepare').mockRejectedValue(new Error('curated lookup unavailable'));
};

afterEach(() => vi.restoreAllMocks());

describe('execute with a prepared ranking that fails', () => {
  it('answers a bad token first, as without the failure', async () => {
    const { key } = await pro();
    const used = await quote(key);
    expect((await execute(key, used)).status).toBe(200);
    const unknown = 'qt_0000000000000000000000000000000000000000';
    const expected = [await execute(key, unknown), await execute(key, used)].map((r) => [r.status, r.body.error?.code]);
    const prepare = failPrepare();
    const answers = [await execute(key, unknown), await execute(key, used)].map((r) => [r.status, r.body.error?.code]);
    expect(prepare).toHaveBeenCalled();
    expect(answers).toEqual(expected);
    expect(answers.every(([status]) => status !== 500)).toBe(true);
  });

  it('replays an identical query at zero cost without the ranking', async () => {
    const { key } = await pro();
    const first = await execute(key, await quote(key));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const token = await quote(key);
    failPrepare();
    const again = await execute(key, token);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toMatchObject({ result_id: first.body.result_id, credits_charged: 0 });
  });

  it('with a good token, fails the request and leaves the token and the credits unspent', async () => {
    const { key } = await pro();
    const token = await quote(key);
    const balance = async () => (await api.call('GET', '/users/me', { key })).body.permanent_credit_balance as number;
    const before = await balance();
    failPrepare();
    expect((await execute(key, token)).status).toBe(500);
    expect(await balance()).toBe(before);
    vi.restoreAllMocks();
    const retried = await execute(key, token);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body.records_count).toBeGreaterThan(0);
  });
});
