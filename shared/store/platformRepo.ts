/**
 * The community's platform record: where it lives on its platform (chat, alert chat, guild, bound
 * place), the audit-log cursor and a polled platform's last error. The record's other concerns have
 * modules of their own: Discord's AutoMod syncs (shared/platforms/discord/automodSyncsRepo.ts) and
 * Reddit's activation replies (shared/platforms/reddit/activationRepliesRepo.ts); the activation-token
 * pointers and the bindings of places to communities are activationPointersRepo.ts and bindingsRepo.ts.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table, writeIfCondition } from './client';
import { moderationPlatformKey } from './keys';
import type { TransactItem } from './transactions';
import { setOrRemove } from './update';
import { defineEntity, type IndexAttributes } from './entity';

/** A field of the platform record holding a place's id on the platform. */
export type PlaceField =
  | 'boundId'
  | 'alertId'
  | 'telegramChatId'
  | 'telegramAlertChatId'
  | 'discordGuildId'
  | 'discordAlertChannelId';

export interface PlatformRecord {
  /** The place the community is bound to, on platforms that came after Telegram and Discord (which keep their own fields). */
  boundId?: string;
  /** Where its alerts go on those platforms, when that is a place of its own. */
  alertId?: string;
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
  /**
   * A guild the community left (deleted, or its type changed) whose rules of ours are still to be removed:
   * the binding is gone from this record by then, and a lost request is sent again by the sweep.
   */
  automodLeftGuildId?: string;
  /** A polled platform (X): why the latest poll could not read it (absent once a poll reads again); the status shows it. */
  pollError?: string | null;
  /** The activation message (a Reddit private message's fullname) whose confirmation this community's reply went to. */
  activationReplyTo?: string;
  /** Until when the read that claimed the reply holds it (ms); absent once the reply was sent. */
  activationReplyUntil?: number;
}

/** Created and changed by updates (each sets the entity name): one item per community. */
export const platformRecords = defineEntity<PlatformRecord>()({
  name: 'moderationPlatform',
  key: (p: { communityId: string }) => moderationPlatformKey(p.communityId),
  // advanceAuditCursor may create it without the name.
  createdByUpdate: true,
});
/** The changes of a platform record: null removes a field. */
export type PlatformChanges = { [K in keyof PlatformRecord]?: PlatformRecord[K] | null };

/**
 * One UpdateItem of a community's platform record (a failed condition throws, for writeIfCondition to read);
 * also the write of the modules that keep one concern of the record (Discord's automodSyncsRepo.ts,
 * Reddit's activationRepliesRepo.ts).
 */
export const updatePlatformItem = (communityId: string, spec: Parameters<typeof platformRecords.update>[0]) =>
  ddb().send(
    new UpdateCommand({ TableName: table(), Key: moderationPlatformKey(communityId), ...platformRecords.update(spec) }),
  );

export async function getPlatformRecord(communityId: string): Promise<PlatformRecord> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: moderationPlatformKey(communityId), ConsistentRead: true }),
  );
  return platformRecords.maybe(Item) ?? {};
}

/** SETs the given fields (null removes), creating the record on first use. */
export async function updatePlatformRecord(
  communityId: string,
  fields: PlatformChanges & IndexAttributes,
): Promise<void> {
  const { set, remove } = setOrRemove<PlatformRecord & IndexAttributes>(fields);
  await updatePlatformItem(communityId, { set: { entity: platformRecords.name, ...set }, remove });
}

/**
 * Why a poll of the community could not read its platform, or null once one reads it again. Only on a
 * record that exists (a bound community has one): a poll racing a deletion creates nothing.
 */
export async function setPollError(communityId: string, error: string | null): Promise<void> {
  await writeIfCondition(() =>
    updatePlatformItem(communityId, {
      ...(error === null ? { remove: ['pollError'] } : { set: { pollError: error } }),
      condition: { expression: 'attribute_exists(pk)' },
    }),
  );
}

/**
 * Names `to` in a place field of the record only while the field still names `from` (undefined: none),
 * so that of two bindings of one community at once exactly one replaces each place. False when another
 * write changed the field first.
 */
export async function movePlatformPlace(
  communityId: string,
  field: PlaceField,
  from: string | undefined,
  to: string,
): Promise<boolean> {
  return writeIfCondition(() =>
    updatePlatformItem(communityId, {
      set: { entity: platformRecords.name, [field]: to },
      condition: {
        expression: from === undefined ? 'attribute_not_exists(#place)' : '#place = :from',
        names: { '#place': field },
        ...(from === undefined ? {} : { values: { ':from': from } }),
      },
    }),
  );
}

/**
 * A condition, in a transaction, that a place field of the record still names `value`: a write made
 * for a binding fails once another binding of the community replaced it.
 */
export const platformPlaceIs = (communityId: string, field: PlaceField, value: string): TransactItem => ({
  ConditionCheck: {
    TableName: table(),
    Key: moderationPlatformKey(communityId),
    ConditionExpression: '#place = :value',
    ExpressionAttributeNames: { '#place': field },
    ExpressionAttributeValues: { ':value': value },
  },
});

/** Moves the audit-log cursor forward only (two overlapping syncs never move it back). */
export async function advanceAuditCursor(communityId: string, cursor: string): Promise<void> {
  await writeIfCondition(() =>
    updatePlatformItem(communityId, {
      set: { discordAuditCursor: cursor },
      // Snowflakes of equal length compare as strings; a longer one is newer.
      condition: {
        expression:
          'attribute_not_exists(discordAuditCursor) OR size(discordAuditCursor) < :len OR (size(discordAuditCursor) = :len AND discordAuditCursor < :c)',
        values: { ':c': cursor, ':len': cursor.length },
      },
    }),
  );
}
