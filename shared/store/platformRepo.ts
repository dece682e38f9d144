/**
 * Where each community lives on its platform: the activation-token pointer, the bindings of places on
 * a platform (chat, guild, subreddit, account, website) to communities, and the community's platform
 * record (chat, alert chat, guild, audit-log cursor, last AutoMod sync).
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { sha256Hex } from '#shared/ids';
import { ddb, isConditionFailure, table, writeIfCondition } from './client';
import {
  AUTOMOD_SYNC_DUE_PARTITION,
  activationTokenKey,
  automodSyncDueIndexKey,
  automodSyncDueUpTo,
  moderationPlatformKey,
  platformBindingKey,
} from './keys';
import { queryDueShards } from './query';
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

export interface CommunityPointer {
  userId: string;
  communityId: string;
}

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
const platformRecords = defineEntity<PlatformRecord>()({
  name: 'moderationPlatform',
  key: (p: { communityId: string }) => moderationPlatformKey(p.communityId),
  // advanceAuditCursor may create it without the name.
  createdByUpdate: true,
});
const activationPointers = defineEntity<CommunityPointer>()({
  name: 'activationPointer',
  key: (p: { tokenHash: string }) => activationTokenKey(p.tokenHash),
  keyOnly: ['tokenHash'],
});
const bindings = defineEntity<Binding & { platform: string; externalId: string }>()({
  name: 'platformBinding',
  key: (b: { platform: string; externalId: string }) => platformBindingKey(b.platform, b.externalId),
});

/** The changes of a platform record: null removes a field. */
export type PlatformChanges = { [K in keyof PlatformRecord]?: PlatformRecord[K] | null };

/** One UpdateItem of a community's platform record (a failed condition throws, for writeIfCondition to read). */
const updatePlatform = (communityId: string, spec: Parameters<typeof platformRecords.update>[0]) =>
  ddb().send(
    new UpdateCommand({ TableName: table(), Key: moderationPlatformKey(communityId), ...platformRecords.update(spec) }),
  );

export const putActivationPointer = (token: string, pointer: CommunityPointer): TransactItem => ({
  Put: {
    TableName: table(),
    Item: activationPointers.item({ tokenHash: sha256Hex(token), ...pointer }),
  },
});

/** A replaced token no longer finds its community. */
export const deleteActivationPointer = (token: string): TransactItem => ({
  Delete: { TableName: table(), Key: activationTokenKey(sha256Hex(token)) },
});

export async function writeActivationPointer(token: string, pointer: CommunityPointer): Promise<void> {
  await ddb().send(
    new PutCommand({ TableName: table(), Item: activationPointers.item({ tokenHash: sha256Hex(token), ...pointer }) }),
  );
}

export async function communityByActivationToken(token: string): Promise<CommunityPointer | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: activationTokenKey(sha256Hex(token)) }));
  const pointer = activationPointers.maybe(Item);
  return pointer ? { userId: pointer.userId, communityId: pointer.communityId } : undefined;
}

export type BindingRole = 'moderated' | 'alerts';
export interface Binding extends CommunityPointer {
  role: BindingRole;
}

const bindingOf = (item: Record<string, unknown>): Binding => {
  const { userId, communityId, role } = bindings.fromItem(item);
  return { userId, communityId, role };
};

/**
 * Binds a place on a platform to a community, if it is free or already that community's (a
 * conditional put: two communities binding one place at once cannot both win). `replacing` names a
 * holder the caller decided may be displaced (a deleted or expired community). Otherwise the place
 * stays where it is and the answer names the community holding it.
 */
export async function bindExternal(
  platform: string,
  externalId: string,
  binding: Binding,
  replacing?: CommunityPointer,
): Promise<{ bound: true } | { bound: false; holder: Binding | undefined }> {
  const condition = replacing
    ? { ConditionExpression: 'communityId = :holder', ExpressionAttributeValues: { ':holder': replacing.communityId } }
    : {
        ConditionExpression: 'attribute_not_exists(pk) OR communityId = :c',
        ExpressionAttributeValues: { ':c': binding.communityId },
      };
  try {
    await ddb().send(
      new PutCommand({
        TableName: table(),
        Item: bindings.item({ platform, externalId, ...binding }),
        ...condition,
      }),
    );
    return { bound: true };
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    return { bound: false, holder: await boundCommunity(platform, externalId, true) };
  }
}

export async function boundCommunity(
  platform: string,
  externalId: string,
  consistent = false,
): Promise<Binding | undefined> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: platformBindingKey(platform, externalId), ConsistentRead: consistent }),
  );
  return Item ? bindingOf(Item) : undefined;
}

/** Frees a place, only while it is still the given community's (it may have been bound elsewhere since). */
export async function unbindExternal(platform: string, externalId: string, communityId: string): Promise<void> {
  await writeIfCondition(() =>
    ddb().send(
      new DeleteCommand({
        TableName: table(),
        Key: platformBindingKey(platform, externalId),
        ConditionExpression: 'communityId = :c',
        ExpressionAttributeValues: { ':c': communityId },
      }),
    ),
  );
}

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
  await updatePlatform(communityId, { set: { entity: platformRecords.name, ...set }, remove });
}

