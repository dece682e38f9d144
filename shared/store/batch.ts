import { BatchGetCommand, BatchWriteCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isLocalDatabase, table } from './client';
import { retryingConflicts } from './transactions';

type Key = { pk: string; sk: string };
type WriteRequest = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Key } };

const MAX_ATTEMPTS = 10;

const backoffMs = (attempt: number) => 20 * 2 ** attempt;
const backoff = (attempt: number) => new Promise((r) => setTimeout(r, backoffMs(attempt)));

/** Writes groups with up to `concurrency` calls in flight, reporting the items written so far after each group. */
async function writeGroups<T>(
  groups: T[][],
  concurrency: number,
  write: (group: T[]) => Promise<void>,
  onProgress?: (done: number) => void,
): Promise<void> {
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < groups.length) {
      const group = groups[next++];
      await write(group);
      done += group.length;
      onProgress?.(done);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, groups.length)) }, worker));
}

export interface BatchOptions {
  /** Requests per BatchWriteItem call: 25 at most; fewer for large items (the call carries 16 MB at most). */
  groupSize?: number;
  /** Calls in flight at once. */
  concurrency?: number;
  onProgress?: (done: number) => void;
}

/**
 * Writes many puts and deletes with BatchWriteItem, retrying whatever DynamoDB leaves unprocessed with
 * exponential backoff, so a throttled table slows a bulk write down instead of losing part of it.
 */
export async function batchWrite(requests: WriteRequest[], options: BatchOptions = {}): Promise<void> {
  const size = Math.min(options.groupSize ?? 25, 25);
  const groups: WriteRequest[][] = [];
  for (let i = 0; i < requests.length; i += size) groups.push(requests.slice(i, i + size));
  await writeGroups(
    groups,
    options.concurrency ?? 1,
    async (group) => {
      let pending = group;
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt >= MAX_ATTEMPTS)
          throw new Error(`${pending.length} writes stayed unprocessed after ${MAX_ATTEMPTS} attempts`);
        const out = await ddb().send(new BatchWriteCommand({ RequestItems: { [table()]: pending } }));
        pending = (out.UnprocessedItems?.[table()] ?? []) as WriteRequest[];
        if (pending.length) await backoff(attempt);
      }
    },
    options.onProgress,
  );
}

export const putAll = (items: Record<string, unknown>[], options?: BatchOptions) =>
  batchWrite(
    items.map((Item) => ({ PutRequest: { Item } })),
    options,
  );

/** What one TransactWriteItems may carry: 100 items and 4 MB (kept under, as sizes here are estimates). */
const TRANSACTION_ITEMS = 100;
const TRANSACTION_BYTES = 3_500_000;

/**
 * Items in groups that each fit one TransactWriteItems. A transaction may touch an item once, so an
 * item put twice is put once, as its later version (what the two puts in order would have left).
 */
function transactionGroups(items: Record<string, unknown>[]): Record<string, unknown>[][] {
  const latest = new Map<string, Record<string, unknown>>();
  for (const item of items) latest.set(`${item.pk as string}\u0000${item.sk as string}`, item);
  const groups: Record<string, unknown>[][] = [];
  let group: Record<string, unknown>[] = [];
  let bytes = 0;
  for (const item of latest.values()) {
    // DynamoDB counts UTF-8 bytes: a string's length undercounts any text beyond ASCII (up to 3x).
    const size = Buffer.byteLength(JSON.stringify(item));
    if (group.length === TRANSACTION_ITEMS || (group.length > 0 && bytes + size > TRANSACTION_BYTES)) {
      groups.push(group);
      [group, bytes] = [[], 0];
    }
    group.push(item);
    bytes += size;
  }
  if (group.length) groups.push(group);
  return groups;
}

/**
 * Bulk puts (the curated dataset): BatchWriteItem in AWS, where a transactional write would cost twice
 * the capacity; TransactWriteItems of up to 100 items on DynamoDB Local, which commits (and syncs to
 * disk) every item of a BatchWriteItem on its own but a transaction once, so a first start's seed
 * loads about twice as fast there. Either way the puts are plain overwrites, safe to run again.
 */
