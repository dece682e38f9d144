import { describe, expect, it } from 'vitest';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, table } from '#shared/store/client';
import { buildUpdate, setOrRemove } from '#shared/store/update';
import { uuidv7 } from '#shared/ids';

/** The attributes of the items these tests update. */
interface Attrs {
  status: string;
  note: string;
  comment: string;
  data: unknown;
  attempts: number;
  size: number;
  name: string;
  startedAt: string;
  endedAt: string;
  version: number;
  units: Record<string, number>;
  outcomes: string[];
  gsi3pk: string;
  a: number;
}

/** the one update builder every repository uses, as text and against DynamoDB Local. */
describe('buildUpdate', () => {
  it('aliases every name, numbers every value, skips undefined and keeps the condition as written', () => {
    const parts = buildUpdate<Attrs>({
      set: { status: 'paid', note: undefined, data: null },
      add: { attempts: 1 },
      remove: ['name'],
      condition: { expression: '#s = :open', names: { '#s': 'status' }, values: { ':open': 'open' } },
    });
    expect(parts).toEqual({
      UpdateExpression: 'SET #n0 = :v0, #n1 = :v1 ADD #n2 :v2 REMOVE #n3',
      ConditionExpression: '#s = :open',
      ExpressionAttributeNames: { '#n0': 'status', '#n1': 'data', '#n2': 'attempts', '#n3': 'name', '#s': 'status' },
      ExpressionAttributeValues: { ':v0': 'paid', ':v1': null, ':v2': 1, ':open': 'open' },
    });
  });

  it('writes document paths, increments and if_not_exists with one alias per name', () => {
    expect(
      buildUpdate<Attrs>({
        setIfNotExists: { startedAt: 'a' },
        increment: { version: 1, 'units.enrich': 2 },
        set: { 'outcomes[2]': 'x' },
      }),
    ).toEqual({
      UpdateExpression: 'SET #n0[2] = :v0, #n1 = if_not_exists(#n1, :v1), #n2 = #n2 + :v2, #n3.#n4 = #n3.#n4 + :v3',
      ExpressionAttributeNames: {
        '#n0': 'outcomes',
        '#n1': 'startedAt',
        '#n2': 'version',
        '#n3': 'units',
        '#n4': 'enrich',
      },
      ExpressionAttributeValues: { ':v0': 'x', ':v1': 'a', ':v2': 1, ':v3': 2 },
    });
  });

  it('leaves out what is empty, and refuses an update that changes nothing or a condition that reuses its placeholders', () => {
    expect(buildUpdate<Attrs>({ remove: ['gsi3pk'] })).toEqual({
      UpdateExpression: 'REMOVE #n0',
      ExpressionAttributeNames: { '#n0': 'gsi3pk' },
    });
    expect(() => buildUpdate<Attrs>({ set: { a: undefined } })).toThrow(/must change something/);
    expect(() =>
      buildUpdate<Attrs>({ set: { a: 1 }, condition: { expression: 'b = :v0', values: { ':v0': 2 } } }),
    ).toThrow(/clashes/);
    expect(() => buildUpdate<Attrs>({ set: { 'a..b': 1 } })).toThrow(/document path/);
  });

  it('splits a partial record into SETs and REMOVEs of its nulls', () => {
    expect(setOrRemove({ a: 1, b: null, c: undefined, d: '' })).toEqual({ set: { a: 1, d: '' }, remove: ['b'] });
  });
});

describe('buildUpdate against DynamoDB Local', () => {
  const key = () => ({ pk: `TEST#update#${uuidv7()}`, sk: 'ITEM' });

  it('applies set, add, increment, if_not_exists and remove to reserved-word attributes, under a condition', async () => {
    const Key = key();
    await ddb().send(
      new PutCommand({
        TableName: table(),
        Item: {
          ...Key,
          status: 'open',
          name: 'old',
          data: 'kept?',
          attempts: 1,
          version: 3,
          units: { enrich: 5 },
          outcomes: ['a', 'b', 'c'],
          startedAt: 'first',
        },
      }),
    );
    await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key,
        ...buildUpdate<Attrs>({
          set: { status: 'paid', comment: undefined, 'outcomes[1]': 'B' },
          setIfNotExists: { startedAt: 'second', endedAt: 'now' },
          increment: { version: 1, 'units.enrich': 2 },
          add: { attempts: 2, size: 7 },
          remove: ['name', 'data'],
          condition: {
            expression: '#s = :open AND attribute_exists(#n)',
            names: { '#s': 'status', '#n': 'name' },
            values: { ':open': 'open' },
          },
        }),
      }),
    );
    const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key, ConsistentRead: true }));
    expect(Item).toEqual({
      ...Key,
      status: 'paid',
      attempts: 3,
      size: 7,
      version: 4,
      units: { enrich: 7 },
      outcomes: ['a', 'B', 'c'],
      startedAt: 'first',
      endedAt: 'now',
    });
  });

  it('fails its condition as a conditional write does, changing nothing', async () => {
    const Key = key();
    await ddb().send(new PutCommand({ TableName: table(), Item: { ...Key, status: 'paid' } }));
    const attempt = ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key,
        ...buildUpdate<Attrs>({
          set: { status: 'open' },
          condition: { expression: '#s = :open', names: { '#s': 'status' }, values: { ':open': 'open' } },
        }),
      }),
    );
    const err = await attempt.catch((e: unknown) => e);
    expect(isConditionFailure(err)).toBe(true);
    expect((await ddb().send(new GetCommand({ TableName: table(), Key, ConsistentRead: true }))).Item).toEqual({
      ...Key,
      status: 'paid',
    });
  });
});
