import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from '#shared/store/client';
import { communityKey } from '#shared/store/keys';

/**
 * Writes fields of a community's record straight into the table, for states the API does not leave
 * behind any more but older data may hold (a type changed while a platform binding stayed, a
 * community connected on its new platform).
 */
export async function setCommunityFields(
  userId: string,
  communityId: string,
  fields: Record<string, unknown>,
): Promise<void> {
  const entries = Object.entries(fields);
  await ddb().send(
    new UpdateCommand({
      TableName: table(),
      Key: communityKey(userId, communityId),
      UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
    }),
  );
}
