import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AddOnQuantities } from '#shared/domain/billing/plans';
import { ddb, table } from './client';
import { apiKeyKey, emailKey, referralCodeKey, subscriptionOwnerKey, userProfileKey } from './keys';
import type { TransactItem } from './transactions';
import { setFields } from './query';
import { defineEntity } from './entity';

export type Tier = 'developer' | 'pro';

export interface UserRecord {
  id: string;
  email: string;
  fullName: string | null;
  isActive: boolean;
  role: 'user' | 'admin';
  tier: Tier;
  subscriptionStatus: string;
  currentPeriodStart: string | null;
  currentPeriodEnd: string | null;
  addOns: AddOnQuantities;
  apiKeyHash: string | null;
  apiKeyLastFour: string | null;
  referralCode: string;
  stripeCustomerId: string | null;
  stripeSubscriptionId: string | null;
  /** Set when the subscription was deleted: the tier falls back to developer at this instant. */
  downgradeAt: string | null;
  /** `created` (epoch seconds) of the newest subscription event applied, so a late older event cannot win. */
  subscriptionEventAt?: number;
  createdAt: string;
  updatedAt: string;
}

const stripKeys = defineEntity<UserRecord>('user').fromItem;

export async function getUser(userId: string): Promise<UserRecord | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: userProfileKey(userId) }));
  return Item ? stripKeys(Item) : undefined;
}

export async function findUserIdByApiKeyHash(keyHash: string): Promise<string | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: apiKeyKey(keyHash) }));
  return Item?.userId as string | undefined;
}

export async function findUserIdByEmail(email: string): Promise<string | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: emailKey(email) }));
  return Item?.userId as string | undefined;
}

export async function findUserIdBySubscription(subscriptionId: string): Promise<string | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: subscriptionOwnerKey(subscriptionId) }));
  return Item?.userId as string | undefined;
}

/** The items that make a new account: profile, e-mail and referral-code guards, the key. */
export function newUserItems(user: UserRecord): TransactItem[] {
  const T = table();
  const mustBeNew = 'attribute_not_exists(pk)';
  const items: TransactItem[] = [
    { Put: { TableName: T, Item: { ...userProfileKey(user.id), entity: 'user', ...user }, ConditionExpression: mustBeNew } },
    { Put: { TableName: T, Item: { ...emailKey(user.email), entity: 'emailGuard', userId: user.id }, ConditionExpression: mustBeNew } },
    { Put: { TableName: T, Item: { ...referralCodeKey(user.referralCode), entity: 'referralGuard', userId: user.id }, ConditionExpression: mustBeNew } },
  ];
  if (user.apiKeyHash) {
    items.push({ Put: { TableName: T, Item: { ...apiKeyKey(user.apiKeyHash), entity: 'apiKey', userId: user.id }, ConditionExpression: mustBeNew } });
  }
  return items;
}

/** Swaps the user's key: the old key item goes in the same transaction, so it stops working at once. */
export function rotateApiKeyItems(user: UserRecord, newHash: string, lastFour: string, at: string): TransactItem[] {
  const T = table();
  const items: TransactItem[] = [
    {
      Update: {
        TableName: T,
        Key: userProfileKey(user.id),
        UpdateExpression: 'SET apiKeyHash = :h, apiKeyLastFour = :l, updatedAt = :u',
        ConditionExpression: user.apiKeyHash === null ? 'attribute_exists(pk) AND apiKeyHash = :null' : 'apiKeyHash = :old',
        ExpressionAttributeValues: { ':h': newHash, ':l': lastFour, ':u': at, ...(user.apiKeyHash === null ? { ':null': null } : { ':old': user.apiKeyHash }) },
      },
    },
    { Put: { TableName: T, Item: { ...apiKeyKey(newHash), entity: 'apiKey', userId: user.id }, ConditionExpression: 'attribute_not_exists(pk)' } },
  ];
  if (user.apiKeyHash) items.push({ Delete: { TableName: T, Key: apiKeyKey(user.apiKeyHash) } });
  return items;
}

/** Changes the e-mail address and moves its uniqueness guard in one transaction. */
export function changeEmailItems(user: UserRecord, newEmail: string, at: string): TransactItem[] {
  const T = table();
  return [
    {
      Update: {
        TableName: T,
        Key: userProfileKey(user.id),
        UpdateExpression: 'SET email = :e, updatedAt = :u',
        ConditionExpression: 'email = :old',
        ExpressionAttributeValues: { ':e': newEmail, ':u': at, ':old': user.email },
      },
    },
    { Put: { TableName: T, Item: { ...emailKey(newEmail), entity: 'emailGuard', userId: user.id }, ConditionExpression: 'attribute_not_exists(pk) OR userId = :id', ExpressionAttributeValues: { ':id': user.id } } },
    ...(user.email.toLowerCase() === newEmail.toLowerCase() ? [] : [{ Delete: { TableName: T, Key: emailKey(user.email) } }]),
  ];
}

export async function updateUserFields(userId: string, fields: Partial<UserRecord>, at: string): Promise<UserRecord> {
  const { Attributes } = await ddb().send(
    new UpdateCommand({
      TableName: table(),
      Key: userProfileKey(userId),
      ...setFields({ ...fields, updatedAt: at }),
      ConditionExpression: 'attribute_exists(pk)',
      ReturnValues: 'ALL_NEW',
    }),
  );
  return stripKeys(Attributes!);
}

/** A guard on the profile's current values, ANDed with its existence (e.g. "no other active subscription"). */
export interface UserCondition {
  expression: string;
  values: Record<string, unknown>;
}

export function updateUserItem(userId: string, fields: Partial<UserRecord>, at: string, condition?: UserCondition): TransactItem {
  const update = setFields({ ...fields, updatedAt: at });
  return {
    Update: {
      TableName: table(),
      Key: userProfileKey(userId),
      ...update,
      ConditionExpression: condition ? `attribute_exists(pk) AND (${condition.expression})` : 'attribute_exists(pk)',
      ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ...(condition?.values ?? {}) },
    },
  };
}

export function subscriptionOwnerItem(subscriptionId: string, userId: string): TransactItem {
  return { Put: { TableName: table(), Item: { ...subscriptionOwnerKey(subscriptionId), entity: 'subscriptionOwner', userId } } };
}
