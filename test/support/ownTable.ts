import { inject } from 'vitest';
import { ensureTable } from '#bin/local/dynamo';
import { useLocalTable } from '#bin/local/runtime';
import { seedCuratedDataset } from '#bin/curated/seed';
import { uuidv7 } from '#shared/ids';

/**
 * Points this test file at a table of its own in the shared DynamoDB Local, with a small curated
 * dataset. For suites that run the scheduled sweeps: those act on every item of the table that is
 * due or stalled, so on the shared table they would touch other files' jobs and runs (and theirs, ours).
 */
export async function useOwnTable(prefix: string): Promise<string> {
  const tableName = `${prefix}-${uuidv7()}`;
  await ensureTable(inject('dynamoEndpoint'), tableName);
  useLocalTable(inject('dynamoEndpoint'), tableName);
  await seedCuratedDataset({ scale: 0.01, concurrency: 8 });
  return tableName;
}
