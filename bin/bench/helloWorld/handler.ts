import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';

/**
 * The yardstick of the `bundles` bench suite and test/infra/bundles.test.ts: the smallest useful
 * Lambda, which sends one DynamoDB GetItem. Every function's bundle size and load time is a ratio to
 * this one's, built with the same options (infra/bundling.ts).
 */
const client = new DynamoDBClient({});

export const handler = async (event: { id: string }) =>
  client.send(
    new GetItemCommand({ TableName: process.env.TABLE_NAME, Key: { pk: { S: event.id }, sk: { S: 'PROFILE' } } }),
  );
