/**
 * Spam confirmed across the deployment: near-duplicate fingerprints of messages, and platform accounts
 * banned for spam, each with the owners (accounts) whose communities confirmed it. Only agreement
 * between different owners makes either count (detectorContext.ts), so one account, however many
 * communities it has, cannot make it count.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { getMany } from './batch';
import { ddb, table, writeIfCondition } from './client';
import { sharedSpamKey, sharedSpammerKey, type Key } from './keys';

/** A confirmation is remembered for 90 days: campaigns change, and a mistaken one fades. */
const TTL_SECONDS = 90 * 24 * 60 * 60;
/** Owners kept per item: enough to tell agreement, bounded so the item stays small. */
const MAX_OWNERS = 5;

async function confirm(key: Key, entity: string, ownerId: string, nowMs: number): Promise<void> {
  await writeIfCondition(() =>
    ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: key,
        UpdateExpression: 'ADD owners :owner SET entity = :entity, #ttl = :ttl',
        ConditionExpression: 'attribute_not_exists(owners) OR size(owners) < :max OR contains(owners, :id)',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: {
          ':owner': new Set([ownerId]),
          ':id': ownerId,
          ':entity': entity,
          ':max': MAX_OWNERS,
          ':ttl': Math.floor(nowMs / 1000) + TTL_SECONDS,
        },
      }),
    ),
  );
}

async function withdraw(key: Key, ownerId: string): Promise<void> {
  await writeIfCondition(() =>
    ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: key,
        UpdateExpression: 'DELETE owners :owner',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':owner': new Set([ownerId]) },
      }),
    ),
  );
}

/** The owners of each item that exists, by the id it was asked under. */
async function ownersOf(ids: string[], keyOf: (id: string) => Key): Promise<Map<string, Set<string>>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const byPk = new Map(unique.map((id) => [keyOf(id).pk, id]));
  const items = await getMany(unique.map(keyOf), { consistent: false });
  return new Map(
    items.map((item) => [
      byPk.get(item.pk as string) as string,
      new Set((item.owners as Set<string> | undefined) ?? []),
    ]),
  );
}

export const confirmSharedSpam = (fingerprint: string, ownerId: string, nowMs: number) =>
  confirm(sharedSpamKey(fingerprint), 'sharedSpam', ownerId, nowMs);

export const sharedSpamOwners = (fingerprints: string[]) => ownersOf(fingerprints, sharedSpamKey);

export const confirmSpammer = (platform: string, accountId: string, ownerId: string, nowMs: number) =>
  confirm(sharedSpammerKey(platform, accountId), 'sharedSpammer', ownerId, nowMs);

/** An undone ban: the owner no longer confirms the account as a spammer. */
export const withdrawSpammer = (platform: string, accountId: string, ownerId: string) =>
  withdraw(sharedSpammerKey(platform, accountId), ownerId);

export const spammerOwners = (platform: string, accountIds: string[]) =>
  ownersOf(accountIds, (id) => sharedSpammerKey(platform, id));
