import { describe, expect, it } from 'vitest';
import { PACKAGES } from '#shared/domain/intelligence/packages';
import { startTestApi } from '#test/support/api';

/**
 * Every package's own example, end to end: the sentence resolves to the example's slots, they
 * quote, and the quote executes into records at the quoted price. A new package in the table is
 * covered by this test the moment it carries an example.
 */
const api = await startTestApi();

describe.each(Object.values(PACKAGES))('$id, from its example', (pkg) => {
  it('resolves the example sentence to the example slots, quotes and executes them', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 100_000 });
    const resolved = await api.call('POST', '/intelligence/resolve', {
      key,
      body: { package_id: pkg.id, request_text: pkg.example.request_text },
    });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    expect(resolved.body).toMatchObject({ intent_status: 'ready_for_quote', package_id: pkg.id, missing_slots: [] });
    expect(resolved.body.filled_slots).toMatchObject(pkg.example.slots);

    const quote = await api.call('POST', '/intelligence/quote', {
      key,
      body: { package_id: pkg.id, slots: pkg.example.slots },
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    const executed = await api.call('POST', '/intelligence/execute', {
      key,
      body: { package_id: pkg.id, slots: pkg.example.slots, quote_token: quote.body.quote_token },
    });
    expect(executed.status, JSON.stringify(executed.body)).toBe(200);
    expect(executed.body.records_count).toBeGreaterThan(0);
    expect(executed.body.credits_charged).toBeGreaterThan(0);
    expect(executed.body.credits_charged).toBeLessThanOrEqual(quote.body.credits);
    const result = await api.call('GET', `/intelligence/results/${executed.body.result_id}`, { key });
    expect(result.body.records).toHaveLength(executed.body.records_count);
  });
});
