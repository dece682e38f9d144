import type { TestProject } from 'vitest/node';
import { ensureTable, startDynamo } from '../../bin/local/dynamo';

export const TEST_TABLE = 'outreach-test';

/** One in-memory DynamoDB Local for the whole run; every suite talks to it for real. */
export default async function setup(project: TestProject) {
  const dynamo = await startDynamo();
  await ensureTable(dynamo.endpoint, TEST_TABLE);
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
