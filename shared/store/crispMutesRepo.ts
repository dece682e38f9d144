/**
 * Crisp conversations blocked by a mute, until the mute ends: Crisp's block has no end of its own,
 * and a queue delay stops at 15 minutes, so the end is an item in the sparse due index that the
 * minute sweep reads.
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table, writeIfCondition } from './client';
import { CRISP_MUTE_SHARDS, crispMuteDueIndexKey, crispMuteDuePartition, crispMuteDueUpTo, crispMuteKey } from './keys';
import { queryDueShards } from './query';
import { defineEntity } from './entity';

export interface CrispMute {
  communityId: string;
  websiteId: string;
  sessionId: string;
  endsAt: string;
}

const mutes = defineEntity<CrispMute>()({
  name: 'crispMute',
  key: (m: Pick<CrispMute, 'communityId' | 'sessionId'>) => crispMuteKey(m.communityId, m.sessionId),
});

/** A later mute of a conversation already muted moves its end later, never earlier. */
export async function putCrispMute(m: CrispMute): Promise<boolean> {
  return writeIfCondition(() =>
    ddb().send(
      new PutCommand({
        TableName: table(),
        Item: mutes.item(m, crispMuteDueIndexKey(m.communityId, m.sessionId, m.endsAt)),
        ConditionExpression: 'attribute_not_exists(pk) OR endsAt < :endsAt',
        ExpressionAttributeValues: { ':endsAt': m.endsAt },
      }),
    ),
  );
}

/** A ban (blocked for good) or an unblock: nothing is left to lift. */
export async function dropCrispMute(communityId: string, sessionId: string): Promise<void> {
  await ddb().send(new DeleteCommand({ TableName: table(), Key: mutes.key({ communityId, sessionId }) }));
}

export async function listEndedCrispMutes(atIso: string): Promise<CrispMute[]> {
  return (await queryDueShards(CRISP_MUTE_SHARDS, crispMuteDuePartition, crispMuteDueUpTo(atIso))).map(mutes.fromItem);
}

/** Removes the mute if it still ends when it was seen to: false when a later mute or another sweep moved it first. */
export async function takeEndedCrispMute(m: CrispMute): Promise<boolean> {
  return writeIfCondition(() =>
    ddb().send(
      new DeleteCommand({
        TableName: table(),
        Key: mutes.key(m),
        ConditionExpression: 'endsAt = :seen',
        ExpressionAttributeValues: { ':seen': m.endsAt },
      }),
    ),
  );
}
