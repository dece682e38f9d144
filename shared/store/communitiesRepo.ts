import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { CommunityType } from '#shared/domain/moderation/communityTypes';
import type { BillingState } from '#shared/domain/moderation/renewalRules';
import { ddb, table, updateIf, writeIfCondition } from './client';
import {
  communitiesPartition,
  communityKey,
  moderationIdKey,
  RENEWAL_SHARDS,
  renewalDueIndexKey,
  renewalDuePartition,
  renewalDueUpTo,
} from './keys';
import { writeTogether, type TransactItem, type TransactItems } from './transactions';
import { queryAll, queryDueShards } from './query';
import { defineEntity, type IndexAttributes } from './entity';
import { setOrRemove, type Condition } from './update';

export interface CommunitySettings {
  name: string;
  projectName: string;
  type: CommunityType;
  whitelistedRoleIds: string[];
  whitelistedUsernames: string[];
  shouldSendWelcomeMessages: boolean;
  welcomeMessage: string | null;
  alertTemplate: string | null;
}

export interface CommunityRecord extends CommunitySettings {
  id: string;
  userId: string;
  moderationId: string;
  /** Null for types that need no activation. */
  activationToken: string | null;
  /** Null until the bot proved it is in the chat (types that need activation). */
  activatedAt: string | null;
  /**
   * What the activation token may still do: `live` binds once, `<role>:<place>` names the place it bound
   * (and may bind again, so a repeated command is harmless), null on items from before tokens bound once
   * (activationToken.ts reads those).
   */
  activationTokenUse: string | null;
  creditsCharged: number;
  monthlyCreditCost: number;
  billingState: BillingState;
  autoRenew: boolean;
  /** Null once expired. */
  nextBillingAt: string | null;
  periodIndex: number;
  suspendedAt: string | null;
  /**
   * When a suspended community was last paid again. What was written on a polled platform before then,
   * while nothing was monitored, is not moderated (as on the platforms that push, where it was ignored).
   */
  resumedAt: string | null;
  lastSyncedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** An activation token that has bound nothing yet (CommunityRecord.activationTokenUse). */
export const LIVE_TOKEN = 'live';

/** Null attributes are not stored (so conditions can use attribute_not_exists); reading puts them back. */
const communities = defineEntity<CommunityRecord>()({
  name: 'community',
  key: (c: Pick<CommunityRecord, 'userId' | 'id'>) => communityKey(c.userId, c.id),
  nullable: [
    'activationToken',
    'activatedAt',
    'activationTokenUse',
    'welcomeMessage',
    'alertTemplate',
    'nextBillingAt',
    'suspendedAt',
    'resumedAt',
    'lastSyncedAt',
  ],
});
const fromItem = communities.fromItem;

/** From the engine's public id to the community's owner, for the platforms' webhooks. */
const communityPointers = defineEntity<{ userId: string; communityId: string }>()({
  name: 'communityPointer',
  key: (p: { moderationId: string }) => moderationIdKey(p.moderationId),
  keyOnly: ['moderationId'],
});

/** The community and its engine pointer, written together (with the provisioning charge). */
export function putNewCommunity(c: CommunityRecord): TransactItems {
  return {
    community: {
      Put: {
        TableName: table(),
        Item: communities.item(c, c.nextBillingAt === null ? {} : renewalDueIndexKey(c.id, c.nextBillingAt)),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    communityPointer: {
      Put: {
        TableName: table(),
        Item: communityPointers.item({ moderationId: c.moderationId, userId: c.userId, communityId: c.id }),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  };
}

export async function getCommunity(
  userId: string,
  communityId: string,
  consistent = false,
): Promise<CommunityRecord | undefined> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: communityKey(userId, communityId), ConsistentRead: consistent }),
  );
  return communities.maybe(Item);
}

export async function getCommunityByModerationId(moderationId: string): Promise<CommunityRecord | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: moderationIdKey(moderationId) }));
  const pointer = communityPointers.maybe(Item);
  return pointer ? getCommunity(pointer.userId, pointer.communityId) : undefined;
}

/** All of a user's communities, newest first (ids are UUID v7, so the sort key is creation order). */
export async function listCommunities(userId: string): Promise<CommunityRecord[]> {
  const { pk, prefix } = communitiesPartition(userId);
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
    ScanIndexForward: false,
  });
  return items.map(fromItem);
}