/**
 * Why a poll of the community could not read its platform, or null once one reads it again. Only on a
 * record that exists (a bound community has one): a poll racing a deletion creates nothing.
 */
export async function setPollError(communityId: string, error: string | null): Promise<void> {
  await writeIfCondition(() =>
    updatePlatform(communityId, {
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
    updatePlatform(communityId, {
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
    updatePlatform(communityId, {
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

/**
 * How long a read holds the confirmation it claimed. A read that stopped before sending it (the process
 * ended) leaves the claim to lapse: the next read of the still unread message claims it and sends it.
 */
const ACTIVATION_REPLY_LEASE_MS = 120_000;

/**
 * Claims the confirmation of one activation message, so two reads of the message at once (the minute's
 * poll and a POST /sync) send one reply: `claimed` for the read that is to send it; `sent` once one
 * was sent; `held` while another read holds it (that message stays unread until the outcome is known).
 */
export async function claimActivationReply(
  communityId: string,
  messageId: string,
  nowMs: number,
): Promise<'claimed' | 'sent' | 'held'> {
  const claimed = await writeIfCondition(() =>
    updatePlatform(communityId, {
      set: {
        entity: platformRecords.name,
        activationReplyTo: messageId,
        activationReplyUntil: nowMs + ACTIVATION_REPLY_LEASE_MS,
      },
      // A sent reply has no lease left (activationReplyUntil removed), so it is never claimed again.
      condition: {
        expression: 'attribute_not_exists(activationReplyTo) OR activationReplyTo <> :m OR activationReplyUntil < :now',
        values: { ':m': messageId, ':now': nowMs },
      },
    }),
  );
  if (claimed) return 'claimed';
  const { activationReplyTo, activationReplyUntil } = await getPlatformRecord(communityId);
  return activationReplyTo === messageId && activationReplyUntil === undefined ? 'sent' : 'held';
}

/** The claimed confirmation went out: no later read sends it again. */
export async function markActivationReplySent(communityId: string, messageId: string): Promise<void> {
  await writeIfCondition(() =>
    updatePlatform(communityId, {
      remove: ['activationReplyUntil'],
      condition: { expression: 'activationReplyTo = :m', values: { ':m': messageId } },
    }),
  );
}

/** Gives a claim back when its reply could not be sent: the next read of the message claims and sends it. */
export async function releaseActivationReply(communityId: string, messageId: string): Promise<void> {
  await writeIfCondition(() =>
    updatePlatform(communityId, {
      remove: ['activationReplyTo', 'activationReplyUntil'],
      condition: { expression: 'activationReplyTo = :m', values: { ':m': messageId } },
    }),
  );
}

// ---- AutoMod syncs whose queue message may have been lost ----------------------------------------

/**
 * Records that the community's AutoMod rules are to be written (or, with `leftGuildId`, removed from a
 * guild it left), and when the request counts as lost (`dueAt`).
 */
export async function wantAutomodSync(
  communityId: string,
  owner: string,
  at: string,
  dueAt: string,
  leftGuildId?: string,
): Promise<void> {
  await updatePlatformRecord(communityId, {
    automodWantedAt: at,
    automodOwner: owner,
    ...(leftGuildId ? { automodLeftGuildId: leftGuildId } : {}),
    ...automodSyncDueIndexKey(communityId, dueAt),
  });
}

/**
 * Records a finished sync. It leaves the due index only when no sync was asked for after it began
 * (`startedAt`): a request made meanwhile stays due, so its rules are written too.
 */
export async function recordAutomodSync(
  communityId: string,
  startedAt: string,
  fields: { automodSyncedAt?: string; automodError?: string | null },
): Promise<void> {
  const { set, remove } = setOrRemove<PlatformRecord>(fields);
  const update = (leaveIndex: boolean) =>
    updatePlatform(communityId, {
      set: { entity: platformRecords.name, ...set },
      remove: leaveIndex ? [...remove, 'gsi3pk' as const, 'gsi3sk' as const] : remove,
      ...(leaveIndex
        ? {
            condition: {
              expression: 'attribute_not_exists(automodWantedAt) OR automodWantedAt <= :started',
              values: { ':started': startedAt },
            },
          }
        : {}),
    });
  if (!(await writeIfCondition(() => update(true)))) await update(false);
}

export interface DueAutomodSync {
  communityId: string;
  owner: string;
  dueKey: string;
}

export async function listDueAutomodSyncs(atIso: string): Promise<DueAutomodSync[]> {
  const items = await queryDueShards(1, () => AUTOMOD_SYNC_DUE_PARTITION, automodSyncDueUpTo(atIso));
  return items.map((item) => {
    const dueKey = String(item.gsi3sk);
    return { communityId: dueKey.split('#')[1], owner: platformRecords.fromItem(item).automodOwner ?? '', dueKey };
  });
}

/** Moves a due sync to `dueAt` if it is still where it was seen: false when another sweep (or the sync) moved it first. */
export async function claimAutomodSync(communityId: string, seenKey: string, dueAt: string): Promise<boolean> {
  return writeIfCondition(() =>
    updatePlatform(communityId, {
      set: { ...automodSyncDueIndexKey(communityId, dueAt) },
      condition: { expression: 'gsi3sk = :seen', values: { ':seen': seenKey } },
    }),
  );
}
