/**
 * Intelligence results as stored: the stored result (the one GET /results/{result_id} reads,
 * shared/store/resultsRepo.ts) carries the records; the intelligence record carries the request and
 * the ranking's progress. Both share the result id.
 */
import { NotFoundError } from '#shared/domain/errors';
import { resultDataFrom, resultDataReads } from '#shared/domain/storage/results';
import { intelligenceResultRead, type IntelligenceResultRecord } from '#shared/store/intelligenceRepo';
import { readTogether } from '#shared/store/batch';
import type { ResultRecord } from '#shared/store/resultsRepo';
import type { IntelRecord } from './expansions';
import type { PackageId } from './packages';

export const EXPANSION_TOOL_NAME = 'intelligence_result';

export interface StoredIntelData {
  result_id: string;
  package_id: PackageId;
  summary: string;
  records_count: number;
  records: IntelRecord[];
  created_at: string;
  filled_slots?: Record<string, unknown>;
  output_fields?: string[];
  parent_result_id?: string;
  expansion_type?: string;
  credits_charged?: number;
}

export interface LoadedResult {
  intel: IntelligenceResultRecord;
  data: StoredIntelData;
  chatId: string | null;
}

/**
 * One of the caller's intelligence results, or 404 (another user's result is not found either): the
 * intelligence record, the stored result and its data's first chunk in one BatchGetItem (a data larger
 * than one chunk reads the rest with one Query).
 */
export async function loadIntelResult(userId: string, resultId: string): Promise<LoadedResult> {
  return intelResultFrom(userId, resultId, await readTogether(intelResultReads(userId, resultId)));
}

/** What loadIntelResult reads, for a readTogether with the caller's other items (then intelResultFrom). */
export const intelResultReads = (userId: string, resultId: string) =>
  [intelligenceResultRead(userId, resultId), ...resultDataReads(userId, resultId)] as const;

/** loadIntelResult's answer (or 404) from what intelResultReads read. */
export async function intelResultFrom(
  userId: string,
  resultId: string,
  [intel, record, firstChunk]: readonly [
    IntelligenceResultRecord | undefined,
    ResultRecord | undefined,
    Record<string, unknown> | undefined,
  ],
): Promise<LoadedResult> {
  const stored = await resultDataFrom<StoredIntelData>(userId, resultId, record, firstChunk);
  if (!intel || !stored) throw new NotFoundError('Intelligence result');
  return { intel, data: stored.data, chatId: stored.record.chatId };
}
