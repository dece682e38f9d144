import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { config, requiredSetting } from '#shared/config/config';

let documentClient: DynamoDBDocumentClient | undefined;
let requestCount = 0;
let countingCapacity = false;
const capacity = { read: 0, write: 0 };

/**
 * For the bench's cost table: from now on every request asks for its consumed capacity, summed
 * here by kind (read or write request units, as on-demand bills them). Off in the service.
 */
export function countCapacity(): void {
  countingCapacity = true;
}

export function consumedCapacity(): { read: number; write: number } {
  return { ...capacity };
}

/** One client per process (module scope), so Lambda reuses its connections across invocations. */
export function ddb(): DynamoDBDocumentClient {
  if (!documentClient) {
    const { dynamoEndpoint: endpoint, region } = config();
    const client = new DynamoDBClient({
      ...(endpoint
        ? {
            endpoint,
            region,
            credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
          }
        : {}),
      maxAttempts: 5,
    });
    // Counts every request sent, so the benchmark can report DynamoDB requests per API request.
    client.middlewareStack.add(
      (next, context) => async (args) => {
        requestCount += 1;
        if (!countingCapacity) return next(args);
        (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
        const result = await next(args);
        const consumed = (
          result.output as { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] }
        ).ConsumedCapacity;
        const units = [consumed ?? []].flat().reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
        if (/^(Get|BatchGet|Query|Scan|TransactGet)/.test(context.commandName ?? '')) capacity.read += units;
        else capacity.write += units;
        return result;
      },
      { step: 'initialize', name: 'countRequests' },
    );
    documentClient = DynamoDBDocumentClient.from(client, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    });
  }
  return documentClient;
}

export const table = (): string => requiredSetting('TABLE_NAME');

/** True when the table lives in DynamoDB Local (an endpoint is configured) rather than in AWS. */
export const isLocalDatabase = (): boolean => config().dynamoEndpoint !== undefined;

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

/**
 * Runs a conditional update and answers the item as the update left it, or undefined when its
 * condition failed (the item is missing or has moved on, which the caller treats as an answer, not an
 * error); anything else is rethrown.
 */
export async function updateIf(
  input: Omit<UpdateCommandInput, 'ReturnValues'>,
): Promise<Record<string, unknown> | undefined> {
  try {
    const { Attributes } = await ddb().send(new UpdateCommand({ ...input, ReturnValues: 'ALL_NEW' }));
    return Attributes;
  } catch (err) {
    if (isConditionFailure(err)) return undefined;
    throw err;
  }
}
