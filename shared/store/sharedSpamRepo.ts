/**
 * Spam confirmed across the deployment: a near-duplicate fingerprint of a message and the owners
 * (accounts) whose communities confirmed it as spam. Only agreement between different owners makes
 * it count (sharedSpam.ts), so one account, however many communities it has, cannot make it count.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { getMany } from './batch';
import { ddb, table, writeIfCondition } from './client';
import { sharedSpamKey } from './keys';

/** A confirmation is remembered for 90 days: campaigns change, and a mistaken one fades. */
const TTL_SECONDS = 90 * 24 * 60 * 60;
/** Owners kept per fingerprint: enough to tell agreement, bounded so the item stays small. */
const MAX_OWNERS = 5;

export async function confirmSharedSpam(fingerprint: string, ownerId: string, nowMs: number): Promise<void> {
  await writeIfCondition(() =>
    ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: sharedSpamKey(fingerprint),
        UpdateExpression: 'ADD owners :owner SET entity = :entity, #ttl = :ttl',
        ConditionExpression: 'attribute_not_exists(owners) OR size(owners) < :max OR contains(owners, :id)',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: {
          ':owner': new Set([ownerId]),
          ':id': ownerId,
          ':entity': 'sharedSpam',
          ':max': MAX_OWNERS,
          ':ttl': Math.floor(nowMs / 1000) + TTL_SECONDS,
        },
      }),
    ),
  );
}

/** How many different owners confirmed each of these fingerprints (absent: none). */
export async function sharedSpamOwners(fingerprints: string[]): Promise<Map<string, Set<string>>> {
  const unique = [...new Set(fingerprints)];
  if (!unique.length) return new Map();
  const items = await getMany(unique.map(sharedSpamKey), { consistent: false });
  return new Map(
    items.map((item) => [
      (item.pk as string).slice('SHAREDSPAM#'.length),
      new Set((item.owners as Set<string> | undefined) ?? []),
    ]),
  );
}
