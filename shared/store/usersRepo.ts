import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AddOnQuantities } from '#shared/domain/billing/plans';
import { ddb, table } from './client';
import { apiKeyKey, emailKey, referralCodeKey, subscriptionOwnerKey, userProfileKey } from './keys';
import type { TransactItem, TransactItems } from './transactions';
import { defineEntity } from './entity';
import type { Condition } from './update';

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

const users = defineEntity<UserRecord>()({
  name: 'user',
  key: (u: Pick<UserRecord, 'id'>) => userProfileKey(u.id),
});
/** Items that point at their account: a key hash, an e-mail address, a referral code, a subscription. */
interface Owner {
  userId: string;
}
const apiKeys = defineEntity<Owner>()({
  name: 'apiKey',
  key: (k: { keyHash: string }) => apiKeyKey(k.keyHash),
  keyOnly: ['keyHash'],
});
const emailGuards = defineEntity<Owner>()({
  name: 'emailGuard',
  key: (g: { email: string }) => emailKey(g.email),
  keyOnly: ['email'],
});
const referralGuards = defineEntity<Owner>()({
  name: 'referralGuard',
  key: (g: { referralCode: string }) => referralCodeKey(g.referralCode),
  keyOnly: ['referralCode'],
});
/** A subscription's account; `deletedAt` once Stripe has deleted it (possibly before its checkout was applied). */
const subscriptionOwners = defineEntity<Owner & { deletedAt?: string }>()({
  name: 'subscriptionOwner',
  key: (s: { subscriptionId: string }) => subscriptionOwnerKey(s.subscriptionId),
  keyOnly: ['subscriptionId'],
});

export async function getUser(userId: string): Promise<UserRecord | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: userProfileKey(userId) }));
  return users.maybe(Item);
}

export async function findUserIdByApiKeyHash(keyHash: string): Promise<string | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: apiKeyKey(keyHash) }));
  return apiKeys.maybe(Item)?.userId;
}

export async function findUserIdByEmail(email: string): Promise<string | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: emailKey(email) }));
  return emailGuards.maybe(Item)?.userId;
}

export async function findUserIdBySubscription(subscriptionId: string): Promise<string | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: subscriptionOwnerKey(subscriptionId) }));
  return subscriptionOwners.maybe(Item)?.userId;
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
        Item: users.item(user),
        ConditionExpression: mustBeNew,
      },
    },
    email: {
      Put: {
        TableName: T,
        Item: emailGuards.item({ email: user.email, userId: user.id }),
        ConditionExpression: mustBeNew,
      },
    },
    referralCode: {
      Put: {
        TableName: T,
        Item: referralGuards.item({ referralCode: user.referralCode, userId: user.id }),
        ConditionExpression: mustBeNew,
      },
    },
    apiKey: user.apiKeyHash
      ? {
          Put: {
            TableName: T,
            Item: apiKeys.item({ keyHash: user.apiKeyHash, userId: user.id }),
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
        ...users.update({
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
        Item: apiKeys.item({ keyHash: newHash, userId: user.id }),
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
        ...users.update({
          set: { email: newEmail, updatedAt: at },
          condition: { expression: 'email = :old', values: { ':old': user.email } },
        }),
      },
    },
    email: {
      Put: {
        TableName: T,
        Item: emailGuards.item({ email: newEmail, userId: user.id }),
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
      ...users.update({ set: { ...fields, updatedAt: at }, condition: 'attribute_exists(pk)' }),
      ReturnValues: 'ALL_NEW',
    }),
  );
  // ALL_NEW of an update whose condition held: the profile.
  return users.fromItem(Attributes ?? {});
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
      ...users.update({
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
      ...users.update({ add: { liveChats: delta }, condition: 'attribute_exists(liveChats)' }),
    },
  };
}

/** Names the subscription's account, with the checkout that starts it; fails for a subscription Stripe has deleted. */
export function subscriptionOwnerItem(subscriptionId: string, userId: string): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: subscriptionOwners.item({ subscriptionId, userId }),
      ConditionExpression: 'attribute_not_exists(deletedAt)',
    },
  };
}

/** Records that Stripe deleted the subscription, so a checkout of it delivered late starts nothing. */
export async function markSubscriptionDeleted(subscriptionId: string, userId: string, at: string): Promise<void> {
  await ddb().send(
    new UpdateCommand({
      TableName: table(),
      Key: subscriptionOwnerKey(subscriptionId),
      ...subscriptionOwners.update({
        set: { deletedAt: at, entity: 'subscriptionOwner' },
        setIfNotExists: { userId },
      }),
    }),
  );
}
