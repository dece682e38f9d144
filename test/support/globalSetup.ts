import type { TestProject } from 'vitest/node';
import { ensureTable, startDynamo } from '#bin/local/dynamo';
import { useLocalTable } from '#bin/local/runtime';
import { seedCuratedDataset } from '#bin/curated/seed';
import { seedPhishingList } from '#shared/domain/moderation/phishingListRefresh';

export const TEST_TABLE = 'outreach-test';
export const TEST_DATASET_SCALE = 0.05;

/** One in-memory DynamoDB Local for the whole run; every suite talks to it for real. */
export default async function setup(project: TestProject) {
  const dynamo = await startDynamo();
  await ensureTable(dynamo.endpoint, TEST_TABLE);
  // A twentieth of the curated dataset (fixed rows included; see bin/curated/fixtures.ts): enough to rank, quick to load.
  useLocalTable(dynamo.endpoint, TEST_TABLE);
  await seedCuratedDataset({ scale: TEST_DATASET_SCALE, concurrency: 16 });
  // The package's copy of the phishing list, as the local server writes it on a first start.
  await seedPhishingList();
  project.provide('dynamoEndpoint', dynamo.endpoint);
  project.provide('tableName', TEST_TABLE);
  return async () => {
    await dynamo.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    tableName: string;
  }
}