/** The caller's newest community, one item read. */
export async function newestCommunity(userId: string): Promise<CommunityRecord | undefined> {
  const { pk, prefix } = communitiesPartition(userId);
  const page = await ddb().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
      ScanIndexForward: false,
      Limit: 1,
    }),
  );
  return communities.maybe(page.Items?.[0]);
}

/** SET the non-null fields, REMOVE the null ones, under `guard`; the new record, or undefined when the guard failed. */
function updateItem(
  userId: string,
  communityId: string,
  fields: Partial<CommunityRecord & IndexAttributes>,
  guard: Condition,
  remove: (keyof IndexAttributes)[] = [],
) {
  const changes = setOrRemove(fields);
  return {
    TableName: table(),
    Key: communityKey(userId, communityId),
    ...communities.update({
      set: changes.set,
      remove: [...changes.remove, ...remove],
      condition: { expression: `attribute_exists(pk) AND (${guard.expression})`, values: guard.values },
    }),
  };
}

async function updateOrUndefined(input: ReturnType<typeof updateItem>): Promise<CommunityRecord | undefined> {
  return communities.maybe(await updateIf(input));
}

export type CommunityChanges = Partial<
  CommunitySettings & Pick<CommunityRecord, 'activationToken' | 'activatedAt' | 'activationTokenUse'>
>;

export function updateCommunitySettings(
  userId: string,
  communityId: string,
  changes: CommunityChanges,
  updatedAt: string,
) {
  return updateOrUndefined(
    updateItem(userId, communityId, { ...changes, updatedAt }, { expression: 'attribute_exists(sk)' }),
  );
}

/** Auto-renewal can change until the community expires. */
export function updateAutoRenew(userId: string, communityId: string, autoRenew: boolean, updatedAt: string) {
  return updateOrUndefined(
    updateItem(
      userId,
      communityId,
      { autoRenew, updatedAt },
      { expression: 'billingState <> :expired', values: { ':expired': 'expired' } },
    ),
  );
}

export function stampSynced(userId: string, communityId: string, at: string) {
  return updateOrUndefined(
    updateItem(userId, communityId, { lastSyncedAt: at }, { expression: 'attribute_exists(sk)' }),
  );
}

/** Removes the community and its pointer; false when it was already gone. Leaving gsi3 with the item stops billing. */
export async function deleteCommunityItems(c: CommunityRecord): Promise<boolean> {
  return writeIfCondition(() =>
    writeTogether({
      community: {
        Delete: { TableName: table(), Key: communityKey(c.userId, c.id), ConditionExpression: 'attribute_exists(pk)' },
      },
      communityPointer: { Delete: { TableName: table(), Key: moderationIdKey(c.moderationId) } },
    }),
  );
}

// ---- Renewals: every write is conditioned on the period the sweep saw, so only one sweep wins it ----

const samePeriod = (c: CommunityRecord): Condition => ({
  expression: 'nextBillingAt = :due AND periodIndex = :period',
  values: { ':due': c.nextBillingAt, ':period': c.periodIndex },
});

/** Transaction item moving the community into its next period (written with the renewal charge). */
export function advanceBillingPeriod(
  c: CommunityRecord,
  period: number,
  nextBillingAt: string,
  at: string,
): TransactItem {
  const update = updateItem(
    c.userId,
    c.id,
    {
      periodIndex: period,
      nextBillingAt,
      billingState: 'active',
      suspendedAt: null,
      ...(c.billingState === 'suspended' ? { resumedAt: at } : {}),
      updatedAt: at,
      ...renewalDueIndexKey(c.id, nextBillingAt),
    },
    {
      // The state read too: a suspension keeps the period, so a sweep that read the community active before
      // another suspended it would otherwise pay it as never suspended (no resumedAt, the unpaid days billed).
      expression: `${samePeriod(c).expression} AND billingState = :seen AND autoRenew = :true`,
      values: { ...samePeriod(c).values, ':seen': c.billingState, ':true': true },
    },
  );
  return { Update: update };
}

// ---- Guarded changes as transaction items, so a webhook outbox event can be written with them -----

/** Activation succeeds once, and only with the community's own token. */
const activationUpdate = (c: CommunityRecord, token: string, at: string) =>
  updateItem(
    c.userId,
    c.id,
    { activatedAt: at, updatedAt: at },
    { expression: 'attribute_not_exists(activatedAt) AND activationToken = :token', values: { ':token': token } },
  );
export const markActivatedItem = (c: CommunityRecord, token: string, at: string): TransactItem => ({
  Update: activationUpdate(c, token, at),
});

