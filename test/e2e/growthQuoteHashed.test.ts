import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ddb, table } from '#shared/store/client';
import { startTestApi } from '#test/support/api';

const api = await startTestApi();

/** The keys of the items that hold `text` anywhere (a scan: the test table is small). */
async function itemsHolding(text: string): Promise<string[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await ddb().send(new ScanCommand({ TableName: table(), ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items.filter((item) => JSON.stringify(item).includes(text)).map((item) => `${item.pk} ${item.sk}`);
}

describe('a growth quote token in the table', () => {
  it('is stored only as its hash, by the quote and by the run it started', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 10_000 });
    const resolved = await api.call('POST', '/growth/resolve', {
      key,
      body: { goal_text: 'Find the work emails of the team at these companies', input_text: 'nebulalabs.io' },
    });
    const quote = (await api.call('POST', '/growth/quote', { key, body: { goal_plan: resolved.body.goal_plan } })).body;
    expect(quote.ok).toBe(true);
    const run = await api.call('POST', '/growth/run', {
      key,
      body: { quote_token: quote.quote_token, goal_plan: quote.goal_plan },
    });
    expect(run.status, run.text).toBe(202);
    await api.ports.queue.drained();

    // The token's random part, so no prefix can hide it.
    expect(await itemsHolding(String(quote.quote_token).slice(3))).toEqual([]);
    // A token issued before the cutover (stored raw) is no token any more: unknown, the contract's 422.
    const old = await api.call('POST', '/growth/run', {
      key,
      body: { quote_token: `gq_${'x'.repeat(40)}`, goal_plan: quote.goal_plan },
    });
    expect(old.status).toBe(422);
    expect(old.body.error.code).toBe('quote_mismatch');
  });
});
