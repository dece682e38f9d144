import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { optionalEnv, tableName } from '#shared/config/env';

let documentClient: DynamoDBDocumentClient | undefined;
let requestCount = 0;

/** One client per process (module scope), so Lambda reuses its connections across invocations. */
export function ddb(): DynamoDBDocumentClient {
  if (!documentClient) {
    const endpoint = optionalEnv('DYNAMODB_ENDPOINT');
    const client = new DynamoDBClient({
      ...(endpoint
        ? { endpoint, region: optionalEnv('AWS_REGION') ?? 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : {}),
      maxAttempts: 5,
    });
    // Counts every request sent, so the benchmark can report DynamoDB requests per API request.
    client.middlewareStack.add(
      (next) => async (args) => {
        requestCount += 1;
        return next(args);
      },
      { step: 'initialize', name: 'countRequests' },
    );
    documentClient = DynamoDBDocumentClient.from(client, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    });
  }
  return documentClient;
}

export const table = (): string => tableName();

/** True when the table lives in DynamoDB Local (an endpoint is configured) rather than in AWS. */
export const isLocalDatabase = (): boolean => optionalEnv('DYNAMODB_ENDPOINT') !== undefined;

export function dynamoRequestCount(): number {
  return requestCount;
}

/**
 * True when a conditional write or a transaction failed on one of its conditions (not on throttling or
 * a conflict). Transactions all go through writeTogether (transactions.ts), which reports a failed
 * condition as a TransactionConditionError (matched by name here, so this module does not import it).
 */
export function isConditionFailure(err: unknown): boolean {
  const name = (err as { name?: string })?.name;
  return name === 'ConditionalCheckFailedException' || name === 'TransactionConditionError';
}

/**
 * Runs a conditional write: true when it was applied, false when its condition failed (the item had
 * moved on, which the caller treats as an answer, not an error); anything else is rethrown.
 */
export async function writeIfCondition(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}
