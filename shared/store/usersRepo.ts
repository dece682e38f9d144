import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AddOnQuantities } from '#shared/domain/billing/plans';
import { ddb, table } from './client';
import { apiKeyKey, emailKey, referralCodeKey, subscriptionOwnerKey, userProfileKey } from './keys';
import type { TransactItem, TransactItems } from './transactions';
import { defineEntity } from './entity';
import { buildUpdate, type Condition } from './update';

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
  /**
   * How many live chats the user has, kept in the transaction of every chat created or deleted, so a
   * chat list answers its total without reading every chat. Accounts made before the count began
   * have none: their lists count the chats instead (nothing ever starts a count later, so it is
   * never off by what happened before it).
   */
  liveChats?: number;
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

/**
 * The items that make a new account: the profile, the e-mail and referral-code guards and the key.
 * A failed `email` or `apiKey` means the address or the key belongs to another account.
 */
export function newUserItems(user: UserRecord): TransactItems {
  const T = table();
  const mustBeNew = 'attribute_not_exists(pk)';
  return {
    profile: {
      Put: {
        TableName: T,
        Item: { ...userProfileKey(user.id), entity: 'user', ...user },
        ConditionExpression: mustBeNew,
      },
    },
    email: {
      Put: {
        TableName: T,
        Item: { ...emailKey(user.email), entity: 'emailGuard', userId: user.id },
        ConditionExpression: mustBeNew,
      },
    },
    referralCode: {
      Put: {
        TableName: T,
        Item: { ...referralCodeKey(user.referralCode), entity: 'referralGuard', userId: user.id },
        ConditionExpression: mustBeNew,
      },
    },
    apiKey: user.apiKeyHash
      ? {
          Put: {
            TableName: T,
            Item: { ...apiKeyKey(user.apiKeyHash), entity: 'apiKey', userId: user.id },
            ConditionExpression: mustBeNew,
          },
        }
      : undefined,
  };
}

/**
 * Swaps the user's key: the old key item goes in the same transaction, so it stops working at once.
 * A failed `profile` means the key was swapped by someone else since `user` was read.
 */
export function rotateApiKeyItems(user: UserRecord, newHash: string, lastFour: string, at: string): TransactItems {
  const T = table();
  return {
    profile: {
      Update: {
        TableName: T,
        Key: userProfileKey(user.id),
        ...buildUpdate({
          set: { apiKeyHash: newHash, apiKeyLastFour: lastFour, updatedAt: at },
          condition:
            user.apiKeyHash === null
              ? { expression: 'attribute_exists(pk) AND apiKeyHash = :null', values: { ':null': null } }
              : { expression: 'apiKeyHash = :old', values: { ':old': user.apiKeyHash } },
        }),
      },
    },
    newKey: {
      Put: {
        TableName: T,
        Item: { ...apiKeyKey(newHash), entity: 'apiKey', userId: user.id },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    oldKey: user.apiKeyHash ? { Delete: { TableName: T, Key: apiKeyKey(user.apiKeyHash) } } : undefined,
  };
}

/**
 * Changes the e-mail address and moves its uniqueness guard in one transaction. A failed `email`
 * means another account has the address; a failed `profile`, that the address changed since `user` was read.
 */
export function changeEmailItems(user: UserRecord, newEmail: string, at: string): TransactItems {
  const T = table();
  return {
    profile: {
      Update: {
        TableName: T,
        Key: userProfileKey(user.id),
        ...buildUpdate({
          set: { email: newEmail, updatedAt: at },
          condition: { expression: 'email = :old', values: { ':old': user.email } },
        }),
      },
    },
    email: {
      Put: {
        TableName: T,
        Item: { ...emailKey(newEmail), entity: 'emailGuard', userId: user.id },
        ConditionExpression: 'attribute_not_exists(pk) OR userId = :id',
        ExpressionAttributeValues: { ':id': user.id },
      },
    },
    oldEmail:
      user.email.toLowerCase() === newEmail.toLowerCase()
        ? undefined
        : { Delete: { TableName: T, Key: emailKey(user.email) } },
  };
}

export async function updateUserFields(userId: string, fields: Partial<UserRecord>, at: string): Promise<UserRecord> {
  const { Attributes } = await ddb().send(
    new UpdateCommand({
      TableName: table(),
      Key: userProfileKey(userId),
      ...buildUpdate({ set: { ...fields, updatedAt: at }, condition: 'attribute_exists(pk)' }),
      ReturnValues: 'ALL_NEW',
    }),
  );
  return stripKeys(Attributes!);
}

/** A guard on the profile's current values, ANDed with its existence (e.g. "no other active subscription"). */
export type UserCondition = Condition;

export function updateUserItem(
  userId: string,
  fields: Partial<UserRecord>,
  at: string,
  condition?: UserCondition,
): TransactItem {
  return {
    Update: {
      TableName: table(),
      Key: userProfileKey(userId),
      ...buildUpdate({
        set: { ...fields, updatedAt: at },
        condition: condition
          ? { ...condition, expression: `attribute_exists(pk) AND (${condition.expression})` }
          : 'attribute_exists(pk)',
      }),
    },
  };
}

/** Moves the owner's live-chat count with a chat created (+1) or deleted (-1); only for accounts that keep one. */
export function liveChatsChangeItem(userId: string, delta: 1 | -1): TransactItem {
  return {
    Update: {
      TableName: table(),
      Key: userProfileKey(userId),
      ...buildUpdate({ add: { liveChats: delta }, condition: 'attribute_exists(liveChats)' }),
    },
  };
}

export function subscriptionOwnerItem(subscriptionId: string, userId: string): TransactItem {
  return {
    Put: { TableName: table(), Item: { ...subscriptionOwnerKey(subscriptionId), entity: 'subscriptionOwner', userId } },
  };
}
