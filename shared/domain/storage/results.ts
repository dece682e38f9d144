import { NotFoundError } from '#shared/domain/errors';
import { now } from '#shared/adapters/ports';
import { uuidv7 } from '#shared/ids';
import { firstChunkRead, prepareBlob, readBlobFrom, writeBlob } from '#shared/store/blobs';
import { getChat } from '#shared/store/chatsRepo';
import { resultKey } from '#shared/store/keys';
import { listResultRecords, putResultItem, resultRecordRead, type ResultRecord } from '#shared/store/resultsRepo';
import { readTogether, type ItemRead } from '#shared/store/batch';
import { writeTogether, type TransactItem } from '#shared/store/transactions';

/** A result's writes for its caller's transaction: the record and, when the data fits one chunk, the data. */
export type ResultWrites = { result: TransactItem; resultData?: TransactItem };

export interface NewResult {
  userId: string;
  toolName: string;
  resultData: unknown;
  metadata?: Record<string, unknown>;
  chatId?: string | null;
  /** Defaults to a new UUID v7; intelligence results reuse their result_id. */
  resultId?: string;
}

/**
 * Writes the result's data (invisible until its record exists) and returns the record's write, for
 * callers that must write it in the same transaction as a charge.
 */
export async function prepareResult(
  input: NewResult,
): Promise<{ resultId: string; item: TransactItem; record: ResultRecord }> {
  const at = now();
  const resultId = input.resultId ?? uuidv7(at.getTime());
  const blob = await writeBlob(resultKey(input.userId, resultId).pk, resultBlobId(resultId), input.resultData);
  const record = resultRecord(input, resultId, blob, at);
  return { resultId, item: putResultItem(record), record };
}

const resultBlobId = (resultId: string) => `result-${resultId}`;

/**
 * Like prepareResult, with the data's write too when it fits one chunk: `writes` all go into the
 * caller's transaction, so storing the result costs no request of its own.
 */
export async function prepareResultWrites(
  input: NewResult,
): Promise<{ resultId: string; writes: ResultWrites; record: ResultRecord }> {
  const at = now();
  const resultId = input.resultId ?? uuidv7(at.getTime());
  const blob = await prepareBlob(resultKey(input.userId, resultId).pk, resultBlobId(resultId), input.resultData);
  const record = resultRecord(input, resultId, blob.ref, at);
  return { resultId, writes: { result: putResultItem(record), resultData: blob.item }, record };
}

function resultRecord(input: NewResult, resultId: string, blob: ResultRecord['blob'], at: Date): ResultRecord {
  return {
    id: resultId,
    userId: input.userId,
    chatId: input.chatId ?? null,
    toolName: input.toolName,
    metadata: input.metadata ?? {},
    storageFormat: 'json',
    fileSize: blob.size,
    createdAt: at.toISOString(),
    blob,
  };
}

/** Stores a tool result; every area saves its results through here. */
export async function saveResult(input: NewResult): Promise<ResultRecord> {
  const prepared = await prepareResult(input);
  await writeTogether({ result: prepared.item });
  return prepared.record;
}

async function chatTitles(userId: string, chatIds: (string | null)[]): Promise<Map<string, string | null>> {
  const unique = [...new Set(chatIds.filter((id): id is string => id !== null))];
  const titles = await Promise.all(unique.map(async (id) => [id, (await getChat(userId, id))?.title ?? null] as const));
  return new Map(titles);
}

const listItem = (r: ResultRecord, titles: Map<string, string | null>) => ({
  id: r.id,
  user_id: r.userId,
  chat_id: r.chatId,
  chat_title: r.chatId ? (titles.get(r.chatId) ?? null) : null,
  tool_name: r.toolName,
  metadata: r.metadata,
  storage_format: r.storageFormat,
  file_size: r.fileSize,
  created_at: r.createdAt,
});

export async function readResult(userId: string, resultId: string) {
  const stored = await readResultData<unknown>(userId, resultId);
  if (!stored) throw new NotFoundError('Result');
  const titles = await chatTitles(userId, [stored.record.chatId]);
  return { ...listItem(stored.record, titles), result_data: stored.data };
}

/** The stored data of one of the caller's results, for areas that build on an earlier result. */
export async function readResultData<T>(
  userId: string,
  resultId: string,
): Promise<{ record: ResultRecord; data: T } | undefined> {
  // The record and its data's first chunk in one BatchGetItem (the blob id follows from the result id).
  const [record, firstChunk] = await readTogether(resultDataReads(userId, resultId));
  return resultDataFrom<T>(userId, resultId, record, firstChunk);
}

/** What readResultData reads, for a readTogether with the caller's other items (then resultDataFrom). */
export const resultDataReads = (
  userId: string,
  resultId: string,
): [ItemRead<ResultRecord | undefined>, ItemRead<Record<string, unknown> | undefined>] => [
  resultRecordRead(userId, resultId),
  firstChunkRead(resultKey(userId, resultId).pk, resultBlobId(resultId)),
];

/** readResultData's answer from what resultDataReads read (a data larger than one chunk is read now). */
export async function resultDataFrom<T>(
  userId: string,
  resultId: string,
  record: ResultRecord | undefined,
  firstChunk: Record<string, unknown> | undefined,
): Promise<{ record: ResultRecord; data: T } | undefined> {
  if (!record) return undefined;
  return { record, data: await readBlobFrom<T>(resultKey(userId, resultId).pk, record.blob, firstChunk) };
}

export async function pageResults(
  userId: string,
  q: {
    sort_by: 'created_at' | 'file_size';
    sort_order: 'asc' | 'desc';
    limit: number;
    offset: number;
    tool_name?: string;
    chat_id?: string;
  },
) {
  const records = await listResultRecords(userId, { toolName: q.tool_name, chatId: q.chat_id });
  const sign = q.sort_order === 'asc' ? 1 : -1;
  records.sort((a, b) =>
    q.sort_by === 'file_size'
      ? sign * (a.fileSize - b.fileSize) || sign * a.id.localeCompare(b.id)
      : sign * a.id.localeCompare(b.id),
  );
  const page = records.slice(q.offset, q.offset + q.limit);
  const titles = await chatTitles(
    userId,
    page.map((r) => r.chatId),
  );
  return { items: page.map((r) => listItem(r, titles)), total: records.length, limit: q.limit, offset: q.offset };
}
