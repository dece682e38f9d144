/**
 * Crisp conversations the service keeps blocked: Crisp's block has no end and no kind of its own. A
 * mute's block is an item in the sparse due index until it ends (a queue delay stops at 15 minutes),
 * which the minute sweep reads; a ban's is the same item without an end, so that a mute applied out
 * of order (its delivery overtaken by the ban's) never gives it one and the sweep never lifts it.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table, writeIfCondition } from '#shared/store/client';
import {
  CRISP_MUTE_SHARDS,
  crispMuteDueIndexKey,
  crispMuteDuePartition,
  crispMuteDueUpTo,
  crispMuteKey,
} from '#shared/store/keys';
import { queryDueShards } from '#shared/store/query';
import { defineEntity } from '#shared/store/entity';

export interface CrispMute {
  communityId: string;
  websiteId: string;
  sessionId: string;
  endsAt: string;
}

/** The conversation's block as stored: a mute's end, or when it was banned (blocked for good). */
interface CrispBlock {
  communityId: string;
  websiteId: string;
  sessionId: string;
  endsAt: string | null;
  bannedAt: string | null;
}

const blocks = defineEntity<CrispBlock>()({
  name: 'crispMute',
  key: (m: Pick<CrispBlock, 'communityId' | 'sessionId'>) => crispMuteKey(m.communityId, m.sessionId),
  nullable: ['endsAt', 'bannedAt'],
});

/** A later mute of a conversation already muted moves its end later, never earlier; a banned one gets no end. */
export async function putCrispMute(m: CrispMute): Promise<boolean> {
  return writeIfCondition(() =>
    ddb().send(
      new PutCommand({
        TableName: table(),
        Item: blocks.item({ ...m, bannedAt: null }, crispMuteDueIndexKey(m.communityId, m.sessionId, m.endsAt)),
        ConditionExpression: 'attribute_not_exists(pk) OR (attribute_not_exists(bannedAt) AND endsAt < :endsAt)',
        ExpressionAttributeValues: { ':endsAt': m.endsAt },
      }),
    ),
  );
}

/** Blocked for good: a pending mute end is dropped (out of the due index) and none is recorded again. */
export async function putCrispBan(b: Omit<CrispMute, 'endsAt'> & { bannedAt: string }): Promise<void> {
  await ddb().send(new PutCommand({ TableName: table(), Item: blocks.item({ ...b, endsAt: null }) }));
}

export async function crispConversationBanned(communityId: string, sessionId: string): Promise<boolean> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: blocks.key({ communityId, sessionId }), ConsistentRead: true }),
  );
  return (blocks.maybe(Item)?.bannedAt ?? null) !== null;
}

/** Unblocked: nothing is left to lift. `keepBan`: a mute's lift, which leaves a ban applied since in place. */
export async function dropCrispMute(communityId: string, sessionId: string, keepBan = false): Promise<void> {
  const key = blocks.key({ communityId, sessionId });
  if (!keepBan) {
    await ddb().send(new DeleteCommand({ TableName: table(), Key: key }));
    return;
  }
  await writeIfCondition(() =>
    ddb().send(
      new DeleteCommand({ TableName: table(), Key: key, ConditionExpression: 'attribute_not_exists(bannedAt)' }),
    ),
  );
}

export async function listEndedCrispMutes(atIso: string): Promise<CrispMute[]> {
  return (await queryDueShards(CRISP_MUTE_SHARDS, crispMuteDuePartition, crispMuteDueUpTo(atIso)))
    .map(blocks.fromItem)
    .flatMap(({ communityId, websiteId, sessionId, endsAt }) =>
      endsAt === null ? [] : [{ communityId, websiteId, sessionId, endsAt }],
    );
}

/** Removes the mute if it still ends when it was seen to: false when a later mute, a ban or another sweep moved it first. */
export async function takeEndedCrispMute(m: CrispMute): Promise<boolean> {
  return writeIfCondition(() =>
    ddb().send(
      new DeleteCommand({
        TableName: table(),
        Key: blocks.key(m),
        ConditionExpression: 'endsAt = :seen',
        ExpressionAttributeValues: { ':seen': m.endsAt },
      }),
    ),
  );
}
