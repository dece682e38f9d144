import { ConflictError, NotFoundError, UnauthorizedError } from '#shared/domain/errors';
import { now } from '#shared/adapters/ports';
import { randomToken, uuidv7 } from '#shared/ids';
import {
  changeEmailItems,
  getUser,
  newUserItems,
  rotateApiKeyItems,
  updateUserFields,
  type Tier,
  type UserRecord,
} from '#shared/store/usersRepo';
import { TransactionConditionError, writeTogether } from '#shared/store/transactions';
import { grantCredits } from '#shared/domain/credits/credits';
import { addOneMonth } from '#shared/domain/billing/plans';
import { issueApiKey } from './apiKeys';

export interface NewAccount {
  email: string;
  tier?: Tier;
  credits?: number;
  fullName?: string | null;
  /** A key chosen by the operator (demo keys); otherwise one is generated. */
  apiKey?: string;
}

/** Whether `err` is a transaction whose item `name` failed its condition. */
const failedOn = (err: unknown, name: string) => err instanceof TransactionConditionError && err.failed.has(name);

/** Creates an account and returns its key: the only time the full key exists outside the caller. */
export async function createAccount(input: NewAccount): Promise<{ user: UserRecord; apiKey: string }> {
  const at = now();
  const key = issueApiKey(input.apiKey);
  const tier = input.tier ?? 'developer';
  const user: UserRecord = {
    id: uuidv7(at.getTime()),
    email: input.email,
    fullName: input.fullName ?? null,
    isActive: true,
    role: 'user',
    tier,
    // An operator-made pro account is active for one period without a payment processor.
    subscriptionStatus: tier === 'pro' ? 'active' : 'inactive',
    currentPeriodStart: tier === 'pro' ? at.toISOString() : null,
    currentPeriodEnd: tier === 'pro' ? addOneMonth(at).toISOString() : null,
    addOns: {},
    apiKeyHash: key.hash,
    apiKeyLastFour: key.lastFour,
    referralCode: randomToken(10).replace(/[-_]/g, 'X').toUpperCase(),
    stripeCustomerId: null,
    stripeSubscriptionId: null,
    downgradeAt: null,
    liveChats: 0,
    createdAt: at.toISOString(),
    updatedAt: at.toISOString(),
  };
  try {
    await writeTogether(newUserItems(user));
  } catch (err) {
    if (failedOn(err, 'email'))
      throw new ConflictError('email_in_use', `The e-mail address ${input.email} is already in use.`);
    if (failedOn(err, 'apiKey'))
      throw new ConflictError('idempotency_conflict', 'That API key is already assigned to another account.');
    throw err;
  }
  if (input.credits && input.credits > 0) {
    await grantCredits({ userId: user.id, grantId: `initial-${user.id}`, amount: input.credits, source: 'operator' });
  }
  return { user, apiKey: key.apiKey };
}

/**
 * Loads the caller named by the authorizer and checks the key is still the account's current one.
 * The authorizer's answer is cached by API Gateway; this check is what makes a rotated key stop
 * working at once.
 */
export async function loadCaller(userId: string | undefined, keyHash: string | undefined): Promise<UserRecord> {
  if (!userId || !keyHash) throw new UnauthorizedError();
  const user = await getUser(userId);
  if (!user?.isActive || user.apiKeyHash !== keyHash) throw new UnauthorizedError();
  return effectiveUser(user, now());
}

/** A cancelled subscription keeps pro until its period ends, then reads as developer. */
export function effectiveUser(user: UserRecord, at: Date): UserRecord {
  if (user.downgradeAt && at.getTime() >= Date.parse(user.downgradeAt)) return { ...user, tier: 'developer' };
  return user;
}

export async function rotateApiKey(user: UserRecord): Promise<{ apiKey: string; lastFour: string }> {
  const key = issueApiKey();
  try {
    await writeTogether(rotateApiKeyItems(user, key.hash, key.lastFour, now().toISOString()));
  } catch (err) {
    // A parallel rotation replaced the key this request came with: that key is no longer valid.
    if (failedOn(err, 'profile')) throw new UnauthorizedError();
    throw err;
  }
  return { apiKey: key.apiKey, lastFour: key.lastFour };
}

/** PATCH /users/me: the profile after the change, read as every request reads its caller (a due downgrade applied). */
export async function updateProfile(
  user: UserRecord,
  patch: { full_name?: string | null; email?: string },
): Promise<UserRecord> {
  return effectiveUser(await applyProfilePatch(user, patch), now());
}

async function applyProfilePatch(
  user: UserRecord,
  patch: { full_name?: string | null; email?: string },
  attempt = 0,
): Promise<UserRecord> {
  const at = now().toISOString();
  if (patch.email !== undefined && patch.email.toLowerCase() !== user.email.toLowerCase()) {
    try {
      await writeTogether(changeEmailItems(user, patch.email, at));
    } catch (err) {
      if (failedOn(err, 'email')) throw new ConflictError('email_in_use', 'That e-mail address is already in use.');
      // Another request changed the address since this one read it: start again from the fresh profile.
      if (failedOn(err, 'profile') && attempt < 3) {
        const fresh = await getUser(user.id);
        if (!fresh) throw new NotFoundError('User');
        return applyProfilePatch(fresh, patch, attempt + 1);
      }
      throw err;
    }
  } else if (patch.email !== undefined && patch.email !== user.email) {
    // Same address, different case: the guard item is keyed case-insensitively and stays.
    await updateUserFields(user.id, { email: patch.email }, at);
  }
  const fields: Partial<UserRecord> = {};
  if (patch.full_name !== undefined) fields.fullName = patch.full_name;
  if (Object.keys(fields).length > 0 || patch.email !== undefined) return updateUserFields(user.id, fields, at);
  const fresh = await getUser(user.id);
  if (!fresh) throw new NotFoundError('User');
  return fresh;
}
