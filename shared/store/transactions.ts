import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { ddb } from './client';

/** One item of a write transaction, built by a repository and passed through domain code untouched. */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export async function writeTogether(items: TransactItem[]): Promise<void> {
  if (items.length === 0) return;
  await ddb().send(new TransactWriteCommand({ TransactItems: items }));
}

export function cancellationCodes(err: unknown): (string | undefined)[] {
  if ((err as { name?: string })?.name !== 'TransactionCanceledException') return [];
  return ((err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).map((r) => r.Code);
}

/** Thrown when an item a caller added to a transaction failed its condition. */
export class TransactionConditionError extends Error {
  constructor(readonly failedIndexes: number[]) {
    super(`Transaction condition failed at ${failedIndexes.join(',')}`);
  }
}
