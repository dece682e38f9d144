/**
 * Where each community lives on its platform: the activation-token pointer, chat and guild bindings,
 * and the community's platform record (chat, alert chat, guild, audit-log cursor, last AutoMod sync).
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { sha256Hex } from '#shared/ids';
import { ddb, isConditionFailure, table, writeIfCondition } from './client';
import { AUTOMOD_SYNC_DUE_PARTITION, activationTokenKey, automodSyncDueIndexKey, automodSyncDueUpTo, crispWebsiteKey, discordGuildKey, moderationPlatformKey, telegramChatKey } from './keys';
import { queryDueShards } from './query';
import type { TransactItem } from './transactions';
import { buildUpdate, setOrRemove } from './update';
import { defineEntity } from './entity';

export interface CommunityPointer {
  userId: string;
  communityId: string;
}

export interface PlatformRecord {
  telegramChatId?: string;
  telegramAlertChatId?: string;
  discordGuildId?: string;
  discordAlertChannelId?: string;
  /** The newest Discord audit-log entry already read by POST /sync (snowflakes sort by time). */
  discordAuditCursor?: string;
  automodSyncedAt?: string;
  automodError?: string | null;
  /** Our AutoMod rule ids in the guild, by our rule name. */
  automodRuleIds?: Record<string, string>;
  /** When a sync of the AutoMod rules was last asked for, and by whose community (the sweep's message names them). */
  automodWantedAt?: string;
  automodOwner?: string;
  /** The Crisp website an operator's /activate bound. */
  crispWebsiteId?: string;
}

const platformRecords = defineEntity<PlatformRecord>('moderationPlatform');

export const putActivationPointer = (token: string, pointer: CommunityPointer): TransactItem => ({
  Put: { TableName: table(), Item: { ...activationTokenKey(sha256Hex(token)), entity: 'activationPointer', ...pointer } },
});

export async function writeActivationPointer(token: string, pointer: CommunityPointer): Promise<void> {
  await ddb().send(new PutCommand(putActivationPointer(token, pointer).Put!));
}

export async function communityByActivationToken(token: string): Promise<CommunityPointer | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: activationTokenKey(sha256Hex(token)) }));
  return Item ? { userId: Item.userId as string, communityId: Item.communityId as string } : undefined;
}

type BoundPlatform = 'telegram' | 'discord' | 'crisp';
const BINDING_KEYS: Record<BoundPlatform, (externalId: string) => { pk: string; sk: string }> = { telegram: telegramChatKey, discord: discordGuildKey, crisp: crispWebsiteKey };
const bindingKey = (platform: BoundPlatform, externalId: string) => BINDING_KEYS[platform](externalId);

/** A chat or guild belongs to one community at a time; binding it again moves it (the newest activation wins). */
export async function bindExternal(platform: BoundPlatform, externalId: string, pointer: CommunityPointer & { role: 'moderated' | 'alerts' }): Promise<void> {
  await ddb().send(new PutCommand({ TableName: table(), Item: { ...bindingKey(platform, externalId), entity: 'platformBinding', platform, externalId, ...pointer } }));
}

/** Binds it unless another community holds it: true when it is (now or already) this community's. */
export async function bindExternalOnce(platform: BoundPlatform, externalId: string, pointer: CommunityPointer & { role: 'moderated' | 'alerts' }): Promise<boolean> {
  return writeIfCondition(() =>
    ddb().send(
      new PutCommand({
        TableName: table(),
        Item: { ...bindingKey(platform, externalId), entity: 'platformBinding', platform, externalId, ...pointer },
        ConditionExpression: 'attribute_not_exists(pk) OR communityId = :c',
        ExpressionAttributeValues: { ':c': pointer.communityId },
      }),
    ),
  );
}

export async function boundCommunity(platform: BoundPlatform, externalId: string): Promise<(CommunityPointer & { role: 'moderated' | 'alerts' }) | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: bindingKey(platform, externalId) }));
  return Item ? { userId: Item.userId as string, communityId: Item.communityId as string, role: Item.role as 'moderated' | 'alerts' } : undefined;
}

