import { describe, expect, it, vi } from 'vitest';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, table, writeIfCondition } from '#shared/store/client';
import {
  isCancelledTransaction,
  isTransactionConflict,
  retryingConflicts,
  TransactionConditionError,
  writeTogether,
  type TransactItem,
} from '#shared/store/transactions';
import { uuidv7 } from '#shared/ids';

/** a transaction's items have names, and a failed condition is reported by them. */
const key = (what: string) => ({ pk: `TEST#tx#${uuidv7()}`, sk: what });
const putNew = (Key: { pk: string; sk: string }, extra: Record<string, unknown> = {}): TransactItem => ({
  Put: { TableName: table(), Item: { ...Key, ...extra }, ConditionExpression: 'attribute_not_exists(pk)' },
});
const read = async (Key: { pk: string; sk: string }) =>
  (await ddb().send(new GetCommand({ TableName: table(), Key, ConsistentRead: true }))).Item;

describe('writeTogether against DynamoDB Local', () => {
  it('writes every named item, skipping the undefined ones', async () => {
    const a = key('A');
    const b = key('B');
    await writeTogether({ first: putNew(a), missing: undefined }, { second: [putNew(b, { n: 2 })] });
    expect(await read(a)).toEqual(a);
    expect(await read(b)).toEqual({ ...b, n: 2 });
  });

  it('names exactly the item whose condition failed, and writes none of them', async () => {
    const fresh = key('FRESH');
    const taken = key('TAKEN');
    await ddb().send(new PutCommand({ TableName: table(), Item: taken }));
    const err = await writeTogether({ fresh: putNew(fresh), taken: putNew(taken, { n: 1 }) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransactionConditionError);
    const failure = err as TransactionConditionError;
    expect([...failure.failed]).toEqual(['taken']);
    expect(failure.conflicted).toBe(false);
    expect(failure.failedAmong({ fresh: undefined })).toEqual([]);
    expect(failure.failedAmong({ taken: undefined, other: undefined })).toEqual(['taken']);
    expect(await read(fresh)).toBeUndefined();
    expect(await read(taken)).toEqual(taken);
    // The store's other checks see it as the failed condition it is, not as a conflict.
    expect(isConditionFailure(err)).toBe(true);
    expect(isCancelledTransaction(err)).toBe(true);
    expect(isTransactionConflict(err)).toBe(false);
  });

  it('names a group of items once when any of its items fails, across several groups', async () => {
    const taken = key('TAKEN');
    await ddb().send(new PutCommand({ TableName: table(), Item: taken }));
    const err = await writeTogether({ own: putNew(key('OWN')) }, { chunks: [putNew(taken), putNew(key('C0'))] }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TransactionConditionError);
    expect([...(err as TransactionConditionError).failed]).toEqual(['chunks']);
  });

  it('refuses two items of one name before writing anything', async () => {
    const a = key('A');
    await expect(writeTogether({ same: putNew(a) }, { same: putNew(key('B')) })).rejects.toThrow(/named same/);
    expect(await read(a)).toBeUndefined();
  });

  it('is what writeIfCondition answers false to', async () => {
    const taken = key('TAKEN');
    await ddb().send(new PutCommand({ TableName: table(), Item: taken }));
    expect(await writeIfCondition(() => writeTogether({ taken: putNew(taken) }))).toBe(false);
    expect(await writeIfCondition(() => writeTogether({ fresh: putNew(key('FRESH')) }))).toBe(true);
  });
});

describe('retryingConflicts', () => {
  const cancelled = (...codes: string[]) =>
    Object.assign(new Error('Transaction cancelled'), {
      name: 'TransactionCanceledException',
      CancellationReasons: codes.map((Code) => ({ Code })),
    });

  it('goes again while the only failure is a conflict with another transaction, then answers', async () => {
    const write = vi
      .fn()
      .mockRejectedValueOnce(cancelled('None', 'TransactionConflict'))
      .mockRejectedValueOnce(cancelled('TransactionConflict'))
      .mockResolvedValue('done');
    expect(await retryingConflicts(write, { pauseMs: () => 0 })).toBe('done');
    expect(write).toHaveBeenCalledTimes(3);
  });

  it('gives a failed condition to the caller at once, even when a conflict was reported with it', async () => {
    const failure = new TransactionConditionError(['batch'], true);
    const write = vi.fn().mockRejectedValue(failure);
    await expect(retryingConflicts(write, { pauseMs: () => 0 })).rejects.toBe(failure);
    expect(write).toHaveBeenCalledTimes(1);
  });

  it('stops after its attempts, with the last conflict', async () => {
    const write = vi.fn().mockRejectedValue(cancelled('TransactionConflict'));
    await expect(retryingConflicts(write, { attempts: 4, pauseMs: () => 0 })).rejects.toMatchObject({
      name: 'TransactionCanceledException',
    });
    expect(write).toHaveBeenCalledTimes(4);
  });
});
