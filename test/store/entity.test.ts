import { describe, expect, it } from 'vitest';
import { defineEntity, EntityMismatchError } from '#shared/store/entity';
import { buildUpdate } from '#shared/store/update';

interface Thing {
  userId: string;
  id: string;
  status: 'open' | 'paid';
  note: string | null;
  count: number;
}

const things = defineEntity<Thing>()({
  name: 'thing',
  key: (t: Pick<Thing, 'userId' | 'id'>) => ({ pk: `USER#${t.userId}`, sk: `THING#${t.id}` }),
  nullable: ['note'],
});

const thing: Thing = { userId: 'u1', id: 't1', status: 'open', note: null, count: 2 };

/** What an entity's definition gives its repository: whole items, typed updates and checked reads. */
describe('defineEntity', () => {
  it('builds the whole item from the record: key, entity name, attributes (nullable nulls left out), indexes', () => {
    expect(things.item(thing, { gsi3pk: 'DUE#0', ttl: 5 })).toEqual({
      pk: 'USER#u1',
      sk: 'THING#t1',
      entity: 'thing',
      userId: 'u1',
      id: 't1',
      status: 'open',
      count: 2,
      gsi3pk: 'DUE#0',
      ttl: 5,
    });
  });

  it('reads back the record, null restored, and refuses an item of another entity', () => {
    const item = things.item(thing, { gsi3pk: 'DUE#0' });
    expect(things.fromItem(item)).toEqual(thing);
    expect(things.maybe(undefined)).toBeUndefined();
    expect(() => things.fromItem({ ...item, entity: 'other' })).toThrow(EntityMismatchError);
    expect(() => things.fromItem({ pk: 'x', sk: 'y' })).toThrow(/untyped item where a thing item belongs/);
  });

  it('accepts an item without a name only for entities that updates may create', () => {
    const counters = defineEntity<{ count: number }>()({
      name: 'counter',
      key: (c: { id: string }) => ({ pk: `C#${c.id}`, sk: 'C' }),
      createdByUpdate: true,
    });
    expect(counters.fromItem({ pk: 'C#1', sk: 'C', count: 3 })).toEqual({ count: 3 });
    expect(() => counters.fromItem({ pk: 'C#1', sk: 'C', entity: 'thing', count: 3 })).toThrow(EntityMismatchError);
  });

  it('leaves key-only fields out of the stored attributes', () => {
    const pointers = defineEntity<{ userId: string }>()({
      name: 'pointer',
      key: (p: { hash: string }) => ({ pk: `P#${p.hash}`, sk: 'P' }),
      keyOnly: ['hash'],
    });
    expect(pointers.item({ hash: 'h', userId: 'u' })).toEqual({ pk: 'P#h', sk: 'P', entity: 'pointer', userId: 'u' });
  });

  it('types updates by the attributes: a misspelled one does not compile (tsc checks the lines below)', () => {
    expect(things.update({ set: { status: 'paid' }, add: { count: 1 }, remove: ['note', 'gsi3pk'] })).toEqual({
      UpdateExpression: 'SET #n0 = :v0 ADD #n1 :v1 REMOVE #n2, #n3',
      ExpressionAttributeNames: { '#n0': 'status', '#n1': 'count', '#n2': 'note', '#n3': 'gsi3pk' },
      ExpressionAttributeValues: { ':v0': 'paid', ':v1': 1 },
    });
    const typos = () => [
      // @ts-expect-error a misspelled attribute in set
      things.update({ set: { stauts: 'paid' } }),
      // @ts-expect-error a value of the wrong type
      things.update({ set: { status: 'closed' } }),
      // @ts-expect-error a misspelled attribute in remove
      things.update({ remove: ['note', 'nots'] }),
      // @ts-expect-error a misspelled attribute in add
      things.update({ add: { cuont: 1 } }),
      // @ts-expect-error a misspelled attribute in setIfNotExists
      things.update({ setIfNotExists: { stauts: 'open' } }),
      // @ts-expect-error a misspelled attribute in increment
      things.update({ increment: { cuont: 1 } }),
      // @ts-expect-error another entity's name
      things.update({ set: { entity: 'other' } }),
      // @ts-expect-error buildUpdate without the attributes named
      buildUpdate({ set: { status: 'paid' } }),
      // @ts-expect-error a record missing a key field
      things.item({ status: 'open', note: null, count: 1, userId: 'u' }),
    ];
    expect(typos).toBeTypeOf('function');
  });
});
