import { describe, expect, it, vi } from 'vitest';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from '#shared/store/client';
import { bulkPut } from '#shared/store/batch';
import { uuidv7 } from '#shared/ids';

/**
 * the first start's seed writes through bulkPut, which on DynamoDB Local groups the
 * puts into transactions (one commit each). Every item must land, whatever the grouping.
 */
describe('bulkPut against DynamoDB Local', () => {
  const stored = async (pk: string) => {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await ddb().send(
        new QueryCommand({
          TableName: table(),
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': pk },
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      );
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    return items;
  };

  it('writes more items than one transaction holds, reporting progress up to all of them', async () => {
    const pk = `TEST#bulk#${uuidv7()}`;
    const items = Array.from({ length: 257 }, (_, i) => ({ pk, sk: `ITEM#${String(i).padStart(4, '0')}`, n: i }));
    const progress: number[] = [];
    await bulkPut(items, { onProgress: (done) => progress.push(done) });
    const found = await stored(pk);
    expect(found.map((i) => i.n).sort((a, b) => Number(a) - Number(b))).toEqual(items.map((i) => i.n));
    expect(progress.length).toBe(3);
    expect(Math.max(...progress)).toBe(257);
  });

  it("splits by size: items that together exceed a transaction's 4 MB still all land", async () => {
    const pk = `TEST#bulk#${uuidv7()}`;
    const blob = 'x'.repeat(350_000);
    const items = Array.from({ length: 14 }, (_, i) => ({ pk, sk: `BIG#${i}`, blob }));
    await bulkPut(items);
    expect((await stored(pk)).length).toBe(14);
  });

  it('an item put twice ends as its later version', async () => {
    const pk = `TEST#bulk#${uuidv7()}`;
    await bulkPut([
      { pk, sk: 'SAME', v: 1 },
      { pk, sk: 'OTHER', v: 1 },
      { pk, sk: 'SAME', v: 2 },
    ]);
    const { Item } = await ddb().send(
      new GetCommand({ TableName: table(), Key: { pk, sk: 'SAME' }, ConsistentRead: true }),
    );
    expect(Item?.v).toBe(2);
    expect((await stored(pk)).length).toBe(2);
  });

  it('splits by size in bytes: items of multi-byte text that together exceed 4 MB still all land', async () => {
    const pk = `TEST#bulk#${uuidv7()}`;
    // 60,000 characters of three bytes each in UTF-8: 180 KB an item, 25 of them 4.5 MB, though their JSON is 1.5 million characters.
    const text = '\u20ac'.repeat(60_000);
    const items = Array.from({ length: 25 }, (_, i) => ({ pk, sk: `WIDE#${i}`, text }));
    await bulkPut(items);
    expect((await stored(pk)).length).toBe(25);
  });

  it('two bulk writes of the same items at once both finish, every item landing', async () => {
    const pk = `TEST#bulk#${uuidv7()}`;
    const items = (v: number) =>
      Array.from({ length: 300 }, (_, i) => ({ pk, sk: `ITEM#${String(i).padStart(4, '0')}`, v }));
    await Promise.all([bulkPut(items(1)), bulkPut(items(2)), bulkPut(items(3))]);
    const found = await stored(pk);
    expect(found).toHaveLength(300);
    expect(found.every((i) => [1, 2, 3].includes(i.v as number))).toBe(true);
  });

  it('a transaction conflict (another write to the same item in flight) is written again, not lost', async () => {
    const pk = `TEST#bulk#${uuidv7()}`;
    const client = ddb();
    const send = client.send.bind(client);
    let refused = 0;
    const spy = vi.spyOn(client, 'send').mockImplementation(((command: { constructor: { name: string } }) => {
      if (command.constructor.name === 'TransactWriteCommand' && refused === 0) {
        refused += 1;
        return Promise.reject(
          Object.assign(new Error('Transaction cancelled'), {
            name: 'TransactionCanceledException',
            CancellationReasons: [{ Code: 'TransactionConflict' }],
          }),
        );
      }
      return send(command as never);
    }) as never);
    try {
      await bulkPut(Array.from({ length: 30 }, (_, i) => ({ pk, sk: `ITEM#${i}` })));
    } finally {
      spy.mockRestore();
    }
    expect(refused).toBe(1);
    expect(await stored(pk)).toHaveLength(30);
  });
});
