import { describe, expect, it } from 'vitest';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table, updateIf } from '#shared/store/client';
import { buildUpdate } from '#shared/store/update';
import { uuidv7 } from '#shared/ids';

interface Attrs {
  status: string;
  version: number;
}

const put = async (status: string) => {
  const key = { pk: `TEST#updateIf#${uuidv7()}`, sk: 'ITEM' };
  await ddb().send(new PutCommand({ TableName: table(), Item: { ...key, status, version: 1 } }));
  return key;
};

const read = async (Key: Record<string, string>) =>
  (await ddb().send(new GetCommand({ TableName: table(), Key }))).Item;

/** The conditional update every repository needs: the item as it now is, or undefined when the condition held it back. */
describe('updateIf', () => {
  it('answers the item as the update left it', async () => {
    const Key = await put('open');
    const item = await updateIf({
      TableName: table(),
      Key,
      ...buildUpdate<Attrs>({ set: { status: 'paid' }, increment: { version: 1 }, condition: 'attribute_exists(pk)' }),
    });
    expect(item).toEqual({ ...Key, status: 'paid', version: 2 });
  });

  it('answers undefined and changes nothing when the condition fails', async () => {
    const Key = await put('open');
    const item = await updateIf({
      TableName: table(),
      Key,
      ...buildUpdate<Attrs>({
        set: { status: 'paid' },
        condition: { expression: '#s = :paid', names: { '#s': 'status' }, values: { ':paid': 'paid' } },
      }),
    });
    expect(item).toBeUndefined();
    expect(await read(Key)).toEqual({ ...Key, status: 'open', version: 1 });
  });

  it('throws any other failure', async () => {
    const Key = await put('open');
    await expect(
      updateIf({
        TableName: table(),
        Key,
        UpdateExpression: 'SET #missing = :v',
        ExpressionAttributeValues: { ':v': 1 },
      }),
    ).rejects.toThrow(/#missing/);
  });
});