export async function unbindExternal(platform: BoundPlatform, externalId: string): Promise<void> {
  await ddb().send(new DeleteCommand({ TableName: table(), Key: bindingKey(platform, externalId) }));
}

export async function getPlatformRecord(communityId: string): Promise<PlatformRecord> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: moderationPlatformKey(communityId), ConsistentRead: true }));
  return Item ? platformRecords.fromItem(Item) : {};
}

/** SETs the given fields (null removes), creating the record on first use. */
export async function updatePlatformRecord(communityId: string, fields: Partial<Record<keyof PlatformRecord, unknown>>): Promise<void> {
  const { set, remove } = setOrRemove(fields);
  await ddb().send(
    new UpdateCommand({ TableName: table(), Key: moderationPlatformKey(communityId), ...buildUpdate({ set: { entity: 'moderationPlatform', ...set }, remove }) }),
  );
}

/** Moves the audit-log cursor forward only (two overlapping syncs never move it back). */
export async function advanceAuditCursor(communityId: string, cursor: string): Promise<void> {
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: moderationPlatformKey(communityId),
        ...buildUpdate({
          set: { discordAuditCursor: cursor },
          // Snowflakes of equal length compare as strings; a longer one is newer.
          condition: {
            expression: 'attribute_not_exists(discordAuditCursor) OR size(discordAuditCursor) < :len OR (size(discordAuditCursor) = :len AND discordAuditCursor < :c)',
            values: { ':c': cursor, ':len': cursor.length },
          },
        }),
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}

// ---- AutoMod syncs whose queue message may have been lost ----------------------------------------

/** Records that the community's AutoMod rules are to be written, and when the request counts as lost (`dueAt`). */
export async function wantAutomodSync(communityId: string, owner: string, at: string, dueAt: string): Promise<void> {
  await updatePlatformRecord(communityId, { automodWantedAt: at, automodOwner: owner, ...automodSyncDueIndexKey(communityId, dueAt) } as Partial<Record<keyof PlatformRecord, unknown>>);
}

/**
 * Records a finished sync. It leaves the due index only when no sync was asked for after it began
 * (`startedAt`): a request made meanwhile stays due, so its rules are written too.
 */
export async function recordAutomodSync(communityId: string, startedAt: string, fields: { automodSyncedAt?: string; automodError?: string | null }): Promise<void> {
  const { set, remove } = setOrRemove(fields);
  const update = (leaveIndex: boolean) =>
    ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: moderationPlatformKey(communityId),
        ...buildUpdate({
          set: { entity: 'moderationPlatform', ...set },
          remove: leaveIndex ? [...remove, 'gsi3pk', 'gsi3sk'] : remove,
          ...(leaveIndex ? { condition: { expression: 'attribute_not_exists(automodWantedAt) OR automodWantedAt <= :started', values: { ':started': startedAt } } } : {}),
        }),
      }),
    );
  if (!(await writeIfCondition(() => update(true)))) await update(false);
}

export interface DueAutomodSync {
  communityId: string;
  owner: string;
  dueKey: string;
}

export async function listDueAutomodSyncs(atIso: string): Promise<DueAutomodSync[]> {
  const items = await queryDueShards(1, () => AUTOMOD_SYNC_DUE_PARTITION, automodSyncDueUpTo(atIso));
  return items.map((item) => ({ communityId: (item.gsi3sk as string).split('#')[1], owner: item.automodOwner as string, dueKey: item.gsi3sk as string }));
}

/** Moves a due sync to `dueAt` if it is still where it was seen: false when another sweep (or the sync) moved it first. */
export async function claimAutomodSync(communityId: string, seenKey: string, dueAt: string): Promise<boolean> {
  return writeIfCondition(() =>
    ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: moderationPlatformKey(communityId),
        ...buildUpdate({ set: { ...automodSyncDueIndexKey(communityId, dueAt) }, condition: { expression: 'gsi3sk = :seen', values: { ':seen': seenKey } } }),
      }),
    ),
  );
}
