import { describe, expect, it } from 'vitest';
import { PACKAGES } from '#shared/domain/intelligence/packages';
import { ddb, dynamoRequestCount } from '#shared/store/client';
import { forgetCachedFacets } from '#shared/store/curatedReads';
import { startTestApi } from '#test/support/api';

/**
 * the paid intelligence calls: an execute of a package's example costs at most four
 * DynamoDB requests and a contact_unlock expansion at most six, the caller's profile included (the
 * authorizer's answer is cached, as API Gateway does). The counter sees every request this process
 * sends; the commands are listed in the failure message.
 *
 *   execute:        profile, BatchGet (token, identical-query pointer, wallet), transaction (+1 Query
 *                   of the sector's funds when this process has not read them in the last minute)
 *   contact_unlock: profile, BatchGet (parent result and its data, token, wallet), BatchGet (unlock
 *                   memory, records' profiles), BatchGet (partners, for funds and companies), transaction
 */
const api = await startTestApi();

const sent: string[] = [];
const client = ddb();
const send = client.send.bind(client);
(client as unknown as { send: (c: { constructor: { name: string } }) => unknown }).send = (command) => {
  sent.push(command.constructor.name.replace(/Command$/, ''));
  return send(command as never);
};

async function requestsFor<T>(call: () => Promise<T>): Promise<{ count: number; commands: string; out: T }> {
  const before = dynamoRequestCount();
  sent.length = 0;
  const out = await call();
  return { count: dynamoRequestCount() - before, commands: sent.join(', '), out };
}

const balance = async (key: string) =>
  (await api.call('GET', '/users/me', { key })).body.permanent_credit_balance as number;
const vc = PACKAGES['vc-shortlist-v1'];

async function executed(key: string, pkg: (typeof PACKAGES)[keyof typeof PACKAGES] = vc) {
  const quote = await api.call('POST', '/intelligence/quote', {
    key,
    body: { package_id: pkg.id, slots: pkg.example.slots },
  });
  expect(quote.status, JSON.stringify(quote.body)).toBe(200);
  const res = await api.call('POST', '/intelligence/execute', {
    key,
    body: { package_id: pkg.id, slots: pkg.example.slots, quote_token: quote.body.quote_token },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function unlockQuote(key: string, packageId: string, parent: string) {
  const body = {
    parent_result_id: parent,
    expansion_type: 'contact_unlock',
    expansion_params: { selection: { mode: 'top_n', n: 3 }, contact_tier: 'email' },
  };
  const q = await api.call('POST', '/intelligence/quote', {
    key,
    body: { package_id: packageId, expansion_scope: body },
  });
  expect(q.status, JSON.stringify(q.body)).toBe(200);
  return { ...body, quote_token: q.body.quote_token as string, credits: q.body.credits as number };
}

describe('paid intelligence calls', () => {
  it('an execute of the vc-shortlist example costs at most four DynamoDB requests, charges what it says once, and spends its token', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 100_000 });
    const before = await balance(key);
    const quote = await api.call('POST', '/intelligence/quote', {
      key,
      body: { package_id: vc.id, slots: vc.example.slots },
    });
    const body = { package_id: vc.id, slots: vc.example.slots, quote_token: quote.body.quote_token };
    const { count, commands, out } = await requestsFor(() => api.call('POST', '/intelligence/execute', { key, body }));
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(count, commands).toBeLessThanOrEqual(4);
    expect(out.body.credits_charged).toBeGreaterThan(0);
    expect(await balance(key)).toBe(before - out.body.credits_charged);
    const read = await api.call('GET', `/intelligence/results/${out.body.result_id}`, { key });
    expect(read.body.records).toHaveLength(out.body.records_count);
    const reused = await api.call('POST', '/intelligence/execute', { key, body });
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe('quote_token_used');
    expect(await balance(key)).toBe(before - out.body.credits_charged);
  });

  it('an execute stays within four when the sector has to be read too (a cold function)', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 100_000 });
    const quote = await api.call('POST', '/intelligence/quote', {
      key,
      body: { package_id: vc.id, slots: vc.example.slots },
    });
    forgetCachedFacets();
    const { count, commands, out } = await requestsFor(() =>
      api.call('POST', '/intelligence/execute', {
        key,
        body: { package_id: vc.id, slots: vc.example.slots, quote_token: quote.body.quote_token },
      }),
    );
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(count, commands).toBeLessThanOrEqual(4);
  });

  /**
   * Every package's example, from a cold function (no facet cached) and from a warm one: four at most,
   * the packages that find their records by a name too (people at a company read whole copies from the
   * lookup bucket; a fund's shard, named by its lookup bucket, is read with the quote's token).
   */
  it.each(Object.values(PACKAGES).map((pkg) => [pkg.id, pkg] as const))(
    'an execute of %s stays within its DynamoDB requests',
    async (_id, pkg) => {
      // A user each: a user's second execute of the same query is answered by its first result.
      const execute = async () => {
        const { key } = await api.newUser({ tier: 'pro', credits: 100_000 });
        const quote = await api.call('POST', '/intelligence/quote', {
          key,
          body: { package_id: pkg.id, slots: pkg.example.slots },
        });
        return requestsFor(() =>
          api.call('POST', '/intelligence/execute', {
            key,
            body: { package_id: pkg.id, slots: pkg.example.slots, quote_token: quote.body.quote_token },
          }),
        );
      };
      forgetCachedFacets();
      const cold = await execute();
      expect(cold.out.status, JSON.stringify(cold.out.body)).toBe(200);
      expect(cold.count, cold.commands).toBeLessThanOrEqual(4);
      const warm = await execute();
      expect(warm.out.status, JSON.stringify(warm.out.body)).toBe(200);
      expect(warm.count, warm.commands).toBeLessThanOrEqual(4);
    },
  );

  it('a contact_unlock expansion costs at most six DynamoDB requests and charges what it says once', async () => {
    for (const pkg of [vc, PACKAGES['company-people-discovery-v1']]) {
      const { key } = await api.newUser({ tier: 'pro', credits: 100_000 });
      const parent = await executed(key, pkg);
      const { credits, ...body } = await unlockQuote(key, pkg.id, parent.result_id);
      const before = await balance(key);
      const { count, commands, out } = await requestsFor(() => api.call('POST', '/intelligence/expand', { key, body }));
      expect(out.status, JSON.stringify(out.body)).toBe(200);
      expect(count, `${pkg.id}: ${commands}`).toBeLessThanOrEqual(6);
      expect(out.body.credits_charged).toBe(credits);
      expect(out.body.credits_charged).toBeGreaterThan(0);
      expect(await balance(key)).toBe(before - credits);
      const read = await api.call('GET', `/intelligence/results/${out.body.result_id}`, { key });
      expect(read.body.records).toEqual(out.body.records);
      // The same records again: already unlocked, so free, and the free path reads no wallet after it.
      const { credits: again, ...second } = await unlockQuote(key, pkg.id, parent.result_id);
      expect(again).toBe(0);
      const free = await requestsFor(() => api.call('POST', '/intelligence/expand', { key, body: second }));
      expect(free.out.body.credits_charged).toBe(0);
      expect(free.count, free.commands).toBeLessThanOrEqual(6);
      expect(await balance(key)).toBe(before - credits);
    }
  });
});