export async function bulkPut(items: Record<string, unknown>[], options: BatchOptions = {}): Promise<void> {
  if (!isLocalDatabase()) return putAll(items, options);
  // DynamoDB Local applies one write at a time: two requests in flight keep it busy without queueing.
  await writeGroups(
    transactionGroups(items),
    2,
    // Another write to one of these items in flight (an import during the seed) cancels the group: a
    // plain overwrite loses nothing by going again, as BatchWriteItem's would.
    async (group) => {
      const put = () =>
        ddb().send(
          new TransactWriteCommand({ TransactItems: group.map((Item) => ({ Put: { TableName: table(), Item } })) }),
        );
      await retryingConflicts(put, { attempts: MAX_ATTEMPTS, pauseMs: (attempt) => backoffMs(attempt - 1) });
    },
    options.onProgress,
  );
}

export const deleteAll = (keys: Key[], options?: BatchOptions) =>
  batchWrite(
    keys.map((Key) => ({ DeleteRequest: { Key } })),
    options,
  );

/**
 * One item to read with others: its key and how its repository turns the stored item (or its absence)
 * into a value. Repositories build these; domain code passes them to readTogether untouched.
 */
export interface ItemRead<T> {
  key: Key;
  decode: (item: Record<string, unknown> | undefined) => T;
}

/** Several items read with others as one value (a record kept over several items): keys and how to combine them. */
export interface ItemsRead<T> {
  keys: Key[];
  decodeAll: (items: (Record<string, unknown> | undefined)[]) => T;
}

/** What readTogether reads: one item or several, each decoded by its repository. */
export type Read<T> = ItemRead<T> | ItemsRead<T>;

type ReadValues<R extends readonly Read<unknown>[]> = { [I in keyof R]: R[I] extends Read<infer T> ? T : never };

/**
 * Every item that exists at these (distinct) keys, through BatchGetItem: 100 keys a call, the calls in
 * parallel, retrying what DynamoDB leaves unprocessed with exponential backoff.
 */
export async function getMany(
  keys: Key[],
  options: { consistent: boolean; maxAttempts?: number },
): Promise<Record<string, unknown>[]> {
  const maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS;
  const groups: Key[][] = [];
  for (let i = 0; i < keys.length; i += 100) groups.push(keys.slice(i, i + 100));
  const pages = await Promise.all(
    groups.map(async (group) => {
      const items: Record<string, unknown>[] = [];
      let pending: Record<string, unknown>[] = group;
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt >= maxAttempts)
          throw new Error(`${pending.length} reads stayed unprocessed after ${maxAttempts} attempts`);
        const out = await ddb().send(
          new BatchGetCommand({
            RequestItems: { [table()]: { Keys: pending, ...(options.consistent ? { ConsistentRead: true } : {}) } },
          }),
        );
        items.push(...(out.Responses?.[table()] ?? []));
        pending = (out.UnprocessedKeys?.[table()]?.Keys ?? []) as Record<string, unknown>[];
        if (pending.length) await backoff(attempt);
      }
      return items;
    }),
  );
  return pages.flat();
}

/**
 * Reads items of any kinds in one strongly consistent BatchGetItem (100 keys a call), retrying what
 * DynamoDB leaves unprocessed, so a request that needs several of its caller's items pays one round
 * trip instead of one GetItem each. Values come back in the order of `reads`.
 */
export async function readTogether<R extends readonly Read<unknown>[]>(reads: R): Promise<ReadValues<R>> {
  const id = (k: Record<string, unknown>) => `${k.pk as string}\u0000${k.sk as string}`;
  const keysOf = (r: Read<unknown>) => ('keys' in r ? r.keys : [r.key]);
  const unique = new Map<string, Key>();
  for (const r of reads) for (const key of keysOf(r)) unique.set(id(key), { pk: key.pk, sk: key.sk });
  const found = new Map((await getMany([...unique.values()], { consistent: true })).map((item) => [id(item), item]));
  return reads.map((r) =>
    'keys' in r ? r.decodeAll(r.keys.map((key) => found.get(id(key)))) : r.decode(found.get(id(r.key))),
  ) as ReadValues<R>;
}