/**
 * A community without an activation token (reddit, x and crisp were connected at once, unbound, before
 * every type had to be bound on its platform) gets one and goes back to waiting for its binding: once,
 * whoever reads it first; its billing is untouched.
 */
export const giveActivationTokenItem = (c: CommunityRecord, token: string, at: string): TransactItem => ({
  Update: updateItem(
    c.userId,
    c.id,
    { activationToken: token, activationTokenUse: LIVE_TOKEN, activatedAt: null, updatedAt: at },
    { expression: 'attribute_not_exists(activationToken)' },
  ),
});

/**
 * Moves what the community's token may do from `from` (null: the attribute is absent) to `to`, only while
 * the token is still `token`: of two places presenting one token at once, one takes it.
 */
export async function moveActivationTokenUse(
  c: Pick<CommunityRecord, 'userId' | 'id'>,
  token: string,
  from: string | null,
  to: string,
  at: string,
): Promise<boolean> {
  const seen = from === null ? 'attribute_not_exists(activationTokenUse)' : 'activationTokenUse = :from';
  return (
    (await updateOrUndefined(
      updateItem(
        c.userId,
        c.id,
        { activationTokenUse: to, updatedAt: at },
        {
          expression: `activationToken = :token AND ${seen}`,
          values: { ':token': token, ...(from === null ? {} : { ':from': from }) },
        },
      ),
    )) !== undefined
  );
}

/** A fresh token replacing `previous` (the one the owner read), for a community that can still moderate. */
export const reissueActivationTokenItem = (
  c: Pick<CommunityRecord, 'userId' | 'id'>,
  previous: string | null,
  token: string,
  at: string,
): TransactItem => ({
  Update: updateItem(
    c.userId,
    c.id,
    { activationToken: token, activationTokenUse: LIVE_TOKEN, updatedAt: at },
    previous === null
      ? {
          expression: 'attribute_not_exists(activationToken) AND billingState <> :expired',
          values: { ':expired': 'expired' },
        }
      : {
          expression: 'activationToken = :previous AND billingState <> :expired',
          values: { ':previous': previous, ':expired': 'expired' },
        },
  ),
});

/**
 * Holds a transaction to a community that still exists, is still of `type` and has not expired: what is
 * written with it (an X account's grant) is never kept for a community deleted, retyped or expired meanwhile.
 */
export const stillOfTypeItem = (c: Pick<CommunityRecord, 'userId' | 'id'>, type: CommunityType): TransactItem => ({
  ConditionCheck: {
    TableName: table(),
    Key: communityKey(c.userId, c.id),
    ConditionExpression: 'attribute_exists(pk) AND #type = :type AND billingState <> :expired',
    ExpressionAttributeNames: { '#type': 'type' },
    ExpressionAttributeValues: { ':type': type, ':expired': 'expired' },
  },
});

/** A failed renewal: monitoring stops, the due time stays so every later sweep retries. */
function suspensionUpdate(c: CommunityRecord, at: string) {
  const guard = samePeriod(c);
  return updateItem(
    c.userId,
    c.id,
    { billingState: 'suspended', suspendedAt: at, updatedAt: at },
    { expression: `${guard.expression} AND billingState = :active`, values: { ...guard.values, ':active': 'active' } },
  );
}
export const suspendForNonPaymentItem = (c: CommunityRecord, at: string): TransactItem => ({
  Update: suspensionUpdate(c, at),
});

/** Auto-renew off and the period over: the community leaves the due index for good. */
function expiryUpdate(c: CommunityRecord, at: string) {
  const guard = samePeriod(c);
  return updateItem(
    c.userId,
    c.id,
    { billingState: 'expired', nextBillingAt: null, suspendedAt: null, updatedAt: at },
    { expression: `${guard.expression} AND autoRenew = :false`, values: { ...guard.values, ':false': false } },
    ['gsi3pk', 'gsi3sk'],
  );
}
export const expireAtPeriodEndItem = (c: CommunityRecord, at: string): TransactItem => ({
  Update: expiryUpdate(c, at),
});

/** Every billing community whose due time is at or before `atIso`: a Query per shard of the sparse gsi3. */
export async function listDueCommunities(atIso: string): Promise<CommunityRecord[]> {
  const items = await queryDueShards(RENEWAL_SHARDS, renewalDuePartition, renewalDueUpTo(atIso));
  return items.map(fromItem);
}
