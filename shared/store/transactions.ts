import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { ddb } from './client';

/** One item of a write transaction, built by a repository and passed through domain code untouched. */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * The items of one write transaction, each under a name its caller knows it by: a failed condition is
 * reported by name, so no caller depends on where an item sits in the transaction. A name may carry
 * several items (a result and its data chunk, a batch of audit entries): any of them failing names it.
 * Undefined entries are left out, so an optional item can be written `low: event?.item`.
 */
export type TransactItems = Readonly<Record<string, TransactItem | readonly TransactItem[] | undefined>>;

/**
 * A transaction DynamoDB cancelled because the condition of one or more of its items failed. `failed`
 * holds the names of those items; `conflicted` says another transaction was also writing one of the
 * items at that moment (DynamoDB's TransactionConflict), so trying again may succeed.
 */
export class TransactionConditionError extends Error {
  override readonly name = 'TransactionConditionError';
  readonly failed: ReadonlySet<string>;

  constructor(
    failed: Iterable<string>,
    readonly conflicted = false,
    options?: ErrorOptions,
  ) {
    const names = new Set(failed);
    super(`Transaction condition failed on ${[...names].join(', ') || 'no named item'}`, options);
    this.failed = names;
  }

  /** The named items of `items` (a group of a larger transaction) whose condition failed. */
  failedAmong(items: TransactItems): string[] {
    return Object.keys(items).filter((name) => this.failed.has(name));
  }
}

/**
 * Writes the named items of every group in one transaction. Names must be unique across the groups.
 * A cancellation on a failed condition is thrown as a TransactionConditionError naming the items; any
 * other failure (a cancellation only for a conflict, throttling, validation) is thrown as it came.
 */
export async function writeTogether(...groups: TransactItems[]): Promise<void> {
  const names: string[] = [];
  const items: TransactItem[] = [];
  const seen = new Set<string>();
  for (const group of groups) {
    for (const [name, entry] of Object.entries(group)) {
      if (entry === undefined) continue;
      if (seen.has(name)) throw new Error(`Two items of one transaction are named ${name}`);
      seen.add(name);
      for (const item of Array.isArray(entry) ? entry : [entry as TransactItem]) {
        names.push(name);
        items.push(item);
      }
    }
  }
  if (items.length === 0) return;
  try {
    await ddb().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (err) {
    const codes = cancellationCodes(err);
    const failed = names.filter((_, i) => codes[i] === 'ConditionalCheckFailed');
    if (failed.length > 0)
      throw new TransactionConditionError(failed, codes.includes('TransactionConflict'), { cause: err });
    throw err;
  }
}

/** True when a transaction was cancelled because another one was writing the same items: worth retrying. */
export function isTransactionConflict(err: unknown): boolean {
  if (err instanceof TransactionConditionError) return err.conflicted;
  return cancellationCodes(err).includes('TransactionConflict');
}

/** The default pause before attempt `n + 1` of a write that met a conflict: short and jittered. */
const conflictPause = (attempt: number) => 5 + Math.random() * Math.min(10 * 2 ** attempt, 200);

/**
 * Runs `write` again, after a pause, while it fails only because another transaction was writing the
 * same items (DynamoDB cancels both sides of such a race; the SDK does not retry it). Any other
 * failure, a failed condition included (even one reported with a conflict), is the caller's at once.
 */
export async function retryingConflicts<T>(
  write: () => Promise<T>,
  options: { attempts?: number; pauseMs?: (attempt: number) => number } = {},
): Promise<T> {
  const { attempts = 10, pauseMs = conflictPause } = options;
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if (err instanceof TransactionConditionError || !isTransactionConflict(err) || attempt >= attempts) throw err;
      await new Promise((r) => setTimeout(r, pauseMs(attempt)));
    }
  }
}

/** True for any cancelled transaction, whatever the reason (a failed condition, a conflict, throttling). */
export function isCancelledTransaction(err: unknown): boolean {
  return (
    err instanceof TransactionConditionError || (err as { name?: string })?.name === 'TransactionCanceledException'
  );
}

/** DynamoDB's reason per item of a cancelled transaction, in the order the items were sent. */
function cancellationCodes(err: unknown): (string | undefined)[] {
  if ((err as { name?: string })?.name !== 'TransactionCanceledException') return [];
  return ((err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).map((r) => r.Code);
}
